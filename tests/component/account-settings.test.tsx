// /settings/business-account ("Account settings"): an admin reads the business's settings, changes them and saves only
// what changed; the server's 422 shows under its field; the signed-in user is read again so the shown time zone
// follows; the default map centre can be typed or put back to Brisbane.
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { components } from '../../src/api/schema';
import { received, server, usersByRole } from './support/fakeApi';
import { renderApp, renderPage, useFakeApi } from './support/harness';
import BusinessAccountPage from '../../src/features/settings/business-account/BusinessAccountPage';

useFakeApi();

type Account = components['schemas']['BusinessAccount'];
const BRISBANE = { lat: -27.4795412, lng: 153.0160444 };

function serveAccount({ refuse }: { refuse?: Response } = {}) {
  let account: Account = {
    id: 1, name: 'Brisbane Demo Care', time_zone: 'Australia/Brisbane', contact_email: '', contact_phone: '',
    map_center: BRISBANE, map_center_is_default: true, week_start: 1, reminder_hour: 2, reminders_enabled: true, eta_messages_enabled: true, arrival_far_metres: 300, overdue_after_minutes: 15, eta_replan_minutes: 15,
    care_plan_weeks_ahead: 4,
  };
  const patches: Record<string, unknown>[] = [];
  server.use(
    http.get('*/api/business_account', () => HttpResponse.json({ business_account: account })),
    http.patch('*/api/business_account', async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      patches.push(body);
      if (refuse) return refuse;
      const centre = body.map_center as Account['map_center'] | null | undefined;
      account = {
        ...account, ...body,
        map_center: centre === undefined ? account.map_center : centre ?? BRISBANE,
        map_center_is_default: centre === undefined ? account.map_center_is_default : centre === null,
      } as Account;
      return HttpResponse.json({ business_account: account });
    }),
  );
  return patches;
}

async function openPage() {
  const user = userEvent.setup();
  renderPage(BusinessAccountPage, { path: '/settings/business-account', role: 'ADMIN' });
  await screen.findByRole('form', { name: 'Account settings' });
  return user;
}

describe('account settings', () => {
  it('shows the business’s settings with the spec’s defaults', async () => {
    serveAccount();
    await openPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Account settings' })).toBeInTheDocument();
    expect(screen.getByLabelText('Business name')).toHaveValue('Brisbane Demo Care');
    expect(screen.getByRole('combobox', { name: 'Time zone' })).toHaveValue('Australia/Brisbane');
    expect(screen.getByLabelText('Week starts on')).toHaveValue('1');
    expect(screen.getByLabelText('Reminder hour')).toHaveValue('2');
    expect(screen.getByRole('option', { name: '02:00', selected: true })).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: /daily reminder/ })).toBeChecked();
    expect(screen.getByText(/Now: Brisbane \(the default\)/)).toBeInTheDocument();
  });

  it('saves only what changed, says so, and reads the signed-in user again', async () => {
    const patches = serveAccount();
    const user = await openPage();
    await user.clear(screen.getByLabelText('Business name'));
    await user.type(screen.getByLabelText('Business name'), 'Acme Home Care');
    await user.type(screen.getByLabelText('Contact email'), 'office@acme.test');
    await user.selectOptions(screen.getByLabelText('Week starts on'), 'Sunday');
    await user.selectOptions(screen.getByLabelText('Reminder hour'), '18:00');
    await user.type(screen.getByLabelText('Latitude'), '-31.95');
    await user.type(screen.getByLabelText('Longitude'), '115.86');
    const userReads = received.filter((request) => request.path === '/api/auth/user').length;
    await user.click(screen.getByRole('button', { name: 'Save account settings' }));
    await waitFor(() => expect(screen.getAllByTestId('toast').map((toast) => toast.textContent)).toContain('The account settings have been saved.'));
    expect(patches).toEqual([{
      name: 'Acme Home Care', contact_email: 'office@acme.test', week_start: 0, reminder_hour: 18, map_center: { lat: -31.95, lng: 115.86 },
    }]);
    await waitFor(() => expect(received.filter((request) => request.path === '/api/auth/user').length).toBeGreaterThan(userReads));
    expect(screen.queryByText('Unsaved changes')).not.toBeInTheDocument();

    // Back to the default centre: map_center null.
    await user.click(screen.getByRole('button', { name: 'Use the default (Brisbane)' }));
    await user.click(screen.getByRole('button', { name: 'Save account settings' }));
    await waitFor(() => expect(patches.at(-1)).toEqual({ map_center: null }));
  });

  it('sets how far from the client an arrival is flagged, in whole metres', async () => {
    const patches = serveAccount();
    const user = await openPage();
    const far = screen.getByLabelText('Flag an arrival further than (metres)');
    expect(far).toHaveValue('300');
    await user.clear(far);
    await user.type(far, '10');
    await user.click(screen.getByRole('button', { name: 'Save account settings' }));
    expect(await screen.findByText('Enter a whole number of metres from 25 to 100000.')).toBeInTheDocument();
    expect(patches).toEqual([]);
    await user.type(far, '00');
    await user.click(screen.getByRole('button', { name: 'Save account settings' }));
    await waitFor(() => expect(patches).toEqual([{ arrival_far_metres: 1000 }]));
  });

  it('sets after how many minutes a visit with no check-in is overdue, from 1 to 240', async () => {
    const patches = serveAccount();
    const user = await openPage();
    const overdue = screen.getByLabelText('A visit is overdue after (minutes)');
    expect(overdue).toHaveValue('15');
    await user.clear(overdue);
    await user.type(overdue, '300');
    await user.click(screen.getByRole('button', { name: 'Save account settings' }));
    expect(await screen.findByText('Enter a whole number of minutes from 1 to 240.')).toBeInTheDocument();
    expect(patches).toEqual([]);
    await user.clear(overdue);
    await user.type(overdue, '20');
    await user.click(screen.getByRole('button', { name: 'Save account settings' }));
    await waitFor(() => expect(patches).toEqual([{ overdue_after_minutes: 20 }]));
  });

  it('sets how far a re-plan must move an arrival for its client to be told, from 5 to 240 minutes', async () => {
    const patches = serveAccount();
    const user = await openPage();
    const replan = screen.getByLabelText('Tell clients of a re-plan that moves their arrival by at least (minutes)');
    expect(replan).toHaveValue('15');
    await user.clear(replan);
    await user.type(replan, '4');
    await user.click(screen.getByRole('button', { name: 'Save account settings' }));
    expect(await screen.findByText('Enter a whole number of minutes from 5 to 240.')).toBeInTheDocument();
    expect(patches).toEqual([]);
    await user.clear(replan);
    await user.type(replan, '30');
    await user.click(screen.getByRole('button', { name: 'Save account settings' }));
    await waitFor(() => expect(patches).toEqual([{ eta_replan_minutes: 30 }]));
  });

  it('sets how many weeks of care plan visits are planned ahead, from 1 to 12', async () => {
    const patches = serveAccount();
    const user = await openPage();
    const weeks = screen.getByLabelText('Care plan visits planned ahead (weeks)');
    expect(weeks).toHaveValue('4');
    await user.clear(weeks);
    await user.type(weeks, '13');
    await user.click(screen.getByRole('button', { name: 'Save account settings' }));
    expect(await screen.findByText('Enter a whole number of weeks from 1 to 12.')).toBeInTheDocument();
    expect(weeks).toHaveAccessibleDescription(expect.stringContaining('Enter a whole number of weeks from 1 to 12.'));
    expect(patches).toEqual([]);
    await user.clear(weeks);
    await user.type(weeks, '6');
    await user.click(screen.getByRole('button', { name: 'Save account settings' }));
    await waitFor(() => expect(patches).toEqual([{ care_plan_weeks_ahead: 6 }]));
  });

  it('turns the clients’ ETA messages (On my way) off and saves only that', async () => {
    const patches = serveAccount();
    const user = await openPage();
    const eta = screen.getByRole('checkbox', { name: /Tell clients when their practitioner is on the way/ });
    expect(eta).toBeChecked();
    await user.click(eta);
    await user.click(screen.getByRole('button', { name: 'Save account settings' }));
    await waitFor(() => expect(patches).toEqual([{ eta_messages_enabled: false }]));
  });

  it('turning reminders off disables the hour; the time zone is changed only once the admin confirms what it does', async () => {
    const patches = serveAccount();
    const user = await openPage();
    await user.click(screen.getByRole('checkbox', { name: /daily reminder/ }));
    expect(screen.getByLabelText('Reminder hour')).toBeDisabled();
    const zone = screen.getByRole('combobox', { name: 'Time zone' });
    await user.clear(zone);
    await user.type(zone, 'perth');
    await user.click(await screen.findByRole('option', { name: 'Australia/Perth' }));
    await user.click(screen.getByRole('button', { name: 'Save account settings' }));
    let question = await screen.findByRole('alertdialog', { name: 'Change the time zone to Australia/Perth?' });
    expect(question).toHaveTextContent('will be shown in Australia/Perth instead of Australia/Brisbane: a visit at 09:00 now will show as 07:00.');
    await user.click(within(question).getByRole('button', { name: 'Cancel' }));
    expect(patches).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Save account settings' }));
    question = await screen.findByRole('alertdialog', { name: 'Change the time zone to Australia/Perth?' });
    await user.click(within(question).getByRole('button', { name: 'Change the time zone' }));
    await waitFor(() => expect(patches).toEqual([{ time_zone: 'Australia/Perth', reminders_enabled: false }]));
  });

  it('shows its own problems before saving and the server’s 422 under the field', async () => {
    const patches = serveAccount({
      refuse: HttpResponse.json({ message: 'contact_phone: use digits, spaces, brackets, dashes and a leading +, at least 6 characters, or leave it empty.', code: 'VALIDATION_FAILED',
        errors: ['contact_phone: use digits, spaces, brackets, dashes and a leading +, at least 6 characters, or leave it empty.'] }, { status: 422 }),
    });
    const user = await openPage();
    await user.clear(screen.getByLabelText('Business name'));
    await user.type(screen.getByLabelText('Latitude'), '123');
    await user.type(screen.getByLabelText('Contact email'), 'nope');
    await user.click(screen.getByRole('button', { name: 'Save account settings' }));
    expect(await screen.findByText('Enter the business name.')).toBeInTheDocument();
    expect(screen.getByLabelText('Contact email')).toHaveAccessibleDescription(/^Enter an email address such as office@example.com, or leave it empty\./);
    expect(screen.getByText(/Enter a latitude/)).toBeInTheDocument();
    expect(screen.getByLabelText('Business name')).toHaveAttribute('aria-invalid', 'true');
    expect(patches).toEqual([]);

    await user.type(screen.getByLabelText('Business name'), 'Acme');
    await user.clear(screen.getByLabelText('Latitude'));
    await user.clear(screen.getByLabelText('Contact email'));
    await user.type(screen.getByLabelText('Contact phone'), 'call me');
    await user.click(screen.getByRole('button', { name: 'Save account settings' }));
    const phone = screen.getByLabelText('Contact phone');
    await waitFor(() => expect(phone).toHaveAttribute('aria-invalid', 'true'));
    expect(within(phone.parentElement!).getByText(/Use digits, spaces/)).toBeInTheDocument();
  });

  it('is for administrators only', async () => {
    serveAccount();
    renderApp('/settings/business-account', { as: 'REGULAR_USER' });
    await waitFor(() => expect(window.location.pathname).toBe('/dashboard'));
    expect(usersByRole.REGULAR_USER.role).toBe('REGULAR_USER');
  });
});
