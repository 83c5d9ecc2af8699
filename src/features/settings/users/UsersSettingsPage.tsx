// /settings/users (ADMIN): the business's users — name, email, role, the practitioners a practitioner account works
// as, status (invited, active, deactivated) and last login — searched and filtered by role and status (in the
// address). Invite opens a dialog that emails a one-time link; Edit changes role and practitioners; an invited user's
// invitation can be sent again; deactivating (logged out at once) and reactivating ask first. The server refuses
// changing your own role or account, and removing the last active administrator, with a sentence shown here.
import { useEffect, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useAuthSelector, useServices } from '../../../app/ServicesContext';
import { useShownTimeZone } from '../../../app/timeZone';
import { messageOfError } from '../../../api/errors';
import { formatDateTime } from '../../../lib/dates';
import { urlParam, useUrlState } from '../../../lib/urlState';
import { selectUser } from '../../../machines/auth';
import type { RoutePageProps } from '../../../router/routeTypes';
import { Button } from '../../../ui/Button';
import { ConfirmDialog } from '../../../ui/ConfirmDialog';
import { ErrorNote, TextField } from '../../../ui/forms';
import { Card, PageHeader } from '../../../ui/PageHeader';
import { PageSpinner } from '../../../ui/PageSpinner';
import { DEACTIVATE_ERROR, LOAD_ERROR, REACTIVATE_ERROR, RESEND_ERROR, type BusinessUser, type UserStatus } from './api';
import { useDeactivateUser, useReactivateUser, useResendInvitation } from './mutations';
import { userQueries } from './queries';
import { ROLE_LABELS, ROLES, STATUS_LABELS, STATUSES } from './roles';
import { UserDialog } from './UserDialog';

const PAGE_STATE = {
  search: urlParam.text(),
  role: urlParam.oneOf(['all', ...ROLES], 'all'),
  status: urlParam.oneOf(['all', ...STATUSES], 'all'),
  edit: urlParam.integer(null),
};
const SEARCH_DELAY_MS = 250;

const STATUS_STYLES: Record<UserStatus, string> = {
  invited: 'bg-amber-50 text-amber-800 dark:bg-amber-950 dark:text-amber-200',
  active: 'bg-emerald-50 text-emerald-700 dark:bg-emerald-950 dark:text-emerald-300',
  deactivated: 'bg-slate-100 text-slate-600 dark:bg-slate-800 dark:text-slate-300',
};
const selectClass =
  'mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-sky-500 focus:ring-2 focus:ring-sky-500/30 focus:outline-none dark:border-slate-700 dark:bg-slate-900';

type Confirming = { user: BusinessUser; action: 'deactivate' | 'reactivate' };

export default function UsersSettingsPage({ route }: RoutePageProps) {
  const { api } = useServices();
  const me = useAuthSelector(selectUser);
  const timeZone = useShownTimeZone();
  const [state, setState] = useUrlState(PAGE_STATE);
  const [search, setSearch] = useState(state.search);
  const [inviting, setInviting] = useState(false);
  const [confirming, setConfirming] = useState<Confirming | null>(null);
  const filters = { search: state.search, role: state.role === 'all' ? null : state.role, status: state.status === 'all' ? null : state.status };
  const list = useQuery({ ...userQueries.list(api, filters), placeholderData: keepPreviousData });
  const deactivate = useDeactivateUser();
  const reactivate = useReactivateUser();
  const resend = useResendInvitation();
  const users = list.data ?? [];
  const editing = state.edit === null ? undefined : users.find((user) => user.id === state.edit);

  // Typing searches once the user pauses; the address keeps the search so a link or reload shows the same list.
  useEffect(() => {
    if (search === state.search) return;
    const timer = window.setTimeout(() => setState({ search }, { replace: true }), SEARCH_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [search, state.search, setState]);

  const actionError = deactivate.isError ? messageOfError(deactivate.error, DEACTIVATE_ERROR)
    : reactivate.isError ? messageOfError(reactivate.error, REACTIVATE_ERROR)
      : resend.isError ? messageOfError(resend.error, RESEND_ERROR) : null;
  const filtered = state.search !== '' || state.role !== 'all' || state.status !== 'all';

  return (
    <>
      <PageHeader title={route.title}>
        Who can log in to your business, and what they can do. Invite staff and practitioners by email; deactivate someone who leaves.
      </PageHeader>
      <Card className="p-0">
        <div className="flex flex-col gap-3 border-b border-slate-200 p-4 sm:flex-row sm:flex-wrap sm:items-end dark:border-slate-800">
          <div className="sm:w-64">
            <TextField label="Search" type="search" placeholder="Name or email" value={search} maxLength={200} onChange={(event) => setSearch(event.target.value)} />
          </div>
          <div className="grid grid-cols-2 gap-3 sm:flex">
            <label className="block text-sm font-medium text-slate-700 dark:text-slate-200">
              Role
              <select className={selectClass} value={state.role} onChange={(event) => setState({ role: event.target.value as typeof state.role })}>
                <option value="all">All roles</option>
                {ROLES.map((role) => <option key={role} value={role}>{ROLE_LABELS[role]}</option>)}
              </select>
            </label>
            <label className="block text-sm font-medium text-slate-700 dark:text-slate-200">
              Status
              <select className={selectClass} value={state.status} onChange={(event) => setState({ status: event.target.value as typeof state.status })}>
                <option value="all">All statuses</option>
                {STATUSES.map((status) => <option key={status} value={status}>{STATUS_LABELS[status]}</option>)}
              </select>
            </label>
          </div>
          <Button className="sm:ml-auto" onClick={() => setInviting(true)}>Invite user</Button>
        </div>
        {actionError && <div className="p-4 pb-0"><ErrorNote>{actionError}</ErrorNote></div>}
        {list.isPending && <PageSpinner label="Loading users" />}
        {list.isError && <div className="p-4"><ErrorNote>{messageOfError(list.error, LOAD_ERROR)}</ErrorNote></div>}
        {list.data && (
          <div className="overflow-x-auto">
            <table aria-label="Users" className="min-w-full divide-y divide-slate-200 text-sm dark:divide-slate-800">
              <thead className="bg-slate-50 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase dark:bg-slate-800/50 dark:text-slate-300">
                <tr>
                  <th scope="col" className="px-4 py-2">Name</th>
                  <th scope="col" className="hidden px-4 py-2 md:table-cell">Role</th>
                  <th scope="col" className="hidden px-4 py-2 lg:table-cell">Practitioners</th>
                  <th scope="col" className="hidden px-4 py-2 sm:table-cell">Status</th>
                  <th scope="col" className="hidden px-4 py-2 lg:table-cell">Last login</th>
                  <th scope="col" className="px-4 py-2"><span className="sr-only">Actions</span></th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
                {users.map((user) => (
                  <UserRow
                    key={user.id}
                    user={user}
                    self={user.id === me?.id}
                    timeZone={timeZone}
                    resending={resend.isPending && resend.variables === user.id}
                    onEdit={() => setState({ edit: user.id })}
                    onResend={() => resend.mutate(user.id)}
                    onDeactivate={() => setConfirming({ user, action: 'deactivate' })}
                    onReactivate={() => setConfirming({ user, action: 'reactivate' })}
                  />
                ))}
                {users.length === 0 && (
                  <tr>
                    <td colSpan={6} className="px-4 py-10 text-center text-slate-500 dark:text-slate-400">{filtered ? 'No users match these filters.' : 'No users yet.'}</td>
                  </tr>
                )}
              </tbody>
            </table>
          </div>
        )}
      </Card>
      {inviting && <UserDialog onClose={() => setInviting(false)} />}
      {editing && <UserDialog key={editing.id} user={editing} self={editing.id === me?.id} onClose={() => setState({ edit: null })} />}
      <ConfirmDialog
        open={confirming !== null}
        danger={confirming?.action === 'deactivate'}
        title={confirming?.action === 'deactivate' ? 'Deactivate user' : 'Reactivate user'}
        message={confirming === null ? '' : confirming.action === 'deactivate'
          ? `Deactivate ${confirming.user.full_name}? They are logged out at once and cannot log in until an administrator reactivates them.`
          : `Reactivate ${confirming.user.full_name}? They can log in again; if they had not accepted their invitation yet, resend it.`}
        confirmLabel={confirming?.action === 'deactivate' ? 'Deactivate' : 'Reactivate'}
        onCancel={() => setConfirming(null)}
        onConfirm={() => {
          if (confirming?.action === 'deactivate') deactivate.mutate(confirming.user.id);
          if (confirming?.action === 'reactivate') reactivate.mutate(confirming.user.id);
          setConfirming(null);
        }}
      />
    </>
  );
}

function UserRow({ user, self, timeZone, resending, onEdit, onResend, onDeactivate, onReactivate }: {
  user: BusinessUser;
  self: boolean;
  timeZone: string;
  resending: boolean;
  onEdit: () => void;
  onResend: () => void;
  onDeactivate: () => void;
  onReactivate: () => void;
}) {
  const practitioners = user.associated_practitioners.map((practitioner) => practitioner.full_name).join(', ');
  const lastLogin = user.last_login_at ? formatDateTime(user.last_login_at, timeZone) : 'Never';
  return (
    <tr data-testid="user-row">
      <td className="px-4 py-3 align-top">
        <p className="font-medium text-slate-900 dark:text-white">
          {user.full_name}
          {self && <span className="ml-1.5 text-xs font-normal text-slate-500 dark:text-slate-400">(you)</span>}
        </p>
        <p className="text-slate-600 [overflow-wrap:anywhere] dark:text-slate-300">{user.email}</p>
        <div className="mt-1 sm:hidden"><StatusCell user={user} timeZone={timeZone} /></div>
        {/* Shown in their own columns on wider screens. */}
        <p className="text-xs text-slate-500 md:hidden dark:text-slate-400">{ROLE_LABELS[user.role]}{practitioners && ` · ${practitioners}`}</p>
        <p className="text-xs text-slate-500 lg:hidden dark:text-slate-400">Last login: {lastLogin}</p>
      </td>
      <td className="hidden px-4 py-3 align-top md:table-cell">{ROLE_LABELS[user.role]}</td>
      <td className="hidden px-4 py-3 align-top lg:table-cell">{practitioners || <span className="text-slate-400">—</span>}</td>
      <td className="hidden px-4 py-3 align-top sm:table-cell"><StatusCell user={user} timeZone={timeZone} /></td>
      <td className="hidden px-4 py-3 align-top whitespace-nowrap lg:table-cell">{lastLogin}</td>
      <td className="px-4 py-3 align-top">
        <div className="flex flex-col items-end gap-1.5 sm:flex-row sm:justify-end">
          <Button variant="secondary" size="sm" onClick={onEdit} aria-label={`Edit ${user.full_name}`}>Edit</Button>
          {user.status === 'invited' && (
            <Button variant="secondary" size="sm" busy={resending} onClick={onResend} aria-label={`Resend the invitation to ${user.full_name}`}>Resend</Button>
          )}
          {!self && user.status !== 'deactivated' && (
            <Button variant="ghost" danger size="sm" onClick={onDeactivate} aria-label={`Deactivate ${user.full_name}`}>Deactivate</Button>
          )}
          {user.status === 'deactivated' && (
            <Button variant="ghost" size="sm" onClick={onReactivate} aria-label={`Reactivate ${user.full_name}`}>Reactivate</Button>
          )}
        </div>
      </td>
    </tr>
  );
}

function StatusCell({ user, timeZone }: { user: BusinessUser; timeZone: string }) {
  return (
    <>
      <span className={`inline-block rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ${STATUS_STYLES[user.status]}`}>{STATUS_LABELS[user.status]}</span>
      {user.status === 'invited' && (
        <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
          {user.invitation_expires_at ? `Link valid until ${formatDateTime(user.invitation_expires_at, timeZone)}` : 'Link expired'}
        </p>
      )}
    </>
  );
}
