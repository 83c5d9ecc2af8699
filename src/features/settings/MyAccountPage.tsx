import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useAuthSelector, useServices } from '../../app/ServicesContext';
import { selectUser } from '../../machines/auth';
import { updateCurrentUser, type AccountChanges } from '../../api/endpoints';
import { messageOfError } from '../../api/errors';
import type { User } from '../../api/types';
import { ErrorNote, SubmitButton, TextField } from '../../ui/forms';
import { Card, PageHeader } from '../../ui/PageHeader';
import { PageSpinner } from '../../ui/PageSpinner';
import { PASSWORD_RULE } from '../auth';

const ACCOUNT_UPDATED_MESSAGE = 'Your account has been updated.';

/** Only what changed is sent; a password change needs the current password. */
function accountChanges(
  user: User,
  form: { first_name: string; last_name: string; email: string; current_password: string; new_password: string },
): AccountChanges {
  const changes: AccountChanges = {};
  if (form.first_name.trim() !== user.first_name) changes.first_name = form.first_name.trim();
  if (form.last_name.trim() !== user.last_name) changes.last_name = form.last_name.trim();
  if (form.email.trim() !== user.email) changes.email = form.email.trim();
  if (form.new_password) changes.new_password = form.new_password;
  if (form.current_password) changes.current_password = form.current_password;
  return changes;
}

function MyAccountForm({ user }: { user: User }) {
  const { api, auth, flash } = useServices();
  const [form, setForm] = useState({
    first_name: user.first_name,
    last_name: user.last_name,
    email: user.email,
    current_password: '',
    new_password: '',
  });
  const [problem, setProblem] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (changes: AccountChanges) => updateCurrentUser(api, changes),
    onSuccess: (updated) => {
      auth.send({ type: 'USER_UPDATED', user: updated.user, token: updated.session?.token });
      flash.send({ type: 'APPEND', text: ACCOUNT_UPDATED_MESSAGE });
      setForm((current) => ({ ...current, current_password: '', new_password: '' }));
    },
    onError: (error) => setProblem(messageOfError(error, 'An error has occurred. Could not update your account.')),
  });

  const field = (name: keyof typeof form) => ({
    name,
    value: form[name],
    onChange: (event: { target: { value: string } }) => setForm((current) => ({ ...current, [name]: event.target.value })),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    if (form.new_password && !form.current_password) {
      setProblem('Enter your current password to set a new one.');
      return;
    }
    const changes = accountChanges(user, form);
    if (Object.keys(changes).length === 0) {
      setProblem('Nothing to save: no field has changed.');
      return;
    }
    save.mutate(changes);
  };

  return (
    <form onSubmit={submit} aria-label="My account" className="space-y-6">
      {problem && <ErrorNote>{problem}</ErrorNote>}
      <Card>
        <h2 className="text-base font-semibold">Profile</h2>
        <div className="mt-4 grid gap-4 sm:grid-cols-2">
          <TextField label="First name" autoComplete="given-name" required {...field('first_name')} />
          <TextField label="Last name" autoComplete="family-name" required {...field('last_name')} />
          <div className="sm:col-span-2">
            <TextField label="Email" type="email" autoComplete="email" required {...field('email')} />
          </div>
        </div>
      </Card>
      <Card>
        <h2 className="text-base font-semibold">Change password</h2>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">Leave blank to keep your current password.</p>
        <div className="mt-4 grid gap-4 sm:grid-cols-2">
          <TextField label="Current password" type="password" autoComplete="current-password" {...field('current_password')} />
          <TextField
            label="New password"
            type="password"
            autoComplete="new-password"
            minLength={10}
            hint={`${PASSWORD_RULE} Your other devices will be logged out.`}
            {...field('new_password')}
          />
        </div>
      </Card>
      <div className="flex justify-end">
        <SubmitButton busy={save.isPending} busyLabel="Saving…">
          Save changes
        </SubmitButton>
      </div>
    </form>
  );
}

export default function MyAccountPage() {
  const user = useAuthSelector(selectUser);
  return (
    <>
      <PageHeader title="My account">Your name, email address and password.</PageHeader>
      {user ? <MyAccountForm key={user.id} user={user} /> : <PageSpinner label="Loading your account" />}
    </>
  );
}
