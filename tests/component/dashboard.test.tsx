// The dashboard (issue 13): tiles with a figure, words and a link to the page that fixes it for ADMIN and
// REGULAR_USER; the next visit and today's run sheet for a PRACTITIONER; loading and failure in words; one request,
// made again when visits change.
import { describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import DashboardPage from '../../src/features/dashboard/DashboardPage';
import { appointmentQueries } from '../../src/entities/appointments/queries';
import { api, quietDashboard, received, server } from './support/fakeApi';
import { appointmentListBody, dayIssuesBody, deferred, makeAppointment, makeClient } from './support/fixtures';
import { renderWithServices, useFakeApi } from './support/harness';

useFakeApi();

// Wednesday 25 November 2026 in Brisbane.
type Week = { routed_days: number; travel_seconds: number; travel_metres: number; visit_seconds: number; working_seconds: number; utilisation: number | null };
const week = (start: string, end: string, figures: Partial<Week> = {}) => ({
  start, end, routed_days: 0, travel_seconds: 0, travel_metres: 0, visit_seconds: 0, working_seconds: 0, utilisation: null, ...figures,
});
const OVERVIEW = {
  visits_by_practitioner: [
    { practitioner_id: 7, name: 'Pat Nguyen', color: '#9333ea', today: 5, tomorrow: 4 },
    { practitioner_id: 8, name: 'Quinn Lee', color: '#16a34a', today: 3, tomorrow: 0 },
  ],
  outside_availability: [{ date: '2026-11-25', count: 0 }, { date: '2026-11-26', count: 2 }],
  travel_warnings: [{ date: '2026-11-25', count: 1 }, { date: '2026-11-26', count: 0 }],
  unrouted_days: [
    { date: '2026-11-27', practitioner_id: 7, practitioner_name: 'Pat Nguyen', visits: 6 },
    { date: '2026-11-30', practitioner_id: 8, practitioner_name: 'Quinn Lee', visits: 1 },
  ],
  // The first of 14: the rest are counted, not listed.
  unrouted_day_count: 14,
  // Three visits in two practitioner-days booked while their practitioner is on leave.
  visits_on_leave: {
    count: 3,
    days: [
      { date: '2026-12-07', practitioner_id: 7, practitioner_name: 'Pat Nguyen', visits: 2 },
      { date: '2026-12-08', practitioner_id: 8, practitioner_name: 'Quinn Lee', visits: 1 },
    ],
  },
  stale_routes: [{ date: '2026-11-26', practitioner_id: 8, practitioner_name: 'Quinn Lee', stale_at: '2026-11-24T03:00:00.000Z' }],
  clients_missing_address: { clients: 12, with_visit_this_week: 3 },
  last_import: {
    id: 41, status: 'ERROR', start_date: '2026-11-25', end_date: '2026-12-01', error_message: 'The practice management system refused the API key.',
    created_at: '2026-11-25T00:05:00.000Z', finished_at: '2026-11-25T00:06:00.000Z', created_by_name: null, automatic: true, problems: 0,
  },
  last_export: {
    id: 42, status: 'COMPLETE', start_date: '2026-11-25', end_date: '2026-11-25', error_message: null,
    created_at: '2026-11-24T23:35:00.000Z', finished_at: '2026-11-24T23:36:00.000Z', created_by_name: 'Ada Admin', automatic: false, problems: 2,
  },
  // This week 7 h 30 min of travel (9 practitioner-days routed), last week 6 h: up 25%; utilisation 61.3% (last 58%).
  this_week: week('2026-11-23', '2026-11-29', { routed_days: 9, travel_seconds: 27_000, travel_metres: 412_300, visit_seconds: 88_200, working_seconds: 144_000, utilisation: 0.613 }),
  last_week: week('2026-11-16', '2026-11-22', { routed_days: 8, travel_seconds: 21_600, travel_metres: 300_000, visit_seconds: 83_520, working_seconds: 144_000, utilisation: 0.58 }),
  travel: 'haversine',
  failed_reminders: {
    count: 2,
    clients: [{ client_id: 21, client_name: 'Amy Able', visit_date: '2026-11-26', channel: 'sms', error: 'The SMS service answered 400: Invalid number.' }],
  },
  overdue_visits: {
    date: '2026-11-25', count: 2, after_minutes: 15,
    alerts: [
      { appointment_id: 41, kind: 'on_the_way', minutes: 52, text: 'Isla Park has been on the way to Mrs Lee for 52 min' },
      { appointment_id: 42, kind: 'still_there', minutes: 130, text: 'Pat Nguyen arrived at Bert Smith 2 h 10 min ago, visit booked for 45 min' },
    ],
  },
};

function serveDashboard(role: 'ADMIN' | 'REGULAR_USER' | 'PRACTITIONER', body: object) {
  server.use(http.get(api('/dashboard'), () => HttpResponse.json({ ...quietDashboard(role), ...body })));
}

const tile = (name: string) => screen.findByRole('region', { name });
const figure = (region: HTMLElement) => within(region).getByTestId('tile-figure').textContent;
const words = (region: HTMLElement) => within(region).getByTestId('tile-text').textContent;
const hrefs = (region: HTMLElement) => within(region).getAllByRole('link').map((link) => [link.textContent, link.getAttribute('href')]);
const dashboardCalls = () => received.filter((request) => request.path === '/api/dashboard').length;

describe('the dashboard of an ADMIN', () => {
  it('shows each tile’s figure and words, and links it to the page that fixes it', async () => {
    serveDashboard('ADMIN', { overview: OVERVIEW });
    renderWithServices(<DashboardPage />, { role: 'ADMIN' });

    const visits = await tile('Visits today');
    expect(figure(visits)).toBe('8');
    expect(words(visits)).toBe('4 visits tomorrow, not counting cancelled ones.');
    const rows = within(within(visits).getByRole('table', { name: 'Visits per practitioner' })).getAllByRole('row').map((row) => row.textContent);
    expect(rows).toEqual(['PractitionerTodayTomorrow', 'Pat Nguyen54', 'Quinn Lee30']);
    expect(hrefs(visits)).toEqual([
      ['Today’s schedule', '/appointments?view=schedule&start=2026-11-25&end=2026-11-25'],
      ['Tomorrow’s schedule', '/appointments?view=schedule&start=2026-11-26&end=2026-11-26'],
    ]);

    // Today's visits that need the desk, each in words, linked to today's (live) schedule.
    const overdue = await tile('Overdue visits');
    expect(figure(overdue)).toBe('2');
    expect(words(overdue)).toBe('visits today need you: more than 15 min without a check-in, on the way beyond the travel, or there beyond the booked length.');
    expect(within(within(overdue).getByRole('list', { name: 'Visits that need you' })).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Isla Park has been on the way to Mrs Lee for 52 min', 'Pat Nguyen arrived at Bert Smith 2 h 10 min ago, visit booked for 45 min',
    ]);
    expect(hrefs(overdue)).toEqual([['See them on today’s schedule', '/appointments?view=schedule&start=2026-11-25&end=2026-11-25']]);

    // None today, two tomorrow: the link goes to the day that has some.
    const outside = await tile('Outside availability');
    expect(figure(outside)).toBe('0');
    expect(words(outside)).toBe('visits arrive today outside the client’s availability; 2 tomorrow.');
    expect(hrefs(outside)).toEqual([['Fix on tomorrow’s schedule', '/appointments?view=schedule&start=2026-11-26&end=2026-11-26']]);

    const travel = await tile('Travel-time warnings');
    expect(figure(travel)).toBe('1');
    expect(words(travel)).toBe('visit leaves less time than the travel from the visit before today (a straight-line estimate of travel); 0 tomorrow.');
    expect(hrefs(travel)).toEqual([['Fix on today’s schedule', '/appointments?view=schedule&start=2026-11-25&end=2026-11-25']]);

    const unrouted = await tile('Unrouted days');
    expect(figure(unrouted)).toBe('14');
    expect(words(unrouted)).toMatch(/with visits but no applied route, counting practitioners with a start place and working hours that day/);
    expect(within(within(unrouted).getByRole('list', { name: 'Unrouted days' })).getAllByRole('listitem').map((item) => item.textContent))
      .toEqual(['Fri 27 Nov · Pat Nguyen (6 visits)', 'Mon 30 Nov · Quinn Lee (1 visit)', 'and 12 more']);
    expect(hrefs(unrouted)).toEqual([
      ['Fri 27 Nov', '/appointments?view=schedule&start=2026-11-27&end=2026-11-27'],
      ['Mon 30 Nov', '/appointments?view=schedule&start=2026-11-30&end=2026-11-30'],
      ['Optimise Fri 27 Nov', '/appointments?view=schedule&start=2026-11-27&end=2026-11-27'],
      ['Start places and hours', '/settings/practitioners'],
    ]);

    const onLeave = await tile('Visits in leave');
    expect(figure(onLeave)).toBe('3');
    expect(words(onLeave)).toBe('visits are booked while their practitioner is on leave, in the next 4 weeks: optimise the day, reassigning between practitioners, to move them.');
    expect(within(within(onLeave).getByRole('list', { name: 'Visits booked in leave' })).getAllByRole('listitem').map((item) => item.textContent))
      .toEqual(['Mon 7 Dec · Pat Nguyen (2 visits)', 'Tue 8 Dec · Quinn Lee (1 visit)']);
    expect(hrefs(onLeave).slice(-2)).toEqual([
      ['Reassign Mon 7 Dec', '/appointments?view=schedule&start=2026-12-07&end=2026-12-07'],
      ['Leave', '/settings/practitioners'],
    ]);

    const stale = await tile('Stale routes');
    expect(figure(stale)).toBe('1');
    expect(hrefs(stale).at(-1)).toEqual(['Re-optimise Thu 26 Nov', '/appointments?view=schedule&start=2026-11-26&end=2026-11-26']);

    const missing = await tile('Clients missing address');
    expect(figure(missing)).toBe('12');
    expect(words(missing)).toBe('clients have an incomplete address or an imprecise map point; 3 with a visit in the next 7 days.');
    expect(hrefs(missing)).toEqual([['Fix them (report)', '/reports/clients-missing-address']]);

    const lastImport = await tile('Last import');
    expect(figure(lastImport)).toBe('Error');
    expect(words(lastImport)).toBe('Wed 25 Nov – Tue 1 Dec · 25 Nov 2026 10:06 · automatic');
    expect(within(lastImport).getByTestId('job-error')).toHaveTextContent('The practice management system refused the API key.');
    expect(hrefs(lastImport)).toEqual([['Imports', '/imports']]);
    const lastExport = await tile('Last export');
    expect(figure(lastExport)).toBe('Complete');
    expect(words(lastExport)).toBe('Wed 25 Nov · 25 Nov 2026 09:36 · by Ada Admin · 2 conflicts');
    expect(hrefs(lastExport)).toEqual([['Exports', '/exports']]);

    const weekTravel = await tile('Travel this week');
    expect(figure(weekTravel)).toBe('7 h 30 min');
    expect(words(weekTravel)).toBe('Travel between every visit (412.3 km; 9 practitioner-days on an optimised route), up 25% on last week (6 h).');
    expect(hrefs(weekTravel)).toEqual([['This week’s schedule', '/appointments?view=schedule&start=2026-11-23&end=2026-11-29']]);

    const utilisation = await tile('Utilisation this week');
    expect(figure(utilisation)).toBe('61.3%');
    expect(words(utilisation)).toBe('Visit hours ÷ working hours (practitioners’ settings): 24 h 30 min of 40 h; last week 58%.');
    expect(hrefs(utilisation)).toEqual([['Working hours', '/settings/practitioners']]);

    const reminders = await tile('Reminders failed');
    expect(figure(reminders)).toBe('2');
    expect(words(reminders)).toBe('reminders to clients could not be sent after retrying; let those clients know another way.');
    expect(within(within(reminders).getByRole('list', { name: 'Clients whose reminder failed' })).getAllByRole('listitem').map((item) => item.textContent))
      .toEqual(['Amy Able · Thu 26 Nov · SMSThe SMS service answered 400: Invalid number.']);
    expect(reminders).toHaveTextContent('and 1 more');
    expect(hrefs(reminders)).toEqual([
      ['Schedule of Thu 26 Nov', '/appointments?view=schedule&start=2026-11-26&end=2026-11-26'],
      ['Reminder settings', '/settings/business-account'],
    ]);
  });

  it('says every reminder went out when none failed', async () => {
    serveDashboard('ADMIN', { overview: { ...OVERVIEW, failed_reminders: { count: 0, clients: [] } } });
    renderWithServices(<DashboardPage />, { role: 'ADMIN' });
    const reminders = await tile('Reminders failed');
    expect(figure(reminders)).toBe('0');
    expect(words(reminders)).toBe('Every appointment reminder for the visits ahead has gone out (or is on its way).');
    expect(hrefs(reminders)).toEqual([['Reminder settings', '/settings/business-account']]);
  });
});

describe('problems today', () => {
  it('counts today’s hard problems by rule and links to today’s schedule', async () => {
    serveDashboard('ADMIN', { overview: OVERVIEW });
    server.use(http.get(api('/schedule/issues'), ({ request }) => HttpResponse.json(dayIssuesBody(new URL(request.url).searchParams.get('date')!, [
      { rule: 'client-overlap', hard: true, appointment_ids: [1, 2], message: 'Margaret Jones has two visits at once: 09:00–10:00 with Pat Nguyen and 09:30–10:30 with Quinn Lee.' },
      { rule: 'tolerance', hard: true, appointment_ids: [3], message: "Bert Smith's visit booked 08:00 arrives 09:15: more than 30 min from the booked time." },
      { rule: 'tolerance', hard: true, appointment_ids: [4], message: "Dora Ellis's visit booked 13:00 arrives 14:00: more than 30 min from the booked time." },
      { rule: 'working-hours', hard: false, appointment_ids: [5], message: "Evan Fox 17:00–17:30 is outside Quinn Lee's working hours (08:00–17:00)." },
    ]))));
    renderWithServices(<DashboardPage />, { role: 'REGULAR_USER' });
    const problems = await tile('Problems today');
    await waitFor(() => expect(figure(problems)).toBe('3'));
    expect(words(problems)).toBe('problems with the rules of home care on today’s schedule.');
    expect(within(within(problems).getByRole('list', { name: 'Problems today by rule' })).getAllByRole('listitem').map((item) => item.textContent))
      .toEqual(['Two visits of one client at once: 1', 'Too far from the booked time: 2']);
    expect(hrefs(problems)).toEqual([['Fix on today’s schedule', '/appointments?view=schedule&start=2026-11-25&end=2026-11-25']]);
    expect(received.find((request) => request.path === '/api/schedule/issues')?.search).toBe('?date=2026-11-25');
  });

  it('says today keeps every hard rule when it has no problem', async () => {
    serveDashboard('ADMIN', { overview: OVERVIEW });
    renderWithServices(<DashboardPage />, { role: 'ADMIN' });
    const problems = await tile('Problems today');
    await waitFor(() => expect(figure(problems)).toBe('0'));
    expect(words(problems)).toBe('Today’s schedule keeps every hard rule of home care.');
    expect(hrefs(problems)).toEqual([['Today’s schedule', '/appointments?view=schedule&start=2026-11-25&end=2026-11-25']]);
  });
});

describe('the dashboard of a REGULAR_USER', () => {
  it('links only to pages the role may open and names the jobs as theirs', async () => {
    serveDashboard('REGULAR_USER', { overview: { ...OVERVIEW, last_export: null } });
    renderWithServices(<DashboardPage />, { role: 'REGULAR_USER' });
    expect(hrefs(await tile('Clients missing address'))).toEqual([['Open clients', '/clients']]);
    const lastImport = await tile('Your last import');
    expect(within(lastImport).queryAllByRole('link')).toEqual([]);
    const lastExport = await tile('Your last export');
    expect(figure(lastExport)).toBe('None');
    expect(words(lastExport)).toBe('You have not started an export yet.');
    expect(hrefs(await tile('Unrouted days')).map(([label]) => label)).not.toContain('Start places and hours');
    expect(hrefs(await tile('Utilisation this week'))).toEqual([['This week’s schedule', '/appointments?view=schedule&start=2026-11-23&end=2026-11-29']]);
    expect(hrefs(await tile('Reminders failed'))).toEqual([['Schedule of Thu 26 Nov', '/appointments?view=schedule&start=2026-11-26&end=2026-11-26']]);
    expect(screen.queryByRole('link', { name: /report/ })).toBeNull();
  });
});

describe('loading, failure and refresh', () => {
  it('says it is loading, then says it failed in words, and tries again', async () => {
    const gate = deferred<void>();
    server.use(http.get(api('/dashboard'), async () => {
      await gate.promise;
      return HttpResponse.json({ message: 'The database is not answering.' }, { status: 503 });
    }));
    renderWithServices(<DashboardPage />, { role: 'ADMIN' });
    expect(await screen.findByText('Loading the dashboard…')).toBeInTheDocument();
    gate.resolve();
    const alert = await screen.findByRole('alert', {}, { timeout: 5000 });
    expect(alert).toHaveTextContent('The database is not answering. The figures are not shown.');
    expect(screen.queryByRole('region', { name: 'Visits today' })).toBeNull();

    serveDashboard('ADMIN', { overview: OVERVIEW });
    await userEvent.setup().click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(figure(await tile('Visits today'))).toBe('8');
  });

  it('loads the dashboard in one request, made again when visits change', async () => {
    serveDashboard('ADMIN', { overview: OVERVIEW });
    const { services } = renderWithServices(<DashboardPage />, { role: 'ADMIN' });
    await tile('Visits today');
    expect(dashboardCalls()).toBe(1);
    // Besides the session's own calls, the page asks only for the dashboard, the open visits and today's problems by the rule book.
    await waitFor(() => expect(received.map((request) => request.path).filter((path) => !['/api/auth/user', '/api/provider_account/current'].includes(path)).sort())
      .toEqual(['/api/dashboard', '/api/open_visits', '/api/schedule/issues']));
    // What a moved visit, an applied route or a finished import invalidates.
    serveDashboard('ADMIN', { overview: { ...OVERVIEW, travel_warnings: [{ date: '2026-11-25', count: 0 }, { date: '2026-11-26', count: 0 }] } });
    await act(() => services.queryClient.invalidateQueries({ queryKey: appointmentQueries.lists() }));
    await waitFor(() => expect(figure(screen.getByRole('region', { name: 'Travel-time warnings' }))).toBe('0'));
    expect(dashboardCalls()).toBe(2);
    // No warning either day: the tile links to today's schedule without asking to fix anything.
    expect(hrefs(screen.getByRole('region', { name: 'Travel-time warnings' }))).toEqual([['Today’s schedule', '/appointments?view=schedule&start=2026-11-25&end=2026-11-25']]);
  });
});

describe('the live dashboard', () => {
  const overdueFigure = () => figure(screen.getByRole('region', { name: 'Overdue visits' }));

  it('reads its figures again every minute, so a visit becoming overdue shows without anything changing', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
    try {
      serveDashboard('ADMIN', { overview: { ...OVERVIEW, overdue_visits: { date: '2026-11-25', count: 0, after_minutes: 15, alerts: [] } } });
      renderWithServices(<DashboardPage />, { role: 'ADMIN' });
      await tile('Overdue visits');
      expect(overdueFigure()).toBe('0');
      serveDashboard('ADMIN', { overview: OVERVIEW });
      await act(() => vi.advanceTimersByTimeAsync(59_000));
      expect(overdueFigure()).toBe('0');
      await act(() => vi.advanceTimersByTimeAsync(2_000));
      await waitFor(() => expect(overdueFigure()).toBe('2'));
    } finally {
      vi.useRealTimers();
    }
  });

  it('reads its figures again as soon as the server pushes a change to a visit', async () => {
    const streams: EventTarget[] = [];
    vi.stubGlobal('EventSource', class extends EventTarget {
      constructor(readonly url: string) {
        super();
        streams.push(this);
      }
      close() {}
    });
    try {
      server.use(http.post(api('/live/tickets'), () => HttpResponse.json({ ticket: 'ticket-1', expires_at: '2026-11-25T00:00:30Z' }, { status: 201 })));
      serveDashboard('ADMIN', { overview: { ...OVERVIEW, overdue_visits: { date: '2026-11-25', count: 0, after_minutes: 15, alerts: [] } } });
      renderWithServices(<DashboardPage />, { role: 'ADMIN' });
      await tile('Overdue visits');
      await waitFor(() => expect(streams).toHaveLength(1));
      const calls = dashboardCalls();
      serveDashboard('ADMIN', { overview: OVERVIEW });
      act(() => {
        streams[0].dispatchEvent(new MessageEvent('visits', { data: JSON.stringify({ kind: 'step', practitioner_id: 7, appointment_id: 41 }) }));
      });
      await waitFor(() => expect(overdueFigure()).toBe('2'), { timeout: 2_000 });
      expect(dashboardCalls()).toBe(calls + 1);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe('the dashboard of a PRACTITIONER', () => {
  const PAT = { id: 7, full_name: 'Pat Nguyen', active: true, time_zone: 'Australia/Brisbane', color: '#9333ea' };
  // Wednesday 25 November in Brisbane: Margaret at 09:00 (arriving 08:50), Bert at 11:00.
  const MARGARET = makeAppointment({ id: 1, starts_at: '2026-11-24T23:00:00Z', ends_at: '2026-11-25T00:00:00Z', arrive_at: '2026-11-24T22:50:00Z', practitioner: PAT });
  const BERT = makeAppointment({
    id: 2, starts_at: '2026-11-25T01:00:00Z', ends_at: '2026-11-25T02:00:00Z', arrive_at: null, practitioner: PAT, suburb: 'Toowong',
    client: { id: 12, full_name: 'Bert Smith', time_zone: null, availability: [] },
  });

  it('shows their next visit and today’s run sheet from the one answer', async () => {
    const { meta: _meta, ...today } = appointmentListBody([MARGARET, BERT], new URLSearchParams());
    serveDashboard('PRACTITIONER', {
      practitioner_day: {
        next_visit: { appointment_id: 2, starts_at: BERT.starts_at, arrive_at: null, client_name: 'Bert Smith', suburb: 'Toowong', practitioner_id: 7, practitioner_name: 'Pat Nguyen' },
        today,
      },
    });
    server.use(
      http.get(api('/routes'), () => HttpResponse.json({ routes: [] })),
      http.get(api('/appointments/travel'), () => HttpResponse.json({ date: '2026-11-25', travel: 'haversine', appointments: [], practitioners: [] })),
      http.get(api('/appointments/:id/extra_details'), () => HttpResponse.json({ resource_map: null, versions: [], import_history: [], export_history: [] })),
      http.post(api('/travel'), () => HttpResponse.json({ legs: [{ travel_seconds: 780, travel_metres: 5100 }], geometry: null, source: 'estimate' })),
      http.get(api('/appointments/:id'), ({ params }) => HttpResponse.json({ appointment: [MARGARET, BERT].find((item) => String(item.id) === params.id) })),
      http.get(api('/clients/:id'), ({ params }) => HttpResponse.json({ client: makeClient({ id: Number(params.id) }) })),
    );
    renderWithServices(<DashboardPage />, { role: 'PRACTITIONER' });
    const next = await tile('Next visit');
    expect(next).toHaveTextContent('11:00 · Bert Smith');
    expect(next).toHaveTextContent('Toowong · Pat Nguyen');
    expect(screen.queryByRole('region', { name: 'Visits today' })).toBeNull();

    const sheet = await screen.findByTestId('run-sheet');
    expect(within(sheet).getAllByTestId('run-sheet-arrival').map((element) => element.textContent)).toEqual(['08:50', '11:00']);
    expect(screen.getByRole('link', { name: 'Open today’s run sheet in Appointments' })).toHaveAttribute('href', '/appointments');
    // The dashboard's answer is the day's list: the appointments list is not asked for again.
    expect(received.filter((request) => request.path === '/api/appointments')).toEqual([]);

    await userEvent.setup().click(within(next).getByRole('button', { name: 'Open the visit' }));
    expect(await screen.findByTestId('appointment-details-modal')).toBeInTheDocument();
  });

  it('names the day of a next visit that is not today, and says when the day is empty', async () => {
    serveDashboard('PRACTITIONER', {
      practitioner_day: {
        next_visit: { appointment_id: 9, starts_at: '2026-11-26T22:00:00.000Z', arrive_at: '2026-11-26T21:45:00.000Z', client_name: 'Cora Bell', suburb: null, practitioner_id: 7, practitioner_name: 'Pat Nguyen' },
        today: { appointments: [], clients: [], practitioners: [], appointment_types: [] },
      },
    });
    renderWithServices(<DashboardPage />, { role: 'PRACTITIONER' });
    expect(await tile('Next visit')).toHaveTextContent('Fri 27 Nov 07:45 · Cora Bell');
    expect(screen.getByText('No visits today.')).toBeInTheDocument();
    expect(screen.queryByTestId('run-sheet')).toBeNull();
  });
});
