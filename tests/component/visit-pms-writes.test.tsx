// A visit's write to the PMS as a coordinator sees it, and rescheduling and cancelling it from its details: the marks on
// the lane and the list row while it is not saved (in the block's accessible name too), the details' words and actions
// (failed: Try again / Discard; changed in Cliniko: the differences, Overwrite / Keep Cliniko's version; saving: read
// again until saved), Reschedule (day, time, practitioner or best fit, why) and Cancel visit (the PMS's reasons, a note,
// tell the client, then Re-optimise the day), and Needs another practitioner (why, then a link to the open visits). A
// practitioner gets no actions. The day is Wed 25 Nov 2026 in Brisbane.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { AppointmentDetailsModal } from '../../src/features/schedule/AppointmentDetailsModal';
import AppointmentsPage from '../../src/features/schedule/AppointmentsPage';
import { findRoute } from '../../src/router/routeTable';
import { CHOOSE_REASON } from '../../src/features/schedule/RescheduleOrCancel';
import { at, RUN_DAY } from '../../src/testing/optimizations';
import type { components } from '../../src/api/schema';
import type { Role } from '../../src/api/types';
import { api, received as sent, server } from './support/fakeApi';
import { renderWithServices, useFakeApi } from './support/harness';
import { freshFake, json, PAT, renderDaySchedule, SAM, serveRoutes, type RoutesFake } from './support/routesFakeApi';

type PmsWrite = components['schemas']['PmsWrite'];
type PractitionerSettings = components['schemas']['PractitionerSettings'];

useFakeApi();

const write = (overrides: Partial<PmsWrite>): PmsWrite => ({
  id: 300, appointment_id: 1, kind: 'create', state: 'saving', message: null, differences: [], attempts: 1, created_by: 'Alex Taylor', created_at: at('06:00'), updated_at: at('06:00'), ...overrides,
});

const WEEKDAYS = [...Array(5).fill({ start: '07:00', end: '17:30' }), null, null] as PractitionerSettings['working_hours'];
const settingsOf = ({ id, full_name }: { id: number; full_name: string }): PractitionerSettings => ({
  id, full_name, first_name: full_name.split(' ')[0], last_name: full_name.split(' ')[1], active: true, profession: 'Registered Nurse', time_zone: 'Australia/Brisbane', color: '#c13b3b', color_chosen: false,
  start_place: { kind: 'home', id: null, name: 'Home', address: '1 Home St', lat: -27.49, lng: 153.03, geo_precision: 'address' }, end_place: null, home: null,
  working_hours: WEEKDAYS, break: null, skill_appointment_type_ids: null, pms_appointment_type_ids: [3], max_visits: null, max_travel_minutes: null, routable: true, warnings: [],
  qualified_appointment_type_ids: [3],
});

const REASONS = [{ code: 10, label: 'Feeling better' }, { code: 30, label: 'Sick' }, { code: 50, label: 'Other' }];

let fake: RoutesFake;
const visit = (id: number) => fake.visits.find((item) => item.id === id)!;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-24T08:00:00Z'), shouldAdvanceTime: true });
  fake = freshFake();
  serveRoutes(server, fake);
  server.use(
    http.get(api('/practitioners'), () => json({ practitioners: [settingsOf(PAT), settingsOf(SAM)] })),
    http.get(api('/visits/cancellation_reasons'), () => json({ reasons: REASONS })),
    http.post(api('/pms_writes/:id/retry'), ({ params }) => {
      const found = fake.visits.find((item) => item.pms_write?.id === Number(params.id))!;
      found.pms_write = { ...found.pms_write!, state: 'saving', attempts: found.pms_write!.attempts + 1 };
      return json({ pms_write: found.pms_write });
    }),
    http.post(api('/pms_writes/:id/discard'), ({ params }) => {
      const found = fake.visits.find((item) => item.pms_write?.id === Number(params.id))!;
      found.pms_write = { ...found.pms_write!, state: 'discarded' };
      return json({ pms_write: found.pms_write, appointment: found });
    }),
    http.patch(api('/visits/:id/reschedule'), async ({ params, request }) => {
      const body = (await request.json()) as { starts_at: string; practitioner_id?: number };
      const found = visit(Number(params.id));
      const length = Date.parse(found.ends_at) - Date.parse(found.starts_at);
      const startsAt = new Date(body.starts_at).toISOString();
      Object.assign(found, {
        starts_at: startsAt, arrive_at: startsAt, agreed_starts_at: startsAt, ends_at: new Date(Date.parse(startsAt) + length).toISOString(), route_id: null,
        practitioner: body.practitioner_id ? [PAT, SAM].find((item) => item.id === body.practitioner_id)! : found.practitioner,
        pms_write: write({ id: 301, appointment_id: found.id, kind: 'update', state: 'saving' }),
      });
      return json({ appointment: found, warnings: [] });
    }),
    http.post(api('/visits/:id/cancel'), ({ params }) => {
      const found = visit(Number(params.id));
      Object.assign(found, { status: 'CANCELLED', cancelled_at: at('06:10'), route_id: null, pms_write: write({ id: 302, appointment_id: found.id, kind: 'cancel', state: 'saving' }) });
      return json({ appointment: found, reoptimise: { date: RUN_DAY, practitioner_id: found.practitioner.id }, told_client: true });
    }),
  );
});
afterEach(() => {
  vi.useRealTimers();
});

const requests = (method: string, path: string) => sent.filter((request) => request.method === method && request.path === `/api${path}`);
const openModal = (id: number, role: Role = 'ADMIN') => renderWithServices(<AppointmentDetailsModal appointmentId={id} onClose={() => {}} />, { role });

describe('the marks of a write not saved', () => {
  it('marks the lane block and says it in the block’s name: saving, not saved, changed in Cliniko', async () => {
    visit(1).pms_write = write({ appointment_id: 1, state: 'saving' });
    visit(2).pms_write = write({ id: 310, appointment_id: 2, state: 'failed', message: 'Cliniko refused it.' });
    visit(3).pms_write = write({ id: 311, appointment_id: 3, kind: 'update', state: 'conflict' });
    visit(4).pms_write = write({ id: 312, appointment_id: 4, state: 'saved' });
    const view = renderDaySchedule();
    expect(await screen.findByRole('button', { name: /^09:00 Margaret Jones Saving to Cliniko…/ })).toHaveAttribute('data-pms-write', 'saving');
    expect(screen.getByRole('button', { name: /^10:30 Bert Smith Not saved/ })).toHaveAttribute('data-pms-write', 'failed');
    expect(screen.getByRole('button', { name: /^12:00 Cora Diaz Changed in Cliniko/ })).toHaveAttribute('data-pms-write', 'conflict');
    // Saved says nothing.
    const saved = screen.getByRole('button', { name: /^14:00 Dora Ellis/ });
    expect(saved).not.toHaveAttribute('data-pms-write');
    expect(within(saved).queryByTestId('block-pms-write')).toBeNull();
    view.unmount();
  });

  it('marks the list row', async () => {
    visit(2).pms_write = write({ id: 310, appointment_id: 2, state: 'failed' });
    window.history.replaceState(null, '', `/appointments?start=${RUN_DAY}&end=${RUN_DAY}`);
    const view = renderWithServices(<AppointmentsPage route={findRoute('/appointments')!} />);
    const row = await screen.findByRole('row', { name: /Bert Smith 10:30, Not saved/ });
    expect(within(row).getByTestId('pms-write-mark')).toHaveTextContent('Not saved');
    expect(screen.getAllByTestId('pms-write-mark')).toHaveLength(1);
    view.unmount();
  });
});

describe('the write in the visit’s details', () => {
  it('a failed write: the reason, Try again sends it again, and the details say it is saving', async () => {
    visit(1).pms_write = write({ state: 'failed', message: 'Cliniko is not answering; Rounds tried 5 times. Try again.' });
    const user = userEvent.setup();
    const view = openModal(1);
    const panel = await screen.findByTestId('pms-write');
    expect(panel).toHaveTextContent('Not saved in ClinikoCliniko is not answering; Rounds tried 5 times. Try again.');
    await user.click(within(panel).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(screen.getByTestId('pms-write')).toHaveTextContent('Saving to Cliniko… (try 2)'));
    expect(requests('POST', '/pms_writes/300/retry').map((request) => request.body)).toEqual([{ overwrite: false }]);
    view.unmount();
  });

  it('a failed booking: Discard asks first, then takes it back', async () => {
    visit(1).pms_write = write({ state: 'failed', message: 'Cliniko refused it: the practitioner is not available.' });
    const user = userEvent.setup();
    const view = openModal(1);
    await user.click(within(await screen.findByTestId('pms-write')).getByRole('button', { name: 'Discard' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Discard the booking?' });
    expect(confirm).toHaveTextContent('The booking never reached Cliniko: discarding it takes the visit out of Rounds.');
    await user.click(within(confirm).getByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(requests('POST', '/pms_writes/300/discard')).toHaveLength(1));
    view.unmount();
  });

  it('a visit changed in Cliniko: the differences as a table, Overwrite Cliniko or Keep Cliniko’s version', async () => {
    visit(1).pms_write = write({
      kind: 'update', state: 'conflict',
      differences: [
        { field: 'starts_at', label: 'Start', rounds: 'Wed 25 Nov 09:00', pms: 'Wed 25 Nov 11:00' },
        { field: 'practitioner_id', label: 'Practitioner', rounds: 'Pat Nguyen', pms: 'Sam Lee' },
      ],
    });
    const user = userEvent.setup();
    const view = openModal(1);
    const table = await screen.findByRole('table', { name: 'What differs between Rounds and Cliniko' });
    expect(within(table).getAllByRole('row').map((row) => row.textContent)).toEqual([
      'FieldRoundsCliniko', 'StartWed 25 Nov 09:00Wed 25 Nov 11:00', 'PractitionerPat NguyenSam Lee',
    ]);
    const panel = screen.getByTestId('pms-write');
    expect(within(panel).getByRole('button', { name: 'Keep Cliniko\'s version' })).toBeEnabled();
    await user.click(within(panel).getByRole('button', { name: 'Overwrite Cliniko' }));
    await waitFor(() => expect(requests('POST', '/pms_writes/300/retry').map((request) => request.body)).toEqual([{ overwrite: true }]));
    view.unmount();
  });

  it('while saving, the details are read again until the write is saved', async () => {
    visit(1).pms_write = write({ state: 'saving' });
    const view = openModal(1);
    expect(await screen.findByTestId('pms-write')).toHaveTextContent('Saving to Cliniko…');
    visit(1).pms_write = write({ state: 'saved' });
    await waitFor(() => expect(screen.getByTestId('pms-write')).toHaveTextContent('Saved in Cliniko: the booking made in Rounds by Alex Taylor.'), { timeout: 5_000 });
    view.unmount();
  });

  it('a practitioner reads the state but gets no actions, and no Reschedule or Cancel', async () => {
    visit(1).pms_write = write({ state: 'failed', message: 'Cliniko refused it.' });
    const view = openModal(1, 'PRACTITIONER');
    const panel = await screen.findByTestId('pms-write');
    expect(panel).toHaveTextContent('Not saved in Cliniko');
    expect(within(panel).queryByRole('button')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Reschedule' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Cancel visit' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Needs another practitioner' })).toBeNull();
    view.unmount();
  });
});

describe('Reschedule', () => {
  it('moves the visit to another day, time and practitioner with the reason, and says it is saving to Cliniko', async () => {
    const user = userEvent.setup();
    const view = openModal(1);
    await user.click(await screen.findByRole('button', { name: 'Reschedule' }));
    const form = screen.getByRole('form', { name: 'Reschedule this visit' });
    await user.click(within(form).getByRole('button', { name: 'Tomorrow' })); // Wed 25 Nov: the business's tomorrow
    const time = within(form).getByRole('textbox', { name: 'Start time' });
    await user.clear(time);
    await user.type(time, '13:15');
    const practitioner = within(form).getByRole('combobox', { name: 'Practitioner' });
    await waitFor(() => expect(within(practitioner).getAllByRole('option')).toHaveLength(2));
    await user.selectOptions(practitioner, 'Sam Lee');
    await user.type(within(form).getByRole('textbox', { name: 'Why (for the change log)' }), 'The client asked for the afternoon');
    await user.click(within(form).getByRole('button', { name: 'Reschedule' }));
    expect(await screen.findByText('Rescheduled to Sam Lee, 25 Nov 2026 13:15 — saving to Cliniko.')).toBeInTheDocument();
    expect(requests('PATCH', '/visits/1/reschedule').map((request) => request.body)).toEqual([
      { starts_at: '2026-11-25T13:15:00+10:00', practitioner_id: 8, reason: 'The client asked for the afternoon' },
    ]);
    await waitFor(() => expect(screen.getByTestId('pms-write')).toHaveTextContent('Saving to Cliniko…'));
    view.unmount();
  });

  it('is not offered for a visit about to start (it keeps its time), which can still be cancelled', async () => {
    // The fake clock is 08:00Z: this visit starts in 15 minutes, within the 30-minute fixed-visit margin.
    Object.assign(visit(1), { starts_at: '2026-11-24T08:15:00Z', ends_at: '2026-11-24T09:15:00Z', arrive_at: '2026-11-24T08:15:00Z' });
    const view = openModal(1);
    const section = await screen.findByTestId('reschedule-or-cancel');
    expect(within(section).getByRole('button', { name: 'Reschedule' })).toBeDisabled();
    expect(within(section).getByTestId('reschedule-fixed')).toHaveTextContent(/30 minutes/);
    expect(within(section).getByRole('button', { name: 'Cancel visit' })).toBeEnabled();
    view.unmount();
  });

  it('offers the best fits of the day, the visit’s own day priced without it, and takes the one chosen', async () => {
    server.use(http.post(api('/visits/best_fit'), () => json({
      date: RUN_DAY, duration_minutes: 60, window_start: null, window_end: null, others: [], message: null,
      fits: [{ practitioner_id: 8, name: 'Sam Lee', color: null, arrive_at: at('15:40'), leave_at: at('16:40'), added_travel_seconds: 300, added_travel_metres: 2_000, visits: 2, continuity: false, preferred: false, warnings: [] }],
    })));
    const user = userEvent.setup();
    const view = openModal(1);
    await user.click(await screen.findByRole('button', { name: 'Reschedule' }));
    const form = screen.getByRole('form', { name: 'Reschedule this visit' });
    await user.click(within(form).getByRole('button', { name: 'Best fit that day' }));
    expect(await within(form).findByTestId('best-fit')).toHaveTextContent('Sam LeeArrives 15:40, +5 min travel · 2 visits that day');
    expect(requests('POST', '/visits/best_fit').map((request) => request.body)).toEqual([{ client_id: 11, appointment_type_id: 3, date: RUN_DAY, appointment_id: 1, limit: 5 }]);
    await user.click(within(within(form).getByTestId('best-fit')).getByRole('radio'));
    expect(within(form).getByRole('textbox', { name: 'Start time' })).toHaveValue('15:40');
    expect(within(form).getByRole('combobox', { name: 'Practitioner' })).toHaveValue('8');
    await user.click(within(form).getByRole('button', { name: 'Reschedule' }));
    await waitFor(() => expect(requests('PATCH', '/visits/1/reschedule').map((request) => request.body)).toEqual([{ starts_at: '2026-11-25T15:40:00+10:00', practitioner_id: 8 }]));
    view.unmount();
  });

  it('shows the refusal in words and keeps the form', async () => {
    server.use(http.patch(api('/visits/:id/reschedule'), () => json({ message: 'This change would break the rules of home care: Sam Lee is on leave.', code: 'RULES_BROKEN' }, 409)));
    const user = userEvent.setup();
    const view = openModal(1);
    await user.click(await screen.findByRole('button', { name: 'Reschedule' }));
    const form = screen.getByRole('form', { name: 'Reschedule this visit' });
    const time = within(form).getByRole('textbox', { name: 'Start time' });
    await user.clear(time);
    await user.type(time, '11:00');
    await user.click(within(form).getByRole('button', { name: 'Reschedule' }));
    expect(await within(form).findByText('This change would break the rules of home care: Sam Lee is on leave.')).toBeInTheDocument();
    expect(time).toHaveValue('11:00');
    view.unmount();
  });
});

describe('Cancel visit', () => {
  it('asks for the reason, sends it with the note and Tell the client, then offers to re-optimise the practitioner’s day', async () => {
    const user = userEvent.setup();
    const view = openModal(2);
    await user.click(await screen.findByRole('button', { name: 'Cancel visit' }));
    const form = screen.getByRole('form', { name: 'Cancel this visit' });
    await user.click(within(form).getByRole('button', { name: 'Cancel visit' }));
    expect(within(form).getByRole('alert')).toHaveTextContent(CHOOSE_REASON);
    expect(requests('POST', '/visits/2/cancel')).toHaveLength(0);

    expect(within(form).getAllByRole('radio').map((radio) => radio.parentElement?.textContent)).toEqual(['Feeling better', 'Sick', 'Other']);
    await user.click(within(form).getByRole('radio', { name: 'Sick' }));
    await user.type(within(form).getByRole('textbox', { name: 'Note' }), 'In hospital');
    await user.click(within(form).getByRole('checkbox', { name: 'Tell the client' }));
    await user.click(within(form).getByRole('button', { name: 'Cancel visit' }));

    expect(await screen.findByText('Visit with Bert Smith cancelled — saving to Cliniko. The client is being told.')).toBeInTheDocument();
    expect(requests('POST', '/visits/2/cancel').map((request) => request.body)).toEqual([{ reason: 30, note: 'In hospital', tell_client: true }]);
    const offer = await screen.findByTestId('reoptimise-offer');
    expect(within(offer).getByRole('link', { name: 'Re-optimise Pat Nguyen\'s day' })).toHaveAttribute('href', `/appointments?view=schedule&start=${RUN_DAY}&end=${RUN_DAY}&optimise=7`);
    view.unmount();
  });
});

describe('Needs another practitioner', () => {
  const openedFrom = (id: number) => {
    const found = visit(id);
    Object.assign(found, { status: 'CANCELLED', cancelled_at: at('06:10'), route_id: null, pms_write: write({ id: 303, appointment_id: id, kind: 'cancel', state: 'saving' }) });
    return {
      appointment: found,
      open_visit: {
        id: 900, client: { id: found.client!.id, name: found.client!.full_name }, appointment_type: found.appointment_type!, date: RUN_DAY, window_start: '10:00',
        window_end: '12:00', duration_minutes: 60, reason: 'Pat Nguyen cannot do it: Off sick', care_plan_id: null, notes: null, created_at: at('06:10'),
      },
    };
  };

  it('sends why, says the visit is now an open visit and links to the open visits', async () => {
    server.use(http.post(api('/visits/:id/open'), ({ params }) => json(openedFrom(Number(params.id)), 201)));
    const user = userEvent.setup();
    const view = openModal(2);
    await user.click(await screen.findByRole('button', { name: 'Needs another practitioner' }));
    const form = screen.getByRole('form', { name: 'Needs another practitioner' });
    await user.type(within(form).getByRole('textbox', { name: 'Why Pat Nguyen cannot do it' }), ' Off sick ');
    await user.click(within(form).getByRole('button', { name: 'Make it an open visit' }));

    expect(await screen.findByText('The visit with Bert Smith is now an open visit — its cancellation is saving to Cliniko.')).toBeInTheDocument();
    expect(requests('POST', '/visits/2/open').map((request) => request.body)).toEqual([{ reason: 'Off sick' }]);
    expect(requests('POST', '/visits/2/cancel')).toHaveLength(0);
    const done = await screen.findByTestId('opened-visit');
    expect(done).toHaveTextContent('The visit with Bert Smith is now an open visit: fill it with another practitioner from the open visits.');
    expect(within(done).getByRole('link', { name: 'Open visits' })).toHaveAttribute('href', '/open-visits');
    expect(screen.queryByRole('button', { name: 'Needs another practitioner' })).toBeNull();
    view.unmount();
  });

  it('shows a refusal in words and keeps the form', async () => {
    server.use(http.post(api('/visits/:id/open'), () => json({ message: 'This visit has started; it cannot be cancelled.', code: 'VISIT_STARTED' }, 409)));
    const user = userEvent.setup();
    const view = openModal(2);
    await user.click(await screen.findByRole('button', { name: 'Needs another practitioner' }));
    const form = screen.getByRole('form', { name: 'Needs another practitioner' });
    await user.click(within(form).getByRole('button', { name: 'Make it an open visit' }));
    expect(await within(form).findByText('This visit has started; it cannot be cancelled.')).toBeInTheDocument();
    expect(requests('POST', '/visits/2/open').map((request) => request.body)).toEqual([{}]);
    view.unmount();
  });
});

describe('Re-optimise after a cancel', () => {
  it('its link opens the Optimise dialog on the day for that practitioner only', async () => {
    window.history.replaceState(null, '', `/appointments?view=schedule&start=${RUN_DAY}&end=${RUN_DAY}&optimise=7`);
    const view = renderWithServices(<AppointmentsPage route={findRoute('/appointments')!} />);
    const dialog = await screen.findByTestId('optimise-dialog');
    expect(within(dialog).getByTestId('date-value')).toHaveTextContent('25 Nov 2026');
    await waitFor(() => expect(within(within(dialog).getByTestId('optimise-practitioners')).getAllByTestId('multiselect-tag').map((tag) => tag.textContent)).toEqual(['Pat Nguyen']));
    view.unmount();
  });
});
