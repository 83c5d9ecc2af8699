import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useAuthSelector, useServices } from '../../app/ServicesContext';
import { selectUser } from '../../machines/auth';
import { updateCurrentUser, type AccountChanges } from '../../api/endpoints';
import type { User } from '../../api/types';
import { ErrorNote, SubmitButton, TextField, focusFirstProblem, useFieldProblems } from '../../ui/forms';
import { LeaveGuard } from '../../ui/LeaveGuard';
import { Card, PageHeader } from '../../ui/PageHeader';
import { PageSpinner } from '../../ui/PageSpinner';
import { PASSWORD_RULE } from '../../entities/users/password';

const ACCOUNT_UPDATED_MESSAGE = 'Your account has been updated.';

type Form = { first_name: string; last_name: string; email: string; current_password: string; new_password: string };
type Field = keyof Form;
const FIELDS: readonly Field[] = ['first_name', 'last_name', 'email', 'current_password', 'new_password'];
const fieldOf = (path: string) => FIELDS.find((field) => field === path);
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Only what changed is sent; a password or email change needs the current password. */
function accountChanges(user: User, form: Form): AccountChanges {
  const changes: AccountChanges = {};
  if (form.first_name.trim() !== user.first_name) changes.first_name = form.first_name.trim();
  if (form.last_name.trim() !== user.last_name) changes.last_name = form.last_name.trim();
  if (form.email.trim() !== user.email) changes.email = form.email.trim();
  if (form.new_password) changes.new_password = form.new_password;
  // The current password alone changes nothing: it goes only with the change it confirms.
  if (form.current_password && (changes.email !== undefined || changes.new_password !== undefined)) changes.current_password = form.current_password;
  return changes;
}

/** What is wrong before sending, field by field (the server checks again, and whether the password is a common one). */
function formProblems(user: User, form: Form): Map<Field, string> {
  const problems = new Map<Field, string>();
  if (!form.first_name.trim()) problems.set('first_name', 'Enter your first name.');
  if (!form.email.trim()) problems.set('email', 'Enter your email address.');
  else if (!EMAIL_SHAPE.test(form.email.trim())) problems.set('email', 'Enter an email address such as name@example.com.');
  if (form.new_password && form.new_password.length < 10) problems.set('new_password', 'Use at least 10 characters.');
  const emailChanged = form.email.trim().toLowerCase() !== user.email.toLowerCase();
  if (!form.current_password && form.new_password) problems.set('current_password', 'Enter your current password to set a new one.');
  else if (!form.current_password && emailChanged) problems.set('current_password', 'Enter your current password to change your email.');
  return problems;
}

function MyAccountForm({ user }: { user: User }) {
  const { api, auth, flash } = useServices();
  const [form, setForm] = useState<Form>({
    first_name: user.first_name,
    last_name: user.last_name,
    email: user.email,
    current_password: '',
    new_password: '',
  });
  const [checked, setChecked] = useState(false);
  const [unchanged, setUnchanged] = useState(false);
  const save = useMutation({
    mutationFn: (changes: AccountChanges) => updateCurrentUser(api, changes),
    onSuccess: (updated) => {
      auth.send({ type: 'USER_UPDATED', user: updated.user, token: updated.session?.token });
      flash.send({ type: 'APPEND', text: ACCOUNT_UPDATED_MESSAGE });
      setChecked(false);
      setForm((current) => ({ ...current, current_password: '', new_password: '' }));
    },
  });
  const { problemOf, other } = useFieldProblems({
    error: save.error, fieldOf, fallback: 'An error has occurred. Could not update your account.',
    ours: checked ? formProblems(user, form) : undefined, values: form,
  });

  const unsaved = Object.keys(accountChanges(user, form)).length > 0;

  const field = (name: Field) => ({
    name,
    value: form[name],
    error: problemOf(name),
    onChange: (event: { target: { value: string } }) => setForm((current) => ({ ...current, [name]: event.target.value })),
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const element = event.currentTarget;
    save.reset();
    setChecked(true);
    setUnchanged(false);
    if (formProblems(user, form).size > 0) return focusFirstProblem(element);
    const changes = accountChanges(user, form);
    if (Object.keys(changes).length === 0) return setUnchanged(true);
    save.mutate(changes, { onError: () => focusFirstProblem(element) });
  };

  return (
    <form onSubmit={submit} noValidate aria-label="My account" className="space-y-6">
      {unchanged && <ErrorNote>Nothing to save: no field has changed.</ErrorNote>}
      {other.length > 0 && <ErrorNote>{other.join(' ')}</ErrorNote>}
      <Card>
        <h2 className="text-base font-semibold">Profile</h2>
        <div className="mt-4 grid gap-4 sm:grid-cols-2">
          <TextField label="First name" autoComplete="given-name" required maxLength={100} {...field('first_name')} />
          <TextField label="Last name" autoComplete="family-name" maxLength={100} {...field('last_name')} />
          <div className="sm:col-span-2">
            <TextField label="Email" type="email" autoComplete="email" required maxLength={320} {...field('email')} />
          </div>
        </div>
      </Card>
      <Card>
        <h2 className="text-base font-semibold">Change password</h2>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          Leave blank to keep your current password. Changing your email also needs your current password.
        </p>
        <div className="mt-4 grid gap-4 sm:grid-cols-2">
          <TextField label="Current password" type="password" autoComplete="current-password" maxLength={1024} {...field('current_password')} />
          <TextField
            label="New password"
            type="password"
            autoComplete="new-password"
            minLength={10}
            maxLength={1024}
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
      <LeaveGuard unsaved={unsaved} />
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
