// Settings → Users (issue 14): the table, its search and filters, the Invite and Edit dialogs, resend, deactivate and
// reactivate with a question first and the server's refusals in words; the accept-invitation page; and login landing
// on the page first asked for when the role allows it.
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import UsersSettingsPage from '../../src/features/settings/users/UsersSettingsPage';
import { api, PASSWORD, received, server, tokenFor, usersByRole } from './support/fakeApi';
import { currentPath, renderApp, renderPage, useFakeApi } from './support/harness';

useFakeApi();

const ALEX = {
  id: 1, email: 'alex@demo.test', first_name: 'Alex', last_name: 'Taylor', full_name: 'Alex Taylor', role: 'ADMIN', associated_practitioners: [],
  status: 'active', last_login_at: '2026-11-24T22:30:00Z', invitation_expires_at: null,
};
const PAT = {
  id: 3, email: 'pat@demo.test', first_name: 'Pat', last_name: 'Nguyen', full_name: 'Pat Nguyen', role: 'PRACTITIONER',
  associated_practitioners: [{ id: 7, full_name: 'Pat Nguyen' }], status: 'active', last_login_at: null, invitation_expires_at: null,
};
const NIA = {
  id: 4, email: 'nia@demo.test', first_name: 'Nia', last_name: '', full_name: 'Nia', role: 'REGULAR_USER', associated_practitioners: [],
  status: 'invited', last_login_at: null, invitation_expires_at: '2026-12-02T00:00:00Z',
};

function serve() {
  let users = [ALEX, NIA, PAT];
  const reply = (id: string | readonly string[], change: Record<string, unknown>) => {
    users = users.map((user) => (String(user.id) === id ? { ...user, ...change } : user));
    return HttpResponse.json({ user: users.find((user) => String(user.id) === id) });
  };
  server.use(
    http.get(api('/users'), ({ request }) => {
      const query = new URL(request.url).searchParams;
      return HttpResponse.json({
        users: users.filter((user) => (!query.get('status') || user.status === query.get('status'))
          && (!query.get('role') || user.role === query.get('role'))
          && (!query.get('search') || user.full_name.toLowerCase().includes(query.get('search')!.toLowerCase()))),
      });
    }),
    http.get(api('/practitioners/all'), () => HttpResponse.json({ practitioners: [{ id: 7, full_name: 'Pat Nguyen', active: true }, { id: 8, full_name: 'Quinn Lee', active: true }] })),
    http.post(api('/users'), async ({ request }) => {
      const body = (await request.json()) as { email: string; first_name: string; role: string };
      if (body.email === 'sam@demo.test') {
        const taken = 'sam@demo.test already has a Rounds account: each person logs in with their own email.';
        return HttpResponse.json({ message: taken, code: 'EMAIL_TAKEN', errors: [`email: ${taken}`] }, { status: 409 });
      }
      const created = { ...NIA, id: 9, email: body.email, first_name: body.first_name, full_name: body.first_name, role: body.role };
      users = [...users, created];
      return HttpResponse.json({ user: created }, { status: 201 });
    }),
    http.patch(api('/users/:id'), async ({ params, request }) => {
      const body = (await request.json()) as { role?: string; associated_practitioner_ids?: number[] };
      return reply(params.id!, { ...(body.role ? { role: body.role } : {}), associated_practitioners: (body.associated_practitioner_ids ?? []).map((id) => ({ id, full_name: id === 8 ? 'Quinn Lee' : 'Pat Nguyen' })) });
    }),
    http.post(api('/users/:id/deactivate'), ({ params }) => (params.id === '3'
      ? HttpResponse.json({ message: 'Pat Nguyen is the business’s last active administrator: it must keep at least one.', code: 'LAST_ADMIN' }, { status: 409 })
      : reply(params.id!, { status: 'deactivated' }))),
    // Nia never accepted her invitation: reactivated, she is invited again.
    http.post(api('/users/:id/reactivate'), ({ params }) => reply(params.id!, { status: params.id === '4' ? 'invited' : 'active' })),
    http.post(api('/users/:id/resend_invitation'), ({ params }) => reply(params.id!, { invitation_expires_at: '2026-12-03T00:00:00Z' })),
  );
}

const openPage = () => renderPage(UsersSettingsPage, { path: '/settings/users' });
const rowOf = async (name: string) => (await screen.findAllByTestId('user-row')).find((row) => row.textContent!.includes(name))!;
const sent = (method: string, path: string) => received.filter((request) => request.method === method && request.path === `/api${path}`);

describe('the users page', () => {
  it('lists each user with role, practitioners, status and last login, and marks you', async () => {
    serve();
    const view = openPage();
    const rows = await screen.findAllByTestId('user-row');
    expect(rows).toHaveLength(3);
    expect(rows[0]).toHaveTextContent('Alex Taylor(you)alex@demo.test');
    expect(rows[0]).toHaveTextContent('25 Nov 2026 08:30');
    expect(rows[1]).toHaveTextContent('Invited');
    expect(rows[1]).toHaveTextContent('Link valid until 02 Dec 2026 10:00');
    expect(rows[2]).toHaveTextContent('Pat Nguyen');
    expect(rows[2]).toHaveTextContent('Never');
    // Nobody deactivates themself; only an invited user has a Resend.
    expect(within(rows[0]).queryByRole('button', { name: /Deactivate/ })).toBeNull();
    expect(within(rows[1]).getByRole('button', { name: 'Resend the invitation to Nia' })).toBeInTheDocument();
    expect(within(rows[2]).queryByRole('button', { name: /Resend/ })).toBeNull();
    view.unmount();
  });

  it('searches and filters by role and status through the server, keeping them in the address', async () => {
    serve();
    const user = userEvent.setup();
    const view = openPage();
    await screen.findAllByTestId('user-row');
    await user.selectOptions(screen.getByLabelText('Status'), 'invited');
    await waitFor(async () => expect(await screen.findAllByTestId('user-row')).toHaveLength(1));
    expect(window.location.search).toContain('status=invited');
    await user.selectOptions(screen.getByLabelText('Status'), 'all');
    await user.selectOptions(screen.getByLabelText('Role'), 'PRACTITIONER');
    await waitFor(() => expect(screen.getAllByTestId('user-row').map((row) => row.textContent)).toEqual([expect.stringContaining('Pat Nguyen')]));
    await user.selectOptions(screen.getByLabelText('Role'), 'all');
    await user.type(screen.getByLabelText('Search'), 'zz');
    expect(await screen.findByText('No users match these filters.')).toBeInTheDocument();
    expect(received.some((request) => request.path === '/api/users' && request.search?.includes('search=zz'))).toBe(true);
    view.unmount();
  });

  it('invites a user: practitioners are required for a practitioner account; the server’s 409 is shown under Email', async () => {
    serve();
    const user = userEvent.setup();
    const view = openPage();
    await screen.findAllByTestId('user-row');
    await user.click(screen.getByRole('button', { name: 'Invite user' }));
    const dialog = await screen.findByTestId('user-dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    expect(within(dialog).getByText('Enter the email address the invitation goes to.')).toBeInTheDocument();
    expect(within(dialog).getByText('Enter the first name.')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Email'), 'sam@demo.test');
    await user.type(within(dialog).getByLabelText('First name'), 'Sam');
    await user.selectOptions(within(dialog).getByLabelText('Role'), 'PRACTITIONER');
    await user.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    expect(within(dialog).getByText('Choose at least one practitioner this user works as.')).toBeInTheDocument();
    expect(sent('POST', '/users')).toHaveLength(0);
    await user.click(within(dialog).getByTestId('multiselect-Works as'));
    await user.click(await screen.findByRole('option', { name: /Quinn Lee/ }));
    await user.keyboard('{Escape}');
    await user.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    expect(await within(dialog).findByText(/already has a Rounds account/)).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Email')).toHaveAccessibleDescription(/^sam@demo\.test already has a Rounds account/); // under its field
    // Another address is not the one the server refused: the problem goes with the change.
    await user.type(within(dialog).getByLabelText('Email'), 'x');
    expect(within(dialog).queryByText(/already has a Rounds account/)).not.toBeInTheDocument();
    expect(within(dialog).getByLabelText('Email')).not.toHaveAttribute('aria-invalid');
    await user.clear(within(dialog).getByLabelText('Email'));
    await user.type(within(dialog).getByLabelText('Email'), 'sky@demo.test');
    await user.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText('An invitation has been emailed to sky@demo.test.')).toBeInTheDocument();
    expect(sent('POST', '/users').at(-1)!.body).toEqual({ email: 'sky@demo.test', first_name: 'Sam', last_name: '', role: 'PRACTITIONER', associated_practitioner_ids: [8] });
    await waitFor(() => expect(screen.queryByTestId('user-dialog')).toBeNull());
    expect(await rowOf('sky@demo.test')).toHaveTextContent('Invited');
    view.unmount();
  });

  it('edits a role and practitioners; your own role cannot be changed', async () => {
    serve();
    const user = userEvent.setup();
    const view = openPage();
    await user.click(within(await rowOf('Alex Taylor')).getByRole('button', { name: 'Edit Alex Taylor' }));
    let dialog = await screen.findByTestId('user-dialog');
    expect(within(dialog).getByLabelText('Role')).toBeDisabled();
    expect(within(dialog).getByText(/cannot change your own role/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await user.click(within(await rowOf('Nia')).getByRole('button', { name: 'Edit Nia' }));
    dialog = await screen.findByTestId('user-dialog');
    await user.selectOptions(within(dialog).getByLabelText('Role'), 'ADMIN');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Nia has been saved.')).toBeInTheDocument();
    expect(sent('PATCH', '/users/4').at(-1)!.body).toEqual({ role: 'ADMIN' });
    await waitFor(async () => expect(await rowOf('Nia')).toHaveTextContent('Administrator'));
    view.unmount();
  });

  it('asks before deactivating, shows the server’s refusal, and reactivates; resend says it was sent', async () => {
    serve();
    const user = userEvent.setup();
    const view = openPage();
    await user.click(within(await rowOf('Pat Nguyen')).getByRole('button', { name: 'Deactivate Pat Nguyen' }));
    const question = await screen.findByRole('alertdialog');
    expect(question).toHaveTextContent('They are logged out at once');
    await user.click(within(question).getByRole('button', { name: 'Deactivate' }));
    expect(await screen.findByText(/last active administrator/)).toBeInTheDocument();
    await user.click(within(await rowOf('Nia')).getByRole('button', { name: 'Deactivate Nia' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Deactivate' }));
    expect(await screen.findByText('Nia has been deactivated.')).toBeInTheDocument();
    await user.click(within(await rowOf('Nia')).getByRole('button', { name: 'Reactivate Nia' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Reactivate' }));
    expect(await screen.findByText('Nia has been reactivated.')).toBeInTheDocument();
    await user.click(within(await rowOf('Nia')).getByRole('button', { name: 'Resend the invitation to Nia' }));
    expect(await screen.findByText('A new invitation has been emailed to nia@demo.test.')).toBeInTheDocument();
    view.unmount();
  });
});

describe('accepting an invitation', () => {
  it('says clearly when a link was used or has expired', async () => {
    server.use(http.post(api('/auth/invitation'), () => HttpResponse.json({ message: 'This invitation link has expired (links last 7 days). Ask your administrator to send a new one.', code: 'INVITATION_EXPIRED' }, { status: 422 })));
    renderApp('/accept-invitation?token=old');
    expect(await screen.findByRole('heading', { name: 'This invitation has expired' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Ask your administrator to send a new one.');
    expect(screen.getByRole('link', { name: 'Go to the login page' })).toHaveAttribute('href', '/login');
  });

  it('says what is wrong with the password under it, in words, until the password is changed', async () => {
    const problem = 'Password must be at least 10 characters.';
    server.use(
      http.post(api('/auth/invitation'), () => HttpResponse.json({ email: 'sam@demo.test', first_name: 'Sam', business_name: 'Brisbane Demo Care' })),
      http.post(api('/auth/invitation/accept'), () => HttpResponse.json({ message: `password: ${problem}`, code: 'VALIDATION_FAILED', errors: [`password: ${problem}`] }, { status: 422 })),
    );
    const user = userEvent.setup();
    renderApp('/accept-invitation?token=fresh');
    const password = await screen.findByLabelText('Password');
    await user.type(password, 'short');
    await user.type(screen.getByLabelText('Confirm password'), 'short');
    await user.click(screen.getByRole('button', { name: 'Set password and log in' }));
    await waitFor(() => expect(password).toHaveAccessibleDescription(new RegExp(`^${problem}`)));
    expect(screen.queryByText(/password:/)).not.toBeInTheDocument();
    await user.type(password, 'er');
    expect(screen.queryByText(problem)).not.toBeInTheDocument();
  });

  it('sets the password, then logs the new user in', async () => {
    const sam = usersByRole.REGULAR_USER;
    server.use(
      http.post(api('/auth/invitation'), () => HttpResponse.json({ email: sam.email, first_name: 'Sam', business_name: 'Brisbane Demo Care' })),
      http.post(api('/auth/invitation/accept'), () => HttpResponse.json({ message: 'Your password is set.', email: sam.email })),
      http.post(api('/auth/login'), async ({ request }) => {
        const body = (await request.json()) as { email: string; password: string };
        return body.password === 'a long new password'
          ? HttpResponse.json({ token: tokenFor(sam), expires_at: '2030-01-01T00:00:00Z', user: sam })
          : HttpResponse.json({ message: 'Invalid email or password.' }, { status: 401 });
      }),
    );
    const user = userEvent.setup();
    renderApp('/accept-invitation?token=fresh');
    expect(await screen.findByRole('heading', { name: 'Welcome to Brisbane Demo Care' })).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveValue(sam.email);
    await user.type(screen.getByLabelText('Password'), 'a long new password');
    await user.type(screen.getByLabelText('Confirm password'), 'a long new passwor');
    await user.click(screen.getByRole('button', { name: 'Set password and log in' }));
    expect(screen.getByRole('alert')).toHaveTextContent('The two passwords do not match.');
    await user.type(screen.getByLabelText('Confirm password'), 'd');
    await user.click(screen.getByRole('button', { name: 'Set password and log in' }));
    await waitFor(() => expect(currentPath()).toBe('/dashboard'));
    expect(await screen.findByTestId('dashboard-greeting')).toHaveTextContent('Sam');
  });
});

describe('after login', () => {
  async function logIn(email: string) {
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Email'), email);
    await user.type(screen.getByLabelText('Password'), PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Log in' }));
  }

  it('a user lands on the page they first asked for', async () => {
    server.use(http.get(api('/sync_settings'), () => HttpResponse.json({ sync_settings: { enable_auto_import: false, enable_auto_export: false, ahead_days: 7, filters: { practitioner_ids: [], appointment_type_ids: [], business_location_ids: [] } } })));
    renderApp('/clients?search=smith');
    await waitFor(() => expect(currentPath()).toBe('/login'));
    expect(new URLSearchParams(window.location.search).get('next')).toBe('/clients?search=smith');
    await logIn(usersByRole.REGULAR_USER.email);
    await waitFor(() => expect(currentPath()).toBe('/clients'));
    expect(window.location.search).toBe('?search=smith');
  });

  it('goes to the dashboard instead when their role may not open that page', async () => {
    renderApp('/settings/users');
    await waitFor(() => expect(currentPath()).toBe('/login'));
    await logIn(usersByRole.REGULAR_USER.email);
    await waitFor(() => expect(currentPath()).toBe('/dashboard'));
    expect(await screen.findByTestId('dashboard-greeting')).toHaveTextContent('Sam');
    // No "you need an administrator account" warning: they never chose that page in this session.
    expect(screen.queryByText(/administrator account/)).toBeNull();
  });
});
