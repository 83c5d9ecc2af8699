// Booking a visit from the day schedule: "New visit" (the toolbar, a free time on a lane, or a link naming the client),
// the client, type, day and window, the best fits to choose from (arrival, travel added, marks, warnings, why not the
// others), Book with one request id per dialog, refusals in words with nothing lost, the booked visit on the day at once.
// A practitioner gets none of it. The day is Wed 25 Nov 2026 in Brisbane (Pat Nguyen 7, Sam Lee 8); it is the evening
// before.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { at, RUN_DAY } from '../../src/testing/optimizations';
import type { components } from '../../src/api/schema';
import { BOOKING_PROBLEMS } from '../../src/features/schedule/visitBooking';
import { api, received as sent, server } from './support/fakeApi';
import { renderWithServices, useFakeApi } from './support/harness';
import AppointmentsPage from '../../src/features/schedule/AppointmentsPage';
import { ClientDetailsModal } from '../../src/features/clients/ClientDetailsModal';
import { findRoute } from '../../src/router/routeTable';
import type { Role } from '../../src/api/types';
import { makeAppointment, makeClient } from './support/fixtures';
import { freshFake, json, PAT, renderDaySchedule, SAM, SCHEDULE_PATH, serveRoutes, type RoutesFake } from './support/routesFakeApi';

type BestFitResult = components['schemas']['BestFitResult'];
type PractitionerSettings = components['schemas']['PractitionerSettings'];

useFakeApi();

const WEEKDAYS = [...Array(5).fill({ start: '07:00', end: '17:30' }), null, null] as PractitionerSettings['working_hours'];
function settingsOf({ id, full_name }: { id: number; full_name: string }, qualified: number[]): PractitionerSettings {
  const [first_name, last_name] = full_name.split(' ');
  return {
    id, full_name, first_name, last_name, active: true, profession: 'Registered Nurse', time_zone: 'Australia/Brisbane', color: '#c13b3b', color_chosen: false,
    start_place: { kind: 'home', id: null, name: 'Home', address: '1 Home St', lat: -27.49, lng: 153.03, geo_precision: 'address' }, end_place: null, home: null,
    working_hours: WEEKDAYS, break: null, skill_appointment_type_ids: null, pms_appointment_type_ids: qualified, max_visits: null, max_travel_minutes: null, routable: true, warnings: [],
    qualified_appointment_type_ids: qualified,
  };
}
const SETTINGS = [settingsOf(PAT, [3]), settingsOf(SAM, [3]), settingsOf({ id: 9, full_name: 'Jo Park' }, [4])];

const LEE = { id: 21, full_name: 'Mary Lee' };
const clientItem = (id: number, full_name: string) => ({
  id, full_name, first_name: full_name.split(' ')[0], last_name: full_name.split(' ')[1], suburb: 'Toowong', phone: null, email: null, tags: [], has_custom_availability: false, has_address: true,
});

const FITS: BestFitResult = {
  date: RUN_DAY, duration_minutes: 60, window_start: '07:00', window_end: '12:00',
  fits: [
    { practitioner_id: 7, name: 'Pat Nguyen', color: '#e6194b', arrive_at: at('10:05'), leave_at: at('11:05'), added_travel_seconds: 720, added_travel_metres: 6_000, visits: 3, continuity: true, preferred: false, warnings: [] },
    {
      practitioner_id: 8, name: 'Sam Lee', color: '#4363d8', arrive_at: at('08:30'), leave_at: at('09:30'), added_travel_seconds: 1_260, added_travel_metres: 14_000, visits: 2, continuity: false, preferred: true,
      warnings: [{ rule: 'travel-time', message: 'Sam Lee has 10 min to get to Cora Diaz; the journey takes about 15 min.' }],
    },
  ],
  others: [{ practitioner_id: 10, name: 'Kim Chan', reason: 'On leave that day' }],
  message: null,
};

let fake: RoutesFake;
let bestFitAnswer: () => Response;
let bookAnswer: (body: Record<string, unknown>) => Response | undefined;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-24T08:00:00Z'), shouldAdvanceTime: true });
  fake = freshFake();
  bestFitAnswer = () => json(FITS);
  bookAnswer = () => undefined;
  serveRoutes(server, fake);
  server.use(
    http.get(api('/practitioners'), () => json({ practitioners: SETTINGS })),
    http.get(api('/clients'), ({ request }) => {
      const q = new URL(request.url).searchParams.get('q') ?? '';
      const clients = [clientItem(LEE.id, LEE.full_name), clientItem(11, 'Margaret Jones')].filter((client) => client.full_name.toLowerCase().includes(q.toLowerCase()));
      return json({ clients, meta: { page: 1, per_page: 10, total: clients.length } });
    }),
    http.get(api('/clients/:id'), ({ params }) => json({ client: makeClient(Number(params.id) === LEE.id ? { id: LEE.id, full_name: LEE.full_name, first_name: 'Mary', last_name: 'Lee' } : {}) })),
    http.post(api('/visits/best_fit'), () => bestFitAnswer()),
    http.post(api('/visits'), async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      const refused = bookAnswer(body);
      if (refused) return refused;
      const practitioner = [PAT, SAM].find((item) => item.id === body.practitioner_id)!;
      const startsAt = new Date(String(body.starts_at)).toISOString();
      const booked = makeAppointment({
        id: 90, starts_at: startsAt, arrive_at: startsAt, agreed_starts_at: startsAt, ends_at: new Date(Date.parse(startsAt) + 3_600_000).toISOString(),
        practitioner, client: { id: LEE.id, full_name: LEE.full_name, time_zone: 'Australia/Brisbane', availability: [] },
        pms_write: { id: 300, appointment_id: 90, kind: 'create', state: 'saving', message: null, differences: [], attempts: 1, created_by: 'Alex Taylor', created_at: at('06:00'), updated_at: at('06:00') },
      });
      fake.visits.push(booked);
      return json({ appointment: booked, warnings: [] }, 201);
    }),
  );
});
afterEach(() => {
  vi.useRealTimers();
});

/** The appointments page at an address of its own (renderDaySchedule sets the schedule's). */
function renderAt(path: string, role: Role = 'ADMIN') {
  window.history.replaceState(null, '', path);
  return renderWithServices(<AppointmentsPage route={findRoute('/appointments')!} />, { role });
}

const requests = (method: string, path: string) => sent.filter((request) => request.method === method && request.path === `/api${path}`);

async function chooseClient(user: ReturnType<typeof userEvent.setup>, dialog: HTMLElement, typed: string, name: string) {
  await user.type(within(dialog).getByRole('combobox', { name: 'Client' }), typed);
  await user.click(await screen.findByRole('option', { name: new RegExp(name) }));
}

/** The toolbar's New visit, filled for Mary Lee's Home visit on Wednesday morning, best fit. */
async function fillNewVisit() {
  const user = userEvent.setup();
  const view = renderDaySchedule();
  await user.click(await screen.findByRole('button', { name: 'New visit' }));
  const dialog = await screen.findByTestId('new-visit-dialog');
  await chooseClient(user, dialog, 'Lee', 'Mary Lee');
  const type = within(dialog).getByRole('combobox', { name: 'Appointment type' });
  await waitFor(() => expect(within(type).getAllByRole('option')).toHaveLength(2));
  await user.selectOptions(type, 'Home visit (60 min)');
  expect(within(dialog).getByRole('radio', { name: 'Morning (07:00–12:00)' })).toBeChecked();
  expect(within(dialog).getByRole('combobox', { name: 'Practitioner' })).toHaveValue('best');
  return { user, view, dialog };
}

describe('New visit by best fit', () => {
  it('shows the best fits with arrival, travel added, marks and warnings, says why not the others, and books the one chosen', async () => {
    const { user, view, dialog } = await fillNewVisit();
    // Book waits for a choice.
    expect(within(dialog).getByRole('button', { name: 'Book' })).toBeDisabled();
    await user.click(within(dialog).getByRole('button', { name: 'Find the best fits' }));

    const fits = await within(dialog).findAllByTestId('best-fit');
    expect(fits.map((fit) => fit.textContent)).toEqual([
      'Pat NguyenVisited beforeArrives 10:05, +12 min travel · 3 visits that day',
      'Sam LeePreferredArrives 08:30, +21 min travel · 2 visits that day⚠ Sam Lee has 10 min to get to Cora Diaz; the journey takes about 15 min.',
    ]);
    expect(requests('POST', '/visits/best_fit').map((request) => request.body)).toEqual([
      { client_id: LEE.id, appointment_type_id: 3, date: RUN_DAY, window_start: '07:00', window_end: '12:00', limit: 5 },
    ]);
    // The cheapest is chosen at first; the coordinator picks another.
    expect(within(fits[0]).getByRole('radio')).toBeChecked();
    await user.click(within(dialog).getByText('Why not others?'));
    expect(within(dialog).getByTestId('best-fit-others')).toHaveTextContent('Kim Chan: On leave that day');
    await user.click(within(fits[1]).getByRole('radio'));

    const listReads = requests('GET', '/appointments').length;
    await user.click(within(dialog).getByRole('button', { name: 'Book' }));
    expect(await screen.findByText('Booked Mary Lee with Sam Lee, 25 Nov 2026 08:30 — saving to Cliniko.')).toBeInTheDocument();
    const [booking] = requests('POST', '/visits').map((request) => request.body as Record<string, unknown>);
    expect(booking).toMatchObject({ client_id: LEE.id, appointment_type_id: 3, practitioner_id: 8, starts_at: at('08:30') });
    expect(String(booking.request_id)).toMatch(/^book-/);
    await waitFor(() => expect(screen.queryByTestId('new-visit-dialog')).toBeNull());
    // The day is read again: the visit is on Sam's lane at once, marked as saving to Cliniko.
    await waitFor(() => expect(requests('GET', '/appointments').length).toBeGreaterThan(listReads));
    const booked = await screen.findByRole('button', { name: /^08:30 Mary Lee Saving to Cliniko…/ });
    expect(within(screen.getByRole('listitem', { name: 'Sam Lee' })).getByTestId('schedule-track')).toContainElement(booked);
    expect(window.location.search).not.toContain('new_visit');
    view.unmount();
  });

  it('says why nothing fits, in the server’s words, and books nothing', async () => {
    bestFitAnswer = () => json({ ...FITS, fits: [], message: 'Mary Lee is away that day.' });
    const { user, view, dialog } = await fillNewVisit();
    await user.click(within(dialog).getByRole('button', { name: 'Find the best fits' }));
    expect(await within(dialog).findByTestId('best-fit-message')).toHaveTextContent('Mary Lee is away that day.');
    expect(within(dialog).getByRole('button', { name: 'Book' })).toBeDisabled();
    view.unmount();
  });

  it('says what is missing before asking for fits', async () => {
    const user = userEvent.setup();
    const view = renderDaySchedule();
    await user.click(await screen.findByRole('button', { name: 'New visit' }));
    const dialog = await screen.findByTestId('new-visit-dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Find the best fits' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent(BOOKING_PROBLEMS.client);
    await chooseClient(user, dialog, 'Lee', 'Mary Lee');
    await user.click(within(dialog).getByRole('button', { name: 'Find the best fits' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent(BOOKING_PROBLEMS.type);
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Appointment type' }), 'Home visit (60 min)');
    await user.click(within(dialog).getByRole('radio', { name: 'Between…' }));
    const to = within(dialog).getByRole('textbox', { name: 'To' });
    await user.clear(to);
    await user.type(to, '08:00');
    await user.click(within(dialog).getByRole('button', { name: 'Find the best fits' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent(BOOKING_PROBLEMS.window);
    expect(requests('POST', '/visits/best_fit')).toHaveLength(0);
    view.unmount();
  });

  it('shows a refusal in words, keeps the form, and sends the same request id when Book is pressed again', async () => {
    let refusals = 1;
    bookAnswer = () => (refusals-- > 0 ? json({ message: 'This change would break the rules of home care: Sam Lee is on leave from 08:00 to 12:00.', code: 'RULES_BROKEN' }, 409) : undefined);
    const { user, view, dialog } = await fillNewVisit();
    await user.click(within(dialog).getByRole('button', { name: 'Find the best fits' }));
    await user.click(within((await within(dialog).findAllByTestId('best-fit'))[1]).getByRole('radio'));
    await user.click(within(dialog).getByRole('button', { name: 'Book' }));
    expect(await within(dialog).findByText('This change would break the rules of home care: Sam Lee is on leave from 08:00 to 12:00.')).toBeInTheDocument();
    // Nothing is lost: the client, the type and the chosen fit are as they were.
    expect(within(dialog).getByRole('combobox', { name: 'Client' })).toHaveValue('Mary Lee');
    expect(within(dialog).getByRole('combobox', { name: 'Appointment type' })).toHaveValue('3');
    expect(within(within(dialog).getAllByTestId('best-fit')[1]).getByRole('radio')).toBeChecked();

    await user.click(within(dialog).getByRole('button', { name: 'Book' }));
    expect(await screen.findByText('Booked Mary Lee with Sam Lee, 25 Nov 2026 08:30 — saving to Cliniko.')).toBeInTheDocument();
    const ids = requests('POST', '/visits').map((request) => (request.body as { request_id: string }).request_id);
    expect(ids).toHaveLength(2);
    expect(ids[1]).toBe(ids[0]);
    view.unmount();
  });

  it('books once on a double click', async () => {
    const { user, view, dialog } = await fillNewVisit();
    await user.click(within(dialog).getByRole('button', { name: 'Find the best fits' }));
    await within(dialog).findAllByTestId('best-fit');
    await user.dblClick(within(dialog).getByRole('button', { name: 'Book' }));
    expect(await screen.findByText('Booked Mary Lee with Pat Nguyen, 25 Nov 2026 10:05 — saving to Cliniko.')).toBeInTheDocument();
    expect(requests('POST', '/visits')).toHaveLength(1);
    view.unmount();
  });
});

describe('New visit from a lane or a link', () => {
  it('opens from a free time on a practitioner’s lane with them, the day and the time, and books there', async () => {
    const user = userEvent.setup();
    const view = renderDaySchedule();
    const lane = await screen.findByRole('listitem', { name: 'Sam Lee' });
    const track = within(lane).getByTestId('schedule-track');
    // jsdom lays nothing out: the strip is 720 px for 06:00–18:00, a pixel a minute.
    vi.spyOn(track, 'getBoundingClientRect').mockReturnValue({ left: 0, right: 720, width: 720, top: 0, bottom: 56, height: 56, x: 0, y: 0, toJSON: () => ({}) });
    fireEvent.click(track, { clientX: 212, clientY: 20 });

    const dialog = await screen.findByTestId('new-visit-dialog');
    expect(window.location.search).toContain('visit_practitioner=8');
    expect(within(dialog).getByRole('radio', { name: 'At a time' })).toBeChecked();
    expect(within(dialog).getByRole('textbox', { name: 'Start time' })).toHaveValue('09:30');
    await waitFor(() => expect(within(dialog).getByRole('combobox', { name: 'Practitioner' })).toHaveValue('8'));
    expect(within(dialog).getByTestId('date-value')).toHaveTextContent('25 Nov 2026');
    await chooseClient(user, dialog, 'Lee', 'Mary Lee');
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Appointment type' }), 'Home visit (60 min)');
    // A practitioner at a time books straight away, without best fits.
    await user.click(within(dialog).getByRole('button', { name: 'Book' }));
    expect(await screen.findByText('Booked Mary Lee with Sam Lee, 25 Nov 2026 09:30 — saving to Cliniko.')).toBeInTheDocument();
    expect(requests('POST', '/visits').map((request) => request.body)).toEqual([
      expect.objectContaining({ practitioner_id: 8, starts_at: '2026-11-25T09:30:00+10:00', client_id: LEE.id, appointment_type_id: 3 }),
    ]);
    expect(requests('POST', '/visits/best_fit')).toHaveLength(0);
    view.unmount();
  });

  it('opens from an address naming the client (the client modal’s and nearby search’s links)', async () => {
    const view = renderAt(`${SCHEDULE_PATH}&new_visit=true&client_id=${LEE.id}`);
    const dialog = await screen.findByTestId('new-visit-dialog');
    await waitFor(() => expect(within(dialog).getByRole('combobox', { name: 'Client' })).toHaveValue('Mary Lee'));
    view.unmount();
  });
});

describe('a drag released over the lane', () => {
  it('moves the visit and opens no New visit (the browser clicks the lane the drag ended on)', async () => {
    server.use(http.patch(api('/appointments/:id/move'), () => json({ appointment: makeAppointment({ id: 2 }), warnings: [] })));
    const view = renderDaySchedule();
    await screen.findAllByTestId('schedule-block');
    // jsdom lays nothing out: each lane's strip is 720 px (06:00–18:00), 56 px high, the lanes 60 px apart.
    screen.getAllByTestId('schedule-track').forEach((track, index) => {
      const top = index * 60;
      vi.spyOn(track, 'getBoundingClientRect').mockReturnValue({ left: 0, right: 720, width: 720, top, bottom: top + 56, height: 56, x: 0, y: top, toJSON: () => ({}) });
    });
    const bert = screen.getAllByTestId('schedule-block').find((button) => button.textContent?.includes('Bert Smith'))!;
    const at = (clientX: number, clientY: number) => ({ pointerId: 1, isPrimary: true, button: 0, clientX, clientY, pointerType: 'mouse' });
    fireEvent.pointerDown(bert, at(280, 20));
    fireEvent.pointerMove(bert, at(290, 24));
    fireEvent.pointerMove(bert, at(330, 24));
    fireEvent.pointerUp(bert, at(330, 24));
    fireEvent.click(within(screen.getByRole('listitem', { name: 'Pat Nguyen' })).getByTestId('schedule-track'), { clientX: 330, clientY: 24 });
    await waitFor(() => expect(requests('PATCH', '/appointments/2/move')).toHaveLength(1));
    expect(screen.queryByTestId('new-visit-dialog')).toBeNull();
    expect(window.location.search).not.toContain('new_visit');
    view.unmount();
  });
});

describe('Book a visit from a client’s details', () => {
  it('links to the day schedule with the New visit dialog open for the client; a practitioner has no link', async () => {
    server.use(http.get(api('/tags/all'), () => json({ tags: [] })));
    const coordinator = renderWithServices(<ClientDetailsModal clientId={LEE.id} onClose={() => {}} />);
    const link = await screen.findByRole('link', { name: 'Book a visit' });
    expect(link).toHaveAttribute('href', `/appointments?view=schedule&start=2026-11-24&end=2026-11-24&new_visit=true&client_id=${LEE.id}`);
    coordinator.unmount();
    const practitioner = renderWithServices(<ClientDetailsModal clientId={LEE.id} onClose={() => {}} />, { role: 'PRACTITIONER' });
    await screen.findByText('Time zone');
    expect(screen.queryByRole('link', { name: 'Book a visit' })).toBeNull();
    practitioner.unmount();
  });
});

describe('a practitioner', () => {
  it('is given no New visit, on the toolbar, the lanes or through the address', async () => {
    const view = renderAt(`${SCHEDULE_PATH}&new_visit=true`, 'PRACTITIONER');
    await screen.findAllByTestId('schedule-lane');
    expect(screen.queryByRole('button', { name: 'New visit' })).toBeNull();
    expect(screen.queryByTestId('lane-new-visit')).toBeNull();
    expect(screen.queryByTestId('new-visit-dialog')).toBeNull();
    view.unmount();
  });
});
