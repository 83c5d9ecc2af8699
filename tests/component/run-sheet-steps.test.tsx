// The run sheet's step buttons (issue 26): a practitioner taps On my way, Arrived and Done (one tap; a note may follow,
// issue 34) or Could not attend (with a reason) on today's visits, and sees each visit's state and actual times; the office sees them in the
// appointment modal and can reopen the visit.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { onlineManager } from '@tanstack/react-query';
import { http, HttpResponse } from 'msw';
import { UnavailableFromNow } from '../../src/features/schedule/UnavailableFromNow';
import AppointmentsPage from '../../src/features/schedule/AppointmentsPage';
import { AppointmentDetailsModal } from '../../src/features/schedule/AppointmentDetailsModal';
import { findRoute } from '../../src/router/routeTable';
import type { Appointment } from '../../src/entities/appointments/api';
import type { VisitState, VisitStepRequest } from '../../src/api/visitSteps';
import { api, PASSWORD, server, tokenFor, usersByRole } from './support/fakeApi';
import { makeAppointment, makeClient } from './support/fixtures';
import { currentPath, renderApp, renderWithServices, useFakeApi } from './support/harness';
import { makeSettings } from './support/routesFakeApi';

useFakeApi();
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  onlineManager.setOnline(true);
});

/** The phone loses its signal: the browser says so, and the network fails. */
function loseSignal(network: { down: boolean }) {
  network.down = true;
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
}

const PAT = { id: 7, full_name: 'Pat Nguyen', active: true, time_zone: 'Australia/Brisbane', color: '#9333ea' };
// Tuesday 24 Nov 2026 in Brisbane; the test's clock is 10:00 there.
const NOW = '2026-11-24T00:00:00.000Z';
const AFTER: Record<VisitStepRequest['step'], VisitState> = {
  on_my_way: 'on_my_way', arrived: 'arrived', done: 'done', could_not_attend: 'could_not_attend', reopened: 'not_started',
};
const TIME_FIELD: Partial<Record<VisitStepRequest['step'], 'on_my_way_at' | 'arrived_at' | 'done_at' | 'could_not_attend_at'>> = {
  on_my_way: 'on_my_way_at', arrived: 'arrived_at', done: 'done_at', could_not_attend: 'could_not_attend_at',
};
const EMPTY_PROGRESS = {
  on_my_way_at: null, arrived_at: null, done_at: null, could_not_attend_at: null, arrived_distance_m: null, arrived_far_from_client: false,
  reason: null, reason_text: null, note: null,
};

/** A fake server that keeps the visit's steps: the list, the details and the step endpoint answer from it. */
function serveDay(initial: Appointment) {
  let visit = initial;
  const sent: VisitStepRequest[] = [];
  const notes: string[] = [];
  /** The phone's network: while down, a step never reaches the server; `refusal`: the server's answer to a step (409). */
  const network = { down: false, refusal: null as string | null };
  server.use(
    http.get(api('/practitioners/all'), () => HttpResponse.json({ practitioners: [PAT] })),
    http.get(api('/appointment_types/all'), () => HttpResponse.json({ appointment_types: [] })),
    http.get(api('/business_locations/all'), () => HttpResponse.json({ business_locations: [] })),
    http.get(api('/appointments'), () => HttpResponse.json({
      appointments: [{
        id: visit.id, starts_at: visit.starts_at, ends_at: visit.ends_at, arrive_at: visit.arrive_at, route_id: null, status: visit.status, suburb: visit.suburb,
        lat: visit.lat, lng: visit.lng, geo_precision: visit.geo_precision, client_id: visit.client!.id, practitioner_id: 7, appointment_type_id: visit.appointment_type!.id,
        business_location_id: null, visit_state: visit.visit_state, visit: visit.visit,
      }],
      clients: [visit.client], practitioners: [{ id: 7, full_name: 'Pat Nguyen', time_zone: 'Australia/Brisbane', color: '#9333ea' }],
      appointment_types: [visit.appointment_type], meta: { page: 1, per_page: 1, total: 1 },
    })),
    http.get(api('/appointments/travel'), () => HttpResponse.json({ date: '2026-11-24', travel: 'haversine', appointments: [], practitioners: [] })),
    http.get(api('/appointments/:id'), () => HttpResponse.json({ appointment: visit })),
    http.put(api('/appointments/:id/visit_note'), async ({ request }) => {
      if (network.down) return HttpResponse.error();
      const { note } = (await request.json()) as { note: string };
      notes.push(note);
      visit = { ...visit, visit: { ...(visit.visit ?? EMPTY_PROGRESS), note: note.trim() || null } };
      return HttpResponse.json({ appointment: visit });
    }),
    http.get(api('/appointments/:id/extra_details'), () => HttpResponse.json({ resource_map: null, versions: [], import_history: [], export_history: [] })),
    http.get(api('/clients/11'), () => HttpResponse.json({ client: makeClient() })),
    http.get(api('/routes'), () => HttpResponse.json({ routes: [] })),
    http.get(api('/optimization_settings'), () => HttpResponse.json({ optimization_settings: makeSettings() })),
    http.post(api('/travel'), () => HttpResponse.json({ legs: [], geometry: null, source: 'estimate' })),
    http.post(api('/appointments/:id/steps'), async ({ request }) => {
      if (network.down) return HttpResponse.error();
      if (network.refusal) return HttpResponse.json({ message: network.refusal }, { status: 409 });
      const body = (await request.json()) as VisitStepRequest;
      sent.push(body);
      const progress = body.step === 'reopened' ? null : {
        ...(visit.visit ?? EMPTY_PROGRESS), [TIME_FIELD[body.step]!]: body.at ?? NOW,
        ...(body.reason ? { reason: body.reason, reason_text: body.reason_text ?? null } : {}), ...(body.note ? { note: body.note } : {}),
      };
      visit = { ...visit, visit_state: AFTER[body.step], visit: progress };
      return HttpResponse.json({ step: { id: sent.length, appointment_id: visit.id, step: body.step, at: body.at ?? NOW }, appointment: visit }, { status: 201 });
    }),
  );
  return { sent, notes, network };
}

function renderRunSheet() {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(NOW));
  window.history.replaceState(null, '', '/appointments');
  return renderWithServices(<AppointmentsPage route={findRoute('/appointments')!} />, { role: 'PRACTITIONER' });
}

const TODAY_VISIT = makeAppointment({ id: 1, practitioner: PAT, starts_at: '2026-11-24T01:00:00Z', ends_at: '2026-11-24T02:00:00Z', arrive_at: '2026-11-24T01:00:00Z' });

describe("the run sheet's step buttons", () => {
  it('take a visit On my way → Arrived → Done in one tap, then a note, showing its state and actual times', async () => {
    const { sent, notes, network } = serveDay(TODAY_VISIT);
    renderRunSheet();
    const stop = await screen.findByTestId('run-sheet-stop');
    const steps = within(stop).getByRole('group', { name: 'Visit steps' });
    expect(within(stop).getByTestId('visit-status')).toHaveTextContent('Not started');
    expect(within(steps).getAllByRole('button').map((button) => button.textContent)).toEqual(['On my way', 'Arrived', 'Could not attend']);

    fireEvent.click(within(steps).getByRole('button', { name: 'On my way' }));
    await waitFor(() => expect(within(stop).getByTestId('visit-times')).toHaveTextContent('On my way 10:00'));
    expect(sent[0]).toEqual({ step: 'on_my_way', at: NOW, idempotency_key: expect.any(String) });

    fireEvent.click(within(stop).getByRole('button', { name: 'Arrived' }));
    await waitFor(() => expect(within(stop).getByTestId('visit-status')).toHaveAttribute('data-state', 'arrived'));
    fireEvent.click(within(stop).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(within(stop).getByTestId('visit-status')).toHaveAttribute('data-state', 'done'));
    expect(sent.map((step) => step.step)).toEqual(['on_my_way', 'arrived', 'done']);
    expect(sent[2]).not.toHaveProperty('note');
    expect(new Set(sent.map((step) => step.idempotency_key)).size).toBe(3);

    // The note after Done; without signal it is not lost, and the practitioner is told why it was not saved.
    fireEvent.click(await within(stop).findByRole('button', { name: 'Add a note' }));
    fireEvent.change(within(stop).getByLabelText('Note'), { target: { value: 'Dressing changed' } });
    network.down = true;
    fireEvent.click(within(stop).getByRole('button', { name: 'Save the note' }));
    expect(await within(stop).findByRole('alert')).toHaveTextContent('The note was not saved: no signal, or the server could not be reached.');
    expect(within(stop).getByLabelText('Note')).toHaveValue('Dressing changed');
    network.down = false;
    fireEvent.click(within(stop).getByRole('button', { name: 'Save the note' }));
    await waitFor(() => expect(within(stop).getByTestId('visit-note')).toHaveTextContent('Note: Dressing changed'));
    expect(notes).toEqual(['Dressing changed']);
    expect(within(stop).getByRole('button', { name: 'Change the note' })).toBeInTheDocument();
    expect(within(stop).getByTestId('visit-times')).toHaveTextContent('On my way 10:00 · Arrived 10:00 · Done 10:00');
    // Done is the end: no more steps, and a practitioner cannot reopen.
    expect(within(stop).queryByRole('group', { name: 'Visit steps' })).toBeNull();
    expect(within(stop).queryByRole('button', { name: 'Reopen the visit' })).toBeNull();
  });

  it('record Could not attend with the reason chosen', async () => {
    const { sent } = serveDay(TODAY_VISIT);
    renderRunSheet();
    const stop = await screen.findByTestId('run-sheet-stop');
    fireEvent.click(within(stop).getByRole('button', { name: 'Could not attend' }));
    expect(within(stop).getAllByRole('radio').map((radio) => radio.closest('label')!.textContent)).toEqual(['Client not home', 'Refused', 'In hospital', 'Other']);
    fireEvent.click(within(stop).getByRole('radio', { name: 'Client not home' }));
    fireEvent.click(within(stop).getByRole('button', { name: 'Confirm: could not attend' }));
    await waitFor(() => expect(within(stop).getByTestId('visit-reason')).toHaveTextContent('Reason: Client not home'));
    expect(within(stop).getByTestId('visit-status')).toHaveTextContent('Could not attend');
    expect(sent).toEqual([{ step: 'could_not_attend', reason: 'client_not_home', at: NOW, idempotency_key: expect.any(String) }]);
  });

  it('keep working without signal: the steps wait on the phone, said so, and reach the server in order when it is back', async () => {
    const { sent, network } = serveDay(TODAY_VISIT);
    renderRunSheet();
    const stop = await screen.findByTestId('run-sheet-stop');
    network.down = true;
    fireEvent.click(within(stop).getByRole('button', { name: 'On my way' }));
    await waitFor(() => expect(within(stop).getByTestId('visit-status')).toHaveAttribute('data-state', 'on_my_way'));
    vi.setSystemTime(new Date('2026-11-24T00:20:00.000Z'));
    fireEvent.click(within(stop).getByRole('button', { name: 'Arrived' }));
    await waitFor(() => expect(within(stop).getByTestId('visit-status')).toHaveAttribute('data-state', 'arrived'));
    expect(within(stop).getByTestId('visit-waiting')).toHaveTextContent('Waiting to send: On my way 10:00 · Arrived 10:20');
    expect(screen.getByTestId('steps-waiting')).toHaveTextContent('2 steps waiting to send');
    // The practitioner goes on: Done is offered after an Arrived that has not reached the server yet.
    expect(within(stop).getByRole('button', { name: 'Done' })).toBeInTheDocument();
    expect(sent).toEqual([]);

    network.down = false;
    window.dispatchEvent(new Event('online'));
    await waitFor(() => expect(screen.queryByTestId('steps-waiting')).toBeNull());
    expect(sent.map((step) => [step.step, step.at])).toEqual([['on_my_way', NOW], ['arrived', '2026-11-24T00:20:00.000Z']]);
    expect(new Set(sent.map((step) => step.idempotency_key)).size).toBe(2);
    await waitFor(() => expect(within(stop).getByTestId('visit-times')).toHaveTextContent('On my way 10:00 · Arrived 10:20'));
    expect(within(stop).queryByTestId('visit-waiting')).toBeNull();
    expect(within(stop).getByTestId('visit-status')).toHaveAttribute('data-state', 'arrived');
  });

  it('keep a step the server refuses when it reaches it later, shown as not recorded on its visit and above the day until dismissed', async () => {
    const { network } = serveDay(TODAY_VISIT);
    renderRunSheet();
    const stop = await screen.findByTestId('run-sheet-stop');
    network.down = true;
    fireEvent.click(within(stop).getByRole('button', { name: 'On my way' }));
    await waitFor(() => expect(within(stop).getByTestId('visit-waiting')).toHaveTextContent('Waiting to send: On my way 10:00'));

    network.down = false;
    network.refusal = 'The office reopened this visit at 10:05: steps taken before then are not recorded.';
    window.dispatchEvent(new Event('online'));
    await waitFor(() => expect(within(stop).getByTestId('visit-not-recorded'))
      .toHaveTextContent('On my way 10:00 · Not recorded: The office reopened this visit at 10:05: steps taken before then are not recorded.'));
    expect(screen.getByTestId('steps-refused'))
      .toHaveTextContent('Margaret Jones, On my way 10:00 · Not recorded: The office reopened this visit at 10:05');
    expect(within(stop).queryByTestId('visit-waiting')).toBeNull();

    // Read on the visit, it is dismissed everywhere.
    fireEvent.click(within(within(stop).getByTestId('visit-not-recorded')).getByRole('button', { name: 'Dismiss' }));
    expect(within(stop).queryByTestId('visit-not-recorded')).toBeNull();
    expect(screen.queryByTestId('steps-refused')).toBeNull();
  });

  it('queue a step whose send has no answer within 10 s, instead of sending for ever', async () => {
    const { sent, network } = serveDay(TODAY_VISIT);
    const hanging = { on: true };
    server.use(http.post(api('/appointments/:id/steps'), () => (hanging.on ? new Promise<Response>(() => {}) : undefined)));
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    vi.setSystemTime(new Date(NOW));
    window.history.replaceState(null, '', '/appointments');
    renderWithServices(<AppointmentsPage route={findRoute('/appointments')!} />, { role: 'PRACTITIONER' });
    const stop = await vi.waitFor(() => screen.getByTestId('run-sheet-stop'), { timeout: 5_000 });
    fireEvent.click(within(stop).getByRole('button', { name: 'On my way' }));
    await act(() => vi.advanceTimersByTimeAsync(9_000));
    expect(within(stop).getByRole('status')).toHaveTextContent('Sending On my way…');
    await act(() => vi.advanceTimersByTimeAsync(1_500));
    expect(within(stop).getByTestId('visit-waiting')).toHaveTextContent('Waiting to send: On my way 10:00');
    expect(within(stop).getByRole('button', { name: 'Arrived' })).toBeInTheDocument();

    hanging.on = false;
    network.down = false;
    window.dispatchEvent(new Event('online'));
    await act(() => vi.advanceTimersByTimeAsync(100));
    await vi.waitFor(() => expect(sent.map((step) => step.step)).toEqual(['on_my_way']));
  });

  it('say why Send now sent nothing without signal', async () => {
    const { sent, network } = serveDay(TODAY_VISIT);
    renderRunSheet();
    const stop = await screen.findByTestId('run-sheet-stop');
    loseSignal(network);
    fireEvent.click(within(stop).getByRole('button', { name: 'On my way' }));
    const waiting = await screen.findByTestId('steps-waiting');
    expect(within(waiting).queryByTestId('steps-not-sent')).toBeNull();
    fireEvent.click(within(waiting).getByRole('button', { name: 'Send now' }));
    expect(await within(waiting).findByTestId('steps-not-sent')).toHaveTextContent(
      'Nothing was sent: this phone has no signal. The steps stay here and go by themselves when the network is back.',
    );
    expect(sent).toEqual([]);
  });

  it('say a day never opened with signal is not saved on this phone, instead of loading for ever', async () => {
    serveDay(TODAY_VISIT);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(NOW));
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    onlineManager.setOnline(false);
    window.history.replaceState(null, '', '/appointments?start=2026-11-26&end=2026-11-26');
    renderWithServices(<AppointmentsPage route={findRoute('/appointments')!} />, { role: 'PRACTITIONER' });
    expect(await screen.findByTestId('day-not-saved')).toHaveTextContent(
      'This day is not saved on this phone: it was not opened while there was signal. It shows once the network is back.',
    );
    expect(screen.queryByText('Loading appointments…')).toBeNull();
  });

  it('are under the practitioner’s own words, not a coordinator’s', async () => {
    serveDay(TODAY_VISIT);
    renderRunSheet();
    await screen.findByTestId('run-sheet-stop');
    const intro = screen.getByRole('heading', { name: 'Appointments' }).parentElement!;
    expect(intro).toHaveTextContent('Your visits by day, in visiting order: the address, the phone and the way there, and each visit’s steps.');
    expect(intro).not.toHaveTextContent('arrival time');
  });

  it('are not offered for another day than today', async () => {
    serveDay(makeAppointment({ ...TODAY_VISIT, starts_at: '2026-11-25T01:00:00Z', ends_at: '2026-11-25T02:00:00Z', arrive_at: '2026-11-25T01:00:00Z' }));
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(NOW));
    window.history.replaceState(null, '', '/appointments?view=run-sheet&start=2026-11-25&end=2026-11-25');
    renderWithServices(<AppointmentsPage route={findRoute('/appointments')!} />, { role: 'PRACTITIONER' });
    const stop = await screen.findByTestId('run-sheet-stop');
    expect(within(stop).getByTestId('visit-status')).toHaveTextContent('Not started');
    expect(within(stop).queryByRole('group', { name: 'Visit steps' })).toBeNull();
  });
});

describe('logging out with steps waiting to send', () => {
  const PRACTITIONER = usersByRole.PRACTITIONER;
  const OUTBOX_KEY = `rounds.visitStepOutbox.${PRACTITIONER.id}`;

  /** The whole app on the practitioner's run sheet, one step taken without signal. */
  async function stepTakenOffline() {
    const day = serveDay(TODAY_VISIT);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(NOW));
    const app = renderApp('/appointments', { as: 'PRACTITIONER' });
    const stop = await screen.findByTestId('run-sheet-stop');
    day.network.down = true;
    fireEvent.click(within(stop).getByRole('button', { name: 'On my way' }));
    await waitFor(() => expect(within(stop).getByTestId('visit-waiting')).toBeInTheDocument());
    fireEvent.click(screen.getByRole('button', { name: 'Open account menu' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Logout' }));
    return { ...day, app };
  }

  it('warns how many steps wait, and logging out keeps them on the phone for that user, sent when they log in again', async () => {
    const { sent, network } = await stepTakenOffline();
    const dialog = await screen.findByRole('alertdialog', { name: '1 step not sent yet' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Log out, keep them on this phone' }));
    await screen.findByRole('button', { name: 'Log in' });
    expect(currentPath()).toBe('/login');
    expect(JSON.parse(localStorage.getItem(OUTBOX_KEY)!).waiting).toEqual([expect.objectContaining({ appointmentId: 1, step: expect.objectContaining({ step: 'on_my_way', at: NOW }) })]);
    expect(sent).toEqual([]);

    network.down = false;
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: PRACTITIONER.email } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: PASSWORD } });
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(sent.map((step) => [step.step, step.at])).toEqual([['on_my_way', NOW]]));
    await waitFor(() => expect(localStorage.getItem(OUTBOX_KEY)).toBeNull());
  });

  it('sends them first when there is signal, then logs out', async () => {
    const { sent, network } = await stepTakenOffline();
    const dialog = await screen.findByRole('alertdialog', { name: '1 step not sent yet' });
    network.down = false;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send them now, then log out' }));
    await screen.findByRole('button', { name: 'Log in' });
    expect(sent.map((step) => step.step)).toEqual(['on_my_way']);
    expect(localStorage.getItem(OUTBOX_KEY)).toBeNull();
  });

  it('says so when the steps could not be sent, and stays logged in', async () => {
    const { sent } = await stepTakenOffline();
    const dialog = await screen.findByRole('alertdialog', { name: '1 step not sent yet' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send them now, then log out' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('1 step could not be sent: the network did not answer. They stay on this phone.');
    expect(currentPath()).toBe('/appointments');
    expect(sent).toEqual([]);
  });

  it('keeps a step whose session has ended (401) for that user, and sends it when they log in again', async () => {
    const { sent, network } = serveDay(TODAY_VISIT);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(NOW));
    renderApp('/appointments', { as: 'PRACTITIONER' });
    const stop = await screen.findByTestId('run-sheet-stop');
    const sessionEnded = { on: true };
    server.use(http.post(api('/appointments/:id/steps'), () => (sessionEnded.on
      ? HttpResponse.json({ message: 'Your session has ended. Log in again.' }, { status: 401 }) : undefined)));
    fireEvent.click(within(stop).getByRole('button', { name: 'On my way' }));
    await screen.findByRole('button', { name: 'Log in' });
    await waitFor(() => expect(JSON.parse(localStorage.getItem(OUTBOX_KEY)!).waiting).toEqual([expect.objectContaining({ step: expect.objectContaining({ step: 'on_my_way', at: NOW }) })]));

    sessionEnded.on = false;
    network.down = false;
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: PRACTITIONER.email } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: PASSWORD } });
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(sent.map((step) => [step.step, step.at])).toEqual([['on_my_way', NOW]]));
  });

  it('logging out without signal ends the session on the server once the network is back', async () => {
    const { network } = await stepTakenOffline();
    const ended: string[] = [];
    server.use(http.post(api('/auth/logout'), ({ request }) => {
      if (network.down) return HttpResponse.error();
      ended.push(request.headers.get('Authorization') ?? '');
      return new HttpResponse(null, { status: 204 });
    }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Log out, keep them on this phone' }));
    await screen.findByRole('button', { name: 'Log in' });
    await waitFor(() => expect(localStorage.getItem('rounds.auth.pendingLogouts')).not.toBeNull());
    expect(ended).toEqual([]);

    network.down = false;
    window.dispatchEvent(new Event('online'));
    await waitFor(() => expect(ended).toEqual([`Bearer ${tokenFor(usersByRole.PRACTITIONER)}`]));
    await waitFor(() => expect(localStorage.getItem('rounds.auth.pendingLogouts')).toBeNull());
  });
});

describe('the appointment modal, at the desk', () => {
  const DONE = makeAppointment({
    ...TODAY_VISIT, visit_state: 'done',
    visit: { ...EMPTY_PROGRESS, on_my_way_at: '2026-11-23T23:40:00Z', arrived_at: '2026-11-24T00:05:00Z', done_at: '2026-11-24T00:50:00Z', arrived_distance_m: 1240, arrived_far_from_client: true },
  });

  it('shows the visit’s state, actual times and a far arrival, and lets a coordinator reopen it', async () => {
    const { sent } = serveDay(DONE);
    renderWithServices(<AppointmentDetailsModal appointmentId={1} onClose={() => {}} />, { role: 'REGULAR_USER' });
    const status = await screen.findByTestId('visit-status');
    expect(status).toHaveTextContent('Done');
    expect(within(status).getByTestId('visit-times')).toHaveTextContent('On my way 09:40 · Arrived 10:05 · Done 10:50');
    expect(within(status).getByTestId('visit-far')).toHaveTextContent('Arrived 1,240 m from the client’s point');
    // The desk reads; the phone steps.
    expect(screen.queryByRole('group', { name: 'Visit steps' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Reopen the visit' }));
    await waitFor(() => expect(screen.getByTestId('visit-status')).toHaveTextContent('Not started'));
    expect(sent).toEqual([expect.objectContaining({ step: 'reopened' })]);
    expect(sent[0]).not.toHaveProperty('lat');
  });

  it('shows in the appointments list where each visit is and since when', async () => {
    serveDay(DONE);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(NOW));
    window.history.replaceState(null, '', '/appointments');
    renderWithServices(<AppointmentsPage route={findRoute('/appointments')!} />, { role: 'REGULAR_USER' });
    expect(await screen.findByTestId('appointment-status')).toHaveTextContent('Done 10:50');
  });

  it('offers a practitioner no Reopen, and no booking status beside the visit’s state', async () => {
    serveDay(DONE);
    renderWithServices(<AppointmentDetailsModal appointmentId={1} onClose={() => {}} />, { role: 'PRACTITIONER' });
    expect(await screen.findByTestId('visit-status')).toHaveTextContent('Done');
    expect(screen.queryByRole('button', { name: 'Reopen the visit' })).toBeNull();
    expect(screen.queryByText('Status')).toBeNull();
    expect(screen.queryByText('Booked')).toBeNull();
  });
});

describe('Unavailable from now, on today’s schedule', () => {
  it('asks from when in 24-hour time, whatever the browser’s clock', async () => {
    server.use(http.get(api('/practitioner_leave'), () => HttpResponse.json({ leave: [] })));
    vi.useFakeTimers({ toFake: ['Date'] });
    // 13:05 in Brisbane: a time input would show "01:05 pm" in en-AU.
    vi.setSystemTime(new Date('2026-11-24T03:05:00.000Z'));
    renderWithServices(<UnavailableFromNow practitionerId={7} practitionerName="Pat Nguyen" day="2026-11-24" timeZone="Australia/Brisbane" />, { role: 'REGULAR_USER' });
    fireEvent.click(await screen.findByRole('button', { name: 'Mark Pat Nguyen unavailable from now' }));
    const from = await screen.findByRole('textbox', { name: 'Unavailable from' });
    expect(from).toHaveValue('13:05');
    fireEvent.change(from, { target: { value: '1435' } });
    fireEvent.blur(from);
    expect(from).toHaveValue('14:35');
  });
});
