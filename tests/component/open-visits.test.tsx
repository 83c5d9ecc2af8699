// The open visits page: the list by day with why each is open; Fill asks for the visit's best fits and books the one
// chosen; Remove asks first; Plan care visits follows the allocation until it is done, shows its proposal and books it.
// Also the dashboard's Open visits tile and the public holidays page.
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import OpenVisitsPage from '../../src/features/care/OpenVisitsPage';
import DashboardPage from '../../src/features/dashboard/DashboardPage';
import PublicHolidaysPage from '../../src/features/settings/public-holidays/PublicHolidaysPage';
import type { components } from '../../src/api/schema';
import { api, received, server } from './support/fakeApi';
import { makeAppointment } from './support/fixtures';
import { renderPage, renderWithServices, useFakeApi } from './support/harness';

useFakeApi();

type Schemas = components['schemas'];

const PERSONAL_CARE = { id: 3, name: 'Personal care', duration: 45 };

function makeOpenVisit(overrides: Partial<Schemas['OpenVisit']> = {}): Schemas['OpenVisit'] {
  return {
    id: 301, client: { id: 11, name: 'Margaret Jones' }, appointment_type: PERSONAL_CARE, date: '2026-12-14', window_start: '07:30', window_end: '09:00',
    duration_minutes: 45, reason: 'New in Margaret Jones’s care plan', care_plan_id: 51, notes: null, created_at: '2026-12-01T00:00:00Z', ...overrides,
  };
}

const VISITS = [
  makeOpenVisit(),
  makeOpenVisit({ id: 302, client: { id: 12, name: 'Peter Cooper' }, date: '2026-12-14', window_start: '13:00', window_end: '15:00', reason: 'No qualified practitioner has room on Monday afternoon', care_plan_id: null }),
  makeOpenVisit({ id: 303, date: '2026-12-16' }),
];

function bestFit(overrides: Partial<Schemas['BestFit']>): Schemas['BestFit'] {
  return {
    practitioner_id: 7, name: 'Pat Nguyen', color: null, arrive_at: '2026-12-13T21:45:00Z', leave_at: '2026-12-13T22:30:00Z', added_travel_seconds: 720,
    added_travel_metres: 6000, visits: 2, continuity: true, preferred: false, warnings: [], ...overrides,
  };
}

const sent = (method: string, path: string) => received.filter((request) => request.method === method && request.path === `/api${path}`);

function serveOpenVisits(visits = VISITS) {
  let list = visits;
  server.use(
    http.get(api('/open_visits'), () => HttpResponse.json({ open_visits: list })),
    http.delete(api('/open_visits/:id'), ({ params }) => {
      list = list.filter((visit) => visit.id !== Number(params.id));
      return new HttpResponse(null, { status: 204 });
    }),
  );
  return { fill: (id: number) => { list = list.filter((visit) => visit.id !== id); } };
}

const renderOpenVisits = (role: 'ADMIN' | 'REGULAR_USER' = 'REGULAR_USER') => renderPage(OpenVisitsPage, { path: '/open-visits', role });

describe('the open visits list', () => {
  it('lists the open visits by day with client, type, window, duration and why, and says nothing is in Cliniko yet', async () => {
    serveOpenVisits();
    renderOpenVisits();
    const monday = await screen.findByRole('region', { name: 'Mon 14 Dec' });
    const rows = within(monday).getAllByTestId('open-visit');
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringContaining('Margaret Jones · Personal care07:30–09:00 · 45 minNew in Margaret Jones’s care plan'),
      expect.stringContaining('Peter Cooper · Personal care13:00–15:00 · 45 minNo qualified practitioner has room on Monday afternoon'),
    ]);
    expect(within(screen.getByRole('region', { name: 'Wed 16 Dec' })).getAllByTestId('open-visit')).toHaveLength(1);
    expect(screen.getByTestId('open-visit-count')).toHaveTextContent('3 open visits');
    expect(screen.getByText(/Nothing of them is in Cliniko until a practitioner is chosen/)).toBeInTheDocument();
  });

  it('says which open visits are the two carers of one visit', async () => {
    serveOpenVisits([makeOpenVisit(), makeOpenVisit({ id: 304 }), makeOpenVisit({ id: 305, date: '2026-12-16' })]);
    renderOpenVisits();
    const monday = await screen.findByRole('region', { name: 'Mon 14 Dec' });
    expect(within(monday).getAllByTestId('open-visit').map((row) => row.textContent)).toEqual([
      expect.stringContaining('07:30–09:00 · 45 min · one of 2 carers'), expect.stringContaining('07:30–09:00 · 45 min · one of 2 carers'),
    ]);
    expect(within(screen.getByRole('region', { name: 'Wed 16 Dec' })).getByTestId('open-visit')).not.toHaveTextContent('carers');
  });

  it('fills a visit with a best fit: the fits are asked for with its client, type, day and window, and the chosen one is booked at its arrival', async () => {
    const fake = serveOpenVisits();
    server.use(
      http.post(api('/visits/best_fit'), () => HttpResponse.json({
        date: '2026-12-14', duration_minutes: 45, window_start: '07:30', window_end: '09:00', message: null,
        fits: [bestFit({}), bestFit({ practitioner_id: 8, name: 'Sam Lee', arrive_at: '2026-12-13T22:15:00Z', added_travel_seconds: 1500, continuity: false, preferred: true, visits: 0 })],
        others: [{ practitioner_id: 9, name: 'Jo Park', reason: 'On leave that day' }],
      })),
      http.post(api('/open_visits/301/fill'), () => {
        fake.fill(301);
        return HttpResponse.json({ appointment: makeAppointment(), warnings: [] }, { status: 201 });
      }),
    );
    const user = userEvent.setup();
    renderOpenVisits();
    await user.click(await screen.findByRole('button', { name: 'Fill Margaret Jones’s visit on Mon 14 Dec' }));
    const choices = await screen.findByRole('group', { name: 'Who could take Margaret Jones’s visit' });
    const pat = await within(choices).findByRole('radio', { name: /Pat Nguyen/ });
    // The same choices as a new visit's best fits.
    expect(pat.closest('label')).toHaveTextContent('Pat NguyenVisited beforeArrives 07:45, +12 min travel · 2 visits that day');
    expect(within(choices).getByRole('radio', { name: /Sam Lee/ }).closest('label')).toHaveTextContent('Sam LeePreferredArrives 08:15, +25 min travel · 0 visits that day');
    await user.click(within(choices).getByText('Why not others?'));
    expect(within(choices).getByTestId('best-fit-others')).toHaveTextContent('Jo Park: On leave that day');
    expect(sent('POST', '/visits/best_fit')[0].body).toEqual({
      client_id: 11, appointment_type_id: 3, date: '2026-12-14', window_start: '07:30', window_end: '09:00', duration_minutes: 45,
    });

    expect(within(choices).getByRole('button', { name: 'Book' })).toBeDisabled();
    await user.click(within(choices).getByRole('radio', { name: /Sam Lee/ }));
    await user.click(within(choices).getByRole('button', { name: 'Book with Sam Lee' }));
    expect(await screen.findByText('The visit is booked with Sam Lee and is being saved to Cliniko.')).toBeInTheDocument();
    expect(sent('POST', '/open_visits/301/fill')[0].body).toEqual({ practitioner_id: 8, starts_at: '2026-12-13T22:15:00Z' });
    await waitFor(() => expect(screen.getByTestId('open-visit-count')).toHaveTextContent('2 open visits'));
  });

  it('says why a visit cannot be filled when the server refuses it', async () => {
    serveOpenVisits();
    server.use(
      http.post(api('/visits/best_fit'), () => HttpResponse.json({ date: '2026-12-14', duration_minutes: 45, window_start: '07:30', window_end: '09:00', message: null, fits: [bestFit({})], others: [] })),
      http.post(api('/open_visits/301/fill'), () => HttpResponse.json({ message: 'Pat Nguyen is already at Peter Cooper’s at 07:45.', code: 'RULES_BROKEN' }, { status: 409 })),
    );
    const user = userEvent.setup();
    renderOpenVisits();
    await user.click(await screen.findByRole('button', { name: 'Fill Margaret Jones’s visit on Mon 14 Dec' }));
    const choices = await screen.findByRole('group', { name: 'Who could take Margaret Jones’s visit' });
    await user.click(await within(choices).findByRole('radio', { name: /Pat Nguyen/ }));
    await user.click(within(choices).getByRole('button', { name: 'Book with Pat Nguyen' }));
    expect(await within(choices).findByRole('alert')).toHaveTextContent('Pat Nguyen is already at Peter Cooper’s at 07:45.');
  });

  it('says why there is no fit at all', async () => {
    serveOpenVisits();
    server.use(http.post(api('/visits/best_fit'), () => HttpResponse.json({
      date: '2026-12-14', duration_minutes: 45, window_start: '07:30', window_end: '09:00', message: 'Margaret Jones is away that day.', fits: [], others: [],
    })));
    const user = userEvent.setup();
    renderOpenVisits();
    await user.click(await screen.findByRole('button', { name: 'Fill Margaret Jones’s visit on Mon 14 Dec' }));
    expect(await screen.findByText('Margaret Jones is away that day.')).toBeInTheDocument();
  });

  it('says when the best fits could not be found (asked twice), and tries again', async () => {
    serveOpenVisits();
    let asked = 0;
    server.use(http.post(api('/visits/best_fit'), () => (++asked <= 2
      ? HttpResponse.json({ message: 'Something went wrong on our side.' }, { status: 500 })
      : HttpResponse.json({ date: '2026-12-14', duration_minutes: 45, window_start: '07:30', window_end: '09:00', message: null, fits: [bestFit({})], others: [] }))));
    const user = userEvent.setup();
    renderOpenVisits();
    await user.click(await screen.findByRole('button', { name: 'Fill Margaret Jones’s visit on Mon 14 Dec' }));
    const choices = await screen.findByRole('group', { name: 'Who could take Margaret Jones’s visit' });
    expect(await within(choices).findByRole('alert')).toHaveTextContent('Something went wrong on our side.');
    await user.click(within(choices).getByRole('button', { name: 'Try again' }));
    expect(await within(choices).findByRole('radio', { name: /Pat Nguyen/ })).toBeInTheDocument();
  });

  it('removes a visit only after asking', async () => {
    serveOpenVisits();
    const user = userEvent.setup();
    renderOpenVisits();
    await user.click(await screen.findByRole('button', { name: 'Remove Peter Cooper’s visit on Mon 14 Dec' }));
    const dialog = await screen.findByRole('alertdialog');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(sent('DELETE', '/open_visits/302')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Remove Peter Cooper’s visit on Mon 14 Dec' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('The open visit has been removed.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('open-visit-count')).toHaveTextContent('2 open visits'));
    expect(sent('DELETE', '/open_visits/302')).toHaveLength(1);
  });
});

function allocation(overrides: Partial<Schemas['CarePlanAllocation']> = {}): Schemas['CarePlanAllocation'] {
  return {
    id: 71, status: 'RUNNING', start_date: '2026-12-09', end_date: '2027-01-05', message: null, generated: 0, visits: [],
    figures: { visits: 0, placed: 0, unplaced: 0, added_travel_seconds: 0, hard_breaks: 0, carers_by_client: [] }, created_at: '2026-12-08T00:00:00Z', ...overrides,
  };
}

const DONE = allocation({
  status: 'DONE', generated: 3,
  visits: [
    { open_visit_id: 301, client: { id: 11, name: 'Margaret Jones' }, appointment_type_name: 'Personal care', care_plan_id: 51, date: '2026-12-14', window_start: '07:30', window_end: '09:00',
      practitioner: { id: 7, name: 'Pat Nguyen' }, arrive_at: '2026-12-13T21:45:00Z', added_travel_seconds: 600, reason: null },
    { open_visit_id: 303, client: { id: 11, name: 'Margaret Jones' }, appointment_type_name: 'Personal care', care_plan_id: 51, date: '2026-12-16', window_start: '07:30', window_end: '09:00',
      practitioner: { id: 8, name: 'Sam Lee' }, arrive_at: '2026-12-15T21:30:00Z', added_travel_seconds: 900, reason: null },
    { open_visit_id: 302, client: { id: 12, name: 'Peter Cooper' }, appointment_type_name: 'Personal care', care_plan_id: null, date: '2026-12-14', window_start: '13:00', window_end: '15:00',
      practitioner: null, arrive_at: null, added_travel_seconds: 0, reason: 'No qualified practitioner has room on Monday afternoon' },
  ],
  figures: { visits: 3, placed: 2, unplaced: 1, added_travel_seconds: 1500, hard_breaks: 0, carers_by_client: [{ client_id: 11, name: 'Margaret Jones', carers: 2 }] },
});

describe('Plan care visits', () => {
  it('follows the allocation until it is done, shows the proposal and books its placed visits', async () => {
    serveOpenVisits();
    let polls = 0;
    server.use(
      http.post(api('/care_plan_allocations'), () => HttpResponse.json({ allocation: allocation() }, { status: 202 })),
      http.get(api('/care_plan_allocations/71'), () => HttpResponse.json({ allocation: ++polls < 3 ? allocation() : DONE })),
      http.post(api('/care_plan_allocations/71/apply'), () => HttpResponse.json({ allocation: { ...DONE, status: 'APPLIED', message: 'Booked 2 of 3 visits; 1 stays open.' } })),
    );
    const user = userEvent.setup();
    renderOpenVisits();
    await user.selectOptions(await screen.findByLabelText('Weeks ahead'), '4 weeks');
    await user.click(screen.getByRole('button', { name: 'Plan care visits' }));
    expect(await screen.findByText('Planning the care visits…')).toBeInTheDocument();
    expect(sent('POST', '/care_plan_allocations')[0].body).toEqual({ weeks: 4 });

    const proposal = await screen.findByRole('region', { name: 'Proposal' });
    expect(polls).toBe(3);
    expect(within(proposal).getByTestId('figure-visits')).toHaveTextContent('3');
    expect(within(proposal).getByTestId('figure-placed')).toHaveTextContent('2');
    expect(within(proposal).getByTestId('figure-unplaced')).toHaveTextContent('1');
    expect(within(proposal).getByTestId('figure-travel')).toHaveTextContent('25 min');
    expect(within(proposal).getByTestId('figure-hard-breaks')).toHaveTextContent('0');
    expect(within(proposal).getByTestId('carers-of-client')).toHaveTextContent('Margaret Jones: 2 carers');
    const rows = within(proposal).getAllByTestId('proposed-visit').map((row) => row.textContent);
    expect(rows).toEqual([
      'Mon 14 DecMargaret JonesPersonal care07:30–09:00Pat Nguyen07:45 (+10 min)',
      'Wed 16 DecMargaret JonesPersonal care07:30–09:00Sam Lee07:30 (+15 min)',
      'Mon 14 DecPeter CooperPersonal care13:00–15:00Stays open: No qualified practitioner has room on Monday afternoon',
    ]);

    await user.click(within(proposal).getByRole('button', { name: 'Book 2 visits' }));
    expect(await screen.findByText('Booked 2 of 3 visits; 1 stays open.')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Proposal' })).toBeNull();
    expect(sent('POST', '/care_plan_allocations/71/apply')).toHaveLength(1);
  });

  it('asks for the business’s weeks by default, and says why an allocation failed', async () => {
    serveOpenVisits([]);
    server.use(
      http.post(api('/care_plan_allocations'), () => HttpResponse.json({ allocation: allocation() }, { status: 202 })),
      http.get(api('/care_plan_allocations/71'), () => HttpResponse.json({ allocation: allocation({ status: 'ERROR', message: 'No practitioner has working hours in these weeks.' }) })),
    );
    const user = userEvent.setup();
    renderOpenVisits('ADMIN');
    await user.click(await screen.findByRole('button', { name: 'Plan care visits' }));
    expect(await screen.findByText('No practitioner has working hours in these weeks.')).toBeInTheDocument();
    expect(sent('POST', '/care_plan_allocations')[0].body).toEqual({});
  });

  it('says why the proposal could not be booked (the open visits changed) and plans again', async () => {
    serveOpenVisits();
    let started = 0;
    server.use(
      http.post(api('/care_plan_allocations'), () => {
        started += 1;
        return HttpResponse.json({ allocation: DONE }, { status: 202 });
      }),
      http.post(api('/care_plan_allocations/71/apply'), () => HttpResponse.json({ message: 'The open visits changed since this proposal was made. Plan again.' }, { status: 409 })),
    );
    const user = userEvent.setup();
    renderOpenVisits();
    await user.click(await screen.findByRole('button', { name: 'Plan care visits' }));
    const proposal = await screen.findByRole('region', { name: 'Proposal' });
    await user.click(within(proposal).getByRole('button', { name: 'Book 2 visits' }));
    expect(await within(proposal).findByRole('alert')).toHaveTextContent('The open visits changed since this proposal was made. Plan again.');
    await user.click(within(proposal).getByRole('button', { name: 'Plan again' }));
    await waitFor(() => expect(started).toBe(2));
  });
});

describe('the dashboard’s Open visits tile', () => {
  it('counts the open visits of the next 4 weeks and links to the page', async () => {
    server.use(http.get(api('/open_visits'), () => HttpResponse.json({ open_visits: VISITS })));
    renderWithServices(<DashboardPage />, { role: 'REGULAR_USER' });
    const tile = await screen.findByRole('region', { name: 'Open visits' });
    await waitFor(() => expect(within(tile).getByTestId('tile-figure')).toHaveTextContent('3'));
    expect(within(tile).getByTestId('tile-text')).toHaveTextContent('visits need a practitioner in the next 4 weeks, the first on Mon 14 Dec.');
    expect(within(tile).getByRole('link', { name: 'Fill them' })).toHaveAttribute('href', '/open-visits');
  });
});

describe('public holidays', () => {
  it('an ADMIN adds one (its problems said first) and removes one', async () => {
    let holidays: Schemas['PublicHoliday'][] = [{ id: 1, date: '2026-12-25', name: 'Christmas Day' }];
    server.use(
      http.get(api('/public_holidays'), () => HttpResponse.json({ public_holidays: holidays })),
      http.post(api('/public_holidays'), async ({ request }) => {
        const body = await request.json() as { date: string; name: string };
        holidays = [...holidays, { id: 2, ...body }];
        return HttpResponse.json({ public_holiday: holidays[1] }, { status: 201 });
      }),
      http.delete(api('/public_holidays/1'), () => {
        holidays = holidays.filter((holiday) => holiday.id !== 1);
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const user = userEvent.setup();
    renderPage(PublicHolidaysPage, { path: '/settings/public-holidays', role: 'ADMIN' });
    expect(await screen.findByTestId('public-holiday')).toHaveTextContent('Christmas Day');
    const form = screen.getByRole('form', { name: 'Add a public holiday' });
    await user.click(within(form).getByRole('button', { name: 'Add public holiday' }));
    expect(form).toHaveTextContent('Choose the day of the holiday.');
    expect(form).toHaveTextContent('Enter the holiday’s name, e.g. Christmas Day.');
    await user.click(within(form).getByRole('button', { name: 'Tomorrow' }));
    await user.type(within(form).getByLabelText('Name'), 'Show day');
    await user.click(within(form).getByRole('button', { name: 'Add public holiday' }));
    expect(await screen.findByText('Show day has been added: care plans generate no visits on it.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByTestId('public-holiday')).toHaveLength(2));
    expect(sent('POST', '/public_holidays')[0].body).toMatchObject({ name: 'Show day' });

    await user.click(screen.getByRole('button', { name: 'Remove Christmas Day' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(screen.getAllByTestId('public-holiday')).toHaveLength(1));
    expect(sent('DELETE', '/public_holidays/1')).toHaveLength(1);
  });

  it('a REGULAR_USER reads them without the means to change them', async () => {
    server.use(http.get(api('/public_holidays'), () => HttpResponse.json({ public_holidays: [{ id: 1, date: '2026-12-25', name: 'Christmas Day' }] })));
    renderPage(PublicHolidaysPage, { path: '/settings/public-holidays', role: 'REGULAR_USER' });
    expect(await screen.findByTestId('public-holiday')).toHaveTextContent('Christmas Day');
    expect(screen.queryByRole('form', { name: 'Add a public holiday' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Remove Christmas Day' })).toBeNull();
  });
});
