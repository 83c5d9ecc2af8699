// Moving a visit by hand from the appointment modal: the practitioners offered are the active ones who deliver its
// type, a move sends only what changed and the modal shows the saved visit, the server's refusal is shown next to the
// form; "Insert into a route" shows the optimiser's best place before anything changes and "Apply" moves the visit
// there, or says why it fits nowhere. Practitioners and cancelled visits get none of it.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { AppointmentDetailsModal } from '../../src/features/schedule/AppointmentDetailsModal';
import { MOVE_NOTHING_CHANGED_MESSAGE, MOVE_TIME_FORMAT_MESSAGE } from '../../src/features/schedule/visitMove';
import { at } from '../../src/testing/optimizations';
import type { components } from '../../src/api/schema';
import type { Role } from '../../src/api/types';
import { api, received as sent, server } from './support/fakeApi';
import { renderWithServices, useFakeApi } from './support/harness';
import { freshFake, json, PAT, SAM, serveRoutes, type RoutesFake } from './support/routesFakeApi';

type PractitionerSettings = components['schemas']['PractitionerSettings'];
type Insertion = components['schemas']['Insertion'];

useFakeApi();

const WEEKDAYS = [...Array(5).fill({ start: '07:00', end: '17:30' }), null, null] as PractitionerSettings['working_hours'];
const OFF_WEDNESDAYS = WEEKDAYS.map((day, index) => (index === 2 ? null : day)) as PractitionerSettings['working_hours'];

function settingsOf(
  { id, full_name, active = true }: { id: number; full_name: string; active?: boolean },
  extra: Partial<PractitionerSettings> = {},
): PractitionerSettings {
  const [first_name, last_name] = full_name.split(' ');
  return {
    id, full_name, first_name, last_name, active, profession: 'Registered Nurse', time_zone: 'Australia/Brisbane', color: '#c13b3b', color_chosen: false,
    start_place: { kind: 'home', id: null, name: 'Home', address: '1 Home St', lat: -27.49, lng: 153.03, geo_precision: 'address' }, end_place: null, home: null,
    working_hours: WEEKDAYS, break: null, skill_appointment_type_ids: null, pms_appointment_type_ids: [3, 4], max_visits: null, max_travel_minutes: null, routable: true, warnings: [],
    ...extra,
    // Cliniko lists types 3 and 4 for each; narrowed in Rounds when skill_appointment_type_ids is given.
    qualified_appointment_type_ids: extra.qualified_appointment_type_ids !== undefined ? extra.qualified_appointment_type_ids : extra.skill_appointment_type_ids ?? [3, 4],
  };
}

// Home visit is type 3: Pat delivers every type Cliniko lists for him (3 and 4), Sam delivers it, Kim delivers it but is off on Wednesdays (the day),
// Jo delivers only type 4, Old Staff is inactive.
const SETTINGS: PractitionerSettings[] = [
  settingsOf({ id: 9, full_name: 'Jo Park' }, { skill_appointment_type_ids: [4] }),
  settingsOf({ id: 10, full_name: 'Kim Chan' }, { skill_appointment_type_ids: [3, 4], working_hours: OFF_WEDNESDAYS }),
  settingsOf({ id: 11, full_name: 'Old Staff', active: false }),
  settingsOf(PAT),
  settingsOf(SAM, { skill_appointment_type_ids: [3] }),
];

const INSERTION: Insertion = {
  appointment_id: 1, practitioner_id: 8, practitioner_name: 'Sam Lee', arrive_at: at('10:30'), reach_at: at('10:20'),
  after_appointment_id: null, before_appointment_id: 3, added_travel_seconds: 720, added_travel_metres: 5_300, lateness_seconds: 0,
  current_arrive_at: at('09:00'), current_practitioner_id: 7,
};

let fake: RoutesFake;
let moveAnswer: ((body: Record<string, unknown>) => Response | undefined) | undefined;
let moveWarnings: { rule: string; message: string }[];
let insertionAnswer: () => Response;

// The visits may be moved: it is the evening before their day (only the future moves).
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-24T08:00:00Z'), shouldAdvanceTime: true });
});
afterEach(() => {
  vi.useRealTimers();
});
beforeEach(() => {
  fake = freshFake();
  fake.visits.find((visit) => visit.id === 2)!.route_id = 61;
  moveAnswer = undefined;
  moveWarnings = [];
  insertionAnswer = () => json({ insertion: INSERTION, message: null });
  serveRoutes(server, fake);
  server.use(
    http.get(api('/practitioners'), () => json({ practitioners: SETTINGS })),
    http.post(api('/appointments/:id/insertion'), () => insertionAnswer()),
    http.patch(api('/appointments/:id/move'), async ({ params, request }) => {
      const body = (await request.json()) as { practitioner_id?: number; starts_at?: string };
      const refused = moveAnswer?.(body);
      if (refused) return refused;
      const visit = fake.visits.find((item) => String(item.id) === params.id)!;
      const practitioner = body.practitioner_id ? [PAT, SAM].find((item) => item.id === body.practitioner_id)! : visit.practitioner;
      const startsAt = body.starts_at ? new Date(body.starts_at).toISOString() : visit.starts_at;
      const length = Date.parse(visit.ends_at) - Date.parse(visit.starts_at);
      Object.assign(visit, { practitioner, starts_at: startsAt, arrive_at: startsAt, ends_at: new Date(Date.parse(startsAt) + length).toISOString(), route_id: null });
      fake.versions[visit.id] = [{ created_at: at('06:50'), event: 'update', whodunnit: 'Alex Taylor', object_changes: {}, changes: [] }];
      return HttpResponse.json({ appointment: visit, warnings: moveWarnings });
    }),
  );
});

const requests = (method: string, path: string) => sent.filter((request) => request.method === method && request.path === `/api${path}`);
const openModal = (id: number, role: Role = 'ADMIN') => renderWithServices(<AppointmentDetailsModal appointmentId={id} onClose={() => {}} />, { role });
const field = (modal: HTMLElement, label: string) => within(modal).getByText(label, { selector: 'dt' }).nextElementSibling as HTMLElement;

async function openMoveForm(id: number, role: Role = 'ADMIN') {
  const user = userEvent.setup();
  const view = openModal(id, role);
  const modal = await screen.findByTestId('appointment-details-modal');
  await user.click(await within(modal).findByRole('button', { name: 'Move by hand' }));
  const form = within(modal).getByRole('form', { name: 'Move this visit' });
  const select = within(form).getByRole('combobox', { name: 'Practitioner' });
  await waitFor(() => expect(within(select).getAllByRole('option').length).toBeGreaterThan(1));
  return { user, view, modal, form, select };
}

describe('a visit that has started', () => {
  it('offers no Move by hand or Insert into a route, and says why', async () => {
    vi.setSystemTime(new Date('2026-11-24T23:10:00Z')); // 09:10 in Brisbane: visit 1 (09:00) has started.
    const view = openModal(1);
    const modal = await screen.findByTestId('appointment-details-modal');
    await waitFor(() => expect(within(modal).getByRole('button', { name: 'Move by hand' })).toBeDisabled());
    expect(within(modal).getByRole('button', { name: 'Insert into a route' })).toBeDisabled();
    expect(within(modal).getByTestId('move-fixed')).toHaveTextContent('This visit has started (or starts within 30 minutes): its time and practitioner stay as they are.');
    // Its arrival time is shown, not offered for editing, with the same reason.
    const arrival = within(modal).getByTestId('arrival-time');
    expect(arrival).toHaveAttribute('data-state', 'fixed');
    expect(arrival).toHaveTextContent('09:00This visit has started (or starts within 30 minutes)');
    expect(within(field(modal, 'Arrive')).queryByRole('button')).toBeNull();
    view.unmount();
  });
});

describe('moving a visit by hand', () => {
  it('offers only the active practitioners who deliver the visit’s type, the current one first', async () => {
    const { view, select } = await openMoveForm(1);
    expect(within(select).getAllByRole('option').map((option) => option.textContent)).toEqual(['Kim Chan', 'Pat Nguyen (now)', 'Sam Lee']);
    expect(select).toHaveValue('7');
    view.unmount();
  });

  it('sends the new practitioner and start only, says what changed and shows the moved visit', async () => {
    const { user, view, modal, form, select } = await openMoveForm(1);
    expect(within(form).queryByTestId('move-leaves-route')).toBeNull();
    await user.selectOptions(select, 'Sam Lee');
    const time = within(form).getByRole('textbox', { name: 'Start time' });
    expect(time).toHaveValue('09:00');
    await user.clear(time);
    await user.type(time, '1015');
    await user.click(within(form).getByRole('button', { name: 'Move' }));

    expect(await screen.findByText('Visit with Margaret Jones moved: Pat Nguyen → Sam Lee; 25 Nov 2026 09:00 → 10:15.')).toBeInTheDocument();
    expect(requests('PATCH', '/appointments/1/move').map((request) => request.body)).toEqual([{ practitioner_id: 8, starts_at: '2026-11-25T10:15:00+10:00' }]);
    await waitFor(() => expect(field(modal, 'Practitioner')).toHaveTextContent('Sam Lee'));
    expect(field(modal, 'Starts')).toHaveTextContent('25 Nov 2026 10:15');
    expect(field(modal, 'Arrive')).toHaveTextContent('25 Nov 2026 10:15');
    expect(field(modal, 'Ends')).toHaveTextContent('25 Nov 2026 11:15');
    expect(within(modal).queryByRole('form', { name: 'Move this visit' })).toBeNull();
    view.unmount();
  });

  it('says a routed visit leaves its route, and the toast says it left', async () => {
    const { user, view, form } = await openMoveForm(2);
    expect(within(form).getByTestId('move-leaves-route')).toHaveTextContent('moving it takes it off the route');
    const time = within(form).getByRole('textbox', { name: 'Start time' });
    await user.clear(time);
    await user.type(time, '10:45');
    await user.click(within(form).getByRole('button', { name: 'Move' }));
    expect(await screen.findByText('Visit with Bert Smith moved: 25 Nov 2026 10:30 → 10:45. It is no longer on its route.')).toBeInTheDocument();
    expect(requests('PATCH', '/appointments/2/move').map((request) => request.body)).toEqual([{ starts_at: '2026-11-25T10:45:00+10:00' }]);
    view.unmount();
  });

  it('shows the soft problems the move added as a warning after it, in words', async () => {
    moveWarnings = [{ rule: 'travel-time', message: 'Sam Lee has 5 min to get from Bert Smith (ends 10:00) to Margaret Jones (10:05); the journey takes about 33 min.' }];
    const { user, view, form, select } = await openMoveForm(1);
    await user.selectOptions(select, 'Sam Lee');
    await user.click(within(form).getByRole('button', { name: 'Move' }));
    expect(await screen.findByText('Visit with Margaret Jones moved: Pat Nguyen → Sam Lee.')).toBeInTheDocument();
    expect(screen.getByText('Saved, but please check: Sam Lee has 5 min to get from Bert Smith (ends 10:00) to Margaret Jones (10:05); the journey takes about 33 min.'))
      .toBeInTheDocument();
    view.unmount();
  });

  it('shows the server’s refusal next to the form and keeps the visit as it was', async () => {
    moveAnswer = () => json({ message: 'practitioner_id: Sam Lee does not deliver Home visit.', errors: ['practitioner_id: Sam Lee does not deliver Home visit.'] }, 422);
    const { user, view, modal, form, select } = await openMoveForm(1);
    await user.selectOptions(select, 'Sam Lee');
    await user.click(within(form).getByRole('button', { name: 'Move' }));
    await waitFor(() => expect(within(form).getByRole('alert')).toHaveTextContent('Sam Lee does not deliver Home visit.'));
    expect(field(modal, 'Practitioner')).toHaveTextContent('Pat Nguyen');
    expect(within(form).getByRole('combobox', { name: 'Practitioner' })).toHaveValue('8');
    view.unmount();
  });

  it('checks the typed time and that something changed before asking the server', async () => {
    const { user, view, form } = await openMoveForm(1);
    await user.click(within(form).getByRole('button', { name: 'Move' }));
    expect(within(form).getByRole('alert')).toHaveTextContent(MOVE_NOTHING_CHANGED_MESSAGE);
    const time = within(form).getByRole('textbox', { name: 'Start time' });
    await user.clear(time);
    await user.type(time, '25:00');
    await user.click(within(form).getByRole('button', { name: 'Move' }));
    expect(within(form).getByRole('alert')).toHaveTextContent(MOVE_TIME_FORMAT_MESSAGE);
    expect(requests('PATCH', '/appointments/1/move')).toHaveLength(0);
    view.unmount();
  });
});

describe('insert into a route', () => {
  async function openInsertion(id = 1) {
    const user = userEvent.setup();
    const view = openModal(id);
    const modal = await screen.findByTestId('appointment-details-modal');
    await user.click(await within(modal).findByRole('button', { name: 'Insert into a route' }));
    const panel = within(modal).getByTestId('insert-into-route');
    await waitFor(() => expect(within(panel).getByTestId('multiselect-Among these practitioners')).toHaveTextContent('Pat Nguyen'));
    return { user, view, modal, panel };
  }

  it('shows the best place before changing anything, and Apply moves the visit there', async () => {
    const { user, view, modal, panel } = await openInsertion();
    await user.click(within(panel).getByRole('button', { name: 'Find the best place' }));
    // Who delivers Home visit and works on Wednesday: Pat and Sam (Kim is off, Jo does not deliver it).
    expect(requests('POST', '/appointments/1/insertion').map((request) => request.body)).toEqual([{ practitioner_ids: [7, 8] }]);

    const proposal = await within(panel).findByTestId('insertion-proposal');
    expect(within(proposal).getByTestId('insertion-where')).toHaveTextContent('Sam Lee, arriving 25 Nov 2026 10:30');
    await waitFor(() => expect(within(proposal).getByTestId('insertion-between')).toHaveTextContent('Before Cora Diaz (12:00–13:00), the first visit of the day.'));
    expect(within(proposal).getByTestId('insertion-travel')).toHaveTextContent('Adds 12 min and 5.3 km of travel to Sam Lee’s day.');
    expect(proposal).toHaveTextContent('Gets there at 10:20 and waits.');
    expect(within(proposal).queryByTestId('insertion-lateness')).toBeNull();
    expect(within(proposal).getByTestId('insertion-compared')).toHaveTextContent('Compared with now: Pat Nguyen → Sam Lee; arriving 25 Nov 2026 09:00 → 10:30.');
    expect(requests('PATCH', '/appointments/1/move')).toHaveLength(0);
    expect(field(modal, 'Practitioner')).toHaveTextContent('Pat Nguyen');

    await user.click(within(panel).getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText('Visit with Margaret Jones moved: Pat Nguyen → Sam Lee; 25 Nov 2026 09:00 → 10:30.')).toBeInTheDocument();
    expect(requests('PATCH', '/appointments/1/move').map((request) => request.body)).toEqual([{ practitioner_id: 8, starts_at: at('10:30'), into_route: true }]);
    await waitFor(() => expect(field(modal, 'Practitioner')).toHaveTextContent('Sam Lee'));
    expect(field(modal, 'Starts')).toHaveTextContent('25 Nov 2026 10:30');
    expect(field(modal, 'Arrive')).toHaveTextContent('25 Nov 2026 10:30');
    await waitFor(() => expect(within(modal).getByTestId('change-log-entry')).toHaveTextContent('by Alex Taylor'));
    view.unmount();
  });

  it('names a neighbour whose arrival was moved later by its route with its arrival and end, in that order', async () => {
    // Booked 12:00–13:00, arriving 14:15 on its route: it ends at 15:15.
    fake.visits.find((visit) => visit.id === 3)!.arrive_at = at('14:15');
    const { user, panel } = await openInsertion();
    await user.click(within(panel).getByRole('button', { name: 'Find the best place' }));
    const proposal = await within(panel).findByTestId('insertion-proposal');
    await waitFor(() => expect(within(proposal).getByTestId('insertion-between')).toHaveTextContent('Before Cora Diaz (14:15–15:15), the first visit of the day.'));
  });

  it('Cancel drops the proposal without moving; a lateness is said', async () => {
    insertionAnswer = () => json({ insertion: { ...INSERTION, lateness_seconds: 600, after_appointment_id: 3, before_appointment_id: null }, message: null });
    const { user, view, panel } = await openInsertion();
    await user.click(within(panel).getByRole('button', { name: 'Find the best place' }));
    const proposal = await within(panel).findByTestId('insertion-proposal');
    expect(within(proposal).getByTestId('insertion-lateness')).toHaveTextContent('10 min after the client’s availability.');
    await waitFor(() => expect(within(proposal).getByTestId('insertion-between')).toHaveTextContent('After Cora Diaz (12:00–13:00), the last visit of the day.'));
    await user.click(within(panel).getByRole('button', { name: 'Cancel' }));
    expect(within(panel).queryByTestId('insertion-proposal')).toBeNull();
    expect(within(panel).getByRole('button', { name: 'Find the best place' })).toBeInTheDocument();
    expect(requests('PATCH', '/appointments/1/move')).toHaveLength(0);
    view.unmount();
  });

  it('says why the visit fits nowhere, and offers no Apply', async () => {
    insertionAnswer = () => json({ insertion: null, message: 'None of these practitioners has room for this visit within the client’s availability.' });
    const { user, view, panel } = await openInsertion();
    await user.click(within(panel).getByRole('button', { name: 'Find the best place' }));
    expect(await within(panel).findByTestId('insertion-nowhere')).toHaveTextContent('None of these practitioners has room for this visit within the client’s availability.');
    expect(within(panel).queryByRole('button', { name: 'Apply' })).toBeNull();
    view.unmount();
  });

  it('shows the server’s refusal of a practitioner without hours that day', async () => {
    insertionAnswer = () => json({ message: 'practitioner_ids: Kim Chan has no working hours on 25 Nov 2026.' }, 422);
    const { user, view, panel } = await openInsertion();
    await user.click(within(panel).getByRole('button', { name: 'Find the best place' }));
    expect(await within(panel).findByRole('alert')).toHaveTextContent('Kim Chan has no working hours on 25 Nov 2026.');
    view.unmount();
  });
});

describe('who can move visits', () => {
  it('a coordinator can; a practitioner sees none of it and reads no practitioners’ working data', async () => {
    const staff = openModal(1, 'REGULAR_USER');
    expect(await within(await screen.findByTestId('appointment-details-modal')).findByRole('button', { name: 'Move by hand' })).toBeInTheDocument();
    staff.unmount();

    const practitioner = openModal(1, 'PRACTITIONER');
    const modal = await screen.findByTestId('appointment-details-modal');
    await within(modal).findByTestId('route-controls');
    expect(within(modal).queryByRole('button', { name: 'Move by hand' })).toBeNull();
    expect(within(modal).queryByRole('button', { name: 'Insert into a route' })).toBeNull();
    expect(within(modal).queryByRole('region', { name: 'Move' })).toBeNull();
    practitioner.unmount();
    expect(requests('GET', '/practitioners')).toHaveLength(0);
  });

  it('a cancelled visit cannot be moved', async () => {
    const view = openModal(6);
    const modal = await screen.findByTestId('appointment-details-modal');
    await within(modal).findByTestId('route-controls');
    expect(within(modal).queryByRole('button', { name: 'Move by hand' })).toBeNull();
    view.unmount();
  });
});
