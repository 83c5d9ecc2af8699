// The Invite and Edit dialogs of Settings → Users: email and names (inviting only), role, and for a practitioner
// account the practitioners they work as (at least one). The server's 422 lines are shown under their fields.
import { useId, useRef, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useServices } from '../../../app/ServicesContext';
import { Button } from '../../../ui/Button';
import { ErrorNote, FieldMessage, focusFirstProblem, TextField, useFieldProblems } from '../../../ui/forms';
import { ModalFrame } from '../../../ui/ModalFrame';
import { MultiSelect } from '../../../ui/MultiSelect';
import { practitionerQueries } from '../../../entities/appointments/queries';
import { INVITE_ERROR, SAVE_ERROR, type BusinessUser, type Role } from './api';
import { useInviteUser, useUpdateUser } from './mutations';
import { ROLE_LABELS, ROLES } from './roles';

export const PRACTITIONERS_NEEDED = 'Choose at least one practitioner this user works as.';
export const EMAIL_NEEDED = 'Enter the email address the invitation goes to.';
export const FIRST_NAME_NEEDED = 'Enter the first name.';

const ROLE_HINTS: Record<Role, string> = {
  ADMIN: 'Everything, including reports, imports, exports, settings and users.',
  REGULAR_USER: 'Appointments, clients and nearby search.',
  PRACTITIONER: 'Only their own practitioners’ appointments.',
};
const FIELDS = ['email', 'first_name', 'last_name', 'role', 'associated_practitioner_ids'] as const;
type FieldName = (typeof FIELDS)[number];
const fieldNameOf = (path: string) => FIELDS.find((field) => field === path);

const selectClass =
  'mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-sky-500 focus:ring-2 focus:ring-sky-500/30 focus:outline-none disabled:opacity-60 dark:border-slate-700 dark:bg-slate-900';

/** Invites a user (without `user`) or edits one's role and practitioners; `self` is the signed-in admin's own row. */
export function UserDialog({ user, self = false, onClose }: { user?: BusinessUser; self?: boolean; onClose: () => void }) {
  const { api } = useServices();
  const invite = useInviteUser();
  const update = useUpdateUser();
  const save = user ? update : invite;
  const practitioners = useQuery(practitionerQueries.all(api));
  const formId = useId();
  const roleId = useId();
  const form = useRef<HTMLFormElement>(null);
  const [email, setEmail] = useState('');
  const [firstName, setFirstName] = useState('');
  const [lastName, setLastName] = useState('');
  const [role, setRole] = useState<Role>(user?.role ?? 'REGULAR_USER');
  const [practitionerIds, setPractitionerIds] = useState<number[]>(user?.associated_practitioners.map((practitioner) => practitioner.id) ?? []);
  const [problems, setProblems] = useState(new Map<FieldName, string>());
  const { problemOf, fieldProps, problem, other } = useFieldProblems({
    error: save.error, fieldOf: fieldNameOf, fallback: user ? SAVE_ERROR : INVITE_ERROR, ours: problems,
    values: { email, first_name: firstName, last_name: lastName, role, associated_practitioner_ids: practitionerIds },
  });
  // A practitioner already associated stays offered even when no longer active.
  const options = [
    ...(practitioners.data ?? []).map((practitioner) => ({ id: practitioner.id, name: practitioner.full_name })),
    ...(user?.associated_practitioners ?? [])
      .filter((chosen) => !practitioners.data?.some((practitioner) => practitioner.id === chosen.id))
      .map((chosen) => ({ id: chosen.id, name: chosen.full_name })),
  ];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = new Map<FieldName, string>();
    if (!user && !email.trim()) found.set('email', EMAIL_NEEDED);
    if (!user && !firstName.trim()) found.set('first_name', FIRST_NAME_NEEDED);
    if (role === 'PRACTITIONER' && practitionerIds.length === 0) found.set('associated_practitioner_ids', PRACTITIONERS_NEEDED);
    setProblems(found);
    if (found.size > 0) {
      focusFirstProblem(form.current);
      return;
    }
    const associated = role === 'PRACTITIONER' ? practitionerIds : [];
    const done = { onSuccess: onClose, onError: () => focusFirstProblem(form.current) };
    if (user) {
      const changes = {
        ...(role !== user.role ? { role } : {}),
        ...(JSON.stringify(associated) !== JSON.stringify(user.associated_practitioners.map((practitioner) => practitioner.id))
          ? { associated_practitioner_ids: associated } : {}),
      };
      if (Object.keys(changes).length === 0) onClose();
      else update.mutate({ id: user.id, changes }, done);
    } else {
      invite.mutate({ email: email.trim(), first_name: firstName.trim(), last_name: lastName.trim(), role, associated_practitioner_ids: associated }, done);
    }
  };

  const practitionerProblem = problemOf('associated_practitioner_ids');
  return (
    <ModalFrame
      title={user ? `Edit ${user.full_name}` : 'Invite a user'}
      width="small"
      onClose={onClose}
      testId="user-dialog"
      footer={<Button type="submit" form={formId} size="sm" busy={save.isPending}>{user ? 'Save' : 'Send invitation'}</Button>}
    >
      <form id={formId} ref={form} noValidate onSubmit={submit} aria-label={user ? `Edit ${user.full_name}` : 'Invite a user'} className="space-y-4">
        {other.map((line) => <ErrorNote key={line}>{line}</ErrorNote>)}
        {user ? (
          <p className="text-sm text-slate-600 dark:text-slate-300">{user.email}</p>
        ) : (
          <>
            <p className="text-sm text-slate-600 dark:text-slate-300">
              They get an email with a link to choose their password. The link works once, for 7 days.
            </p>
            <TextField label="Email" type="email" autoComplete="off" maxLength={320} value={email} onChange={(event) => setEmail(event.target.value)} error={problemOf('email')} />
            <div className="grid gap-4 sm:grid-cols-2">
              <TextField label="First name" maxLength={100} value={firstName} onChange={(event) => setFirstName(event.target.value)} error={problemOf('first_name')} />
              <TextField label="Last name" maxLength={100} value={lastName} onChange={(event) => setLastName(event.target.value)} error={problemOf('last_name')} />
            </div>
          </>
        )}
        <div>
          <label htmlFor={roleId} className="block text-sm font-medium text-slate-700 dark:text-slate-200">Role</label>
          <select
            id={roleId}
            value={role}
            disabled={self}
            {...fieldProps('role', `${roleId}-hint`)}
            onChange={(event) => setRole(event.target.value as Role)}
            className={selectClass}
          >
            {ROLES.map((value) => <option key={value} value={value}>{ROLE_LABELS[value]}</option>)}
          </select>
          <p id={`${roleId}-hint`} className="mt-1 text-xs text-slate-500 dark:text-slate-400">
            {self ? 'You cannot change your own role: another administrator can.' : ROLE_HINTS[role]}
          </p>
          {problem('role')}
        </div>
        {role === 'PRACTITIONER' && (
          <div aria-invalid={practitionerProblem ? true : undefined}>
            <MultiSelect
              label="Works as"
              options={options}
              value={practitionerIds}
              onChange={setPractitionerIds}
              placeholder="Choose practitioners"
              loading={practitioners.isPending}
              failed={practitioners.isError}
              testId="user-practitioners"
            />
            {practitionerProblem ? (
              <FieldMessage>{practitionerProblem}</FieldMessage>
            ) : (
              <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">They see these practitioners’ appointments only.</p>
            )}
          </div>
        )}
      </form>
    </ModalFrame>
  );
}
