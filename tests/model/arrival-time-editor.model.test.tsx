// Model-based tests: paths generated from arrivalTimeEditorMachine drive the real appointment details
// modal. Each path renders fresh and checks what the user sees and what was sent.
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { getShortestPaths } from 'xstate/graph';
import {
  ARRIVAL_TIME_UPDATED_MESSAGE,
  arrivalTimeEditorMachine,
  arrivalWindowHint,
  draftTime,
  shownArrivalTime,
  type ArrivalTimeEditorEvent,
  type ArrivalTimeEditorInput,
  type ArrivalTimeEditorSnapshot,
} from '../../src/machines/arrivalTimeEditor';
import { instantAtTimeOnSameDay } from '../../src/lib/dates';
import { AppointmentDetailsModal } from '../../src/features/schedule/AppointmentDetailsModal';
import { api, server, received as sent } from '../component/support/fakeApi';
import { deferred, makeAppointment } from '../component/support/fixtures';
import { renderWithServices, useFakeApi } from '../component/support/harness';
import { withoutPrefixes } from './support/paths';

const APPOINTMENT = makeAppointment(); // 09:00–10:00, arrives 08:50 (Brisbane)
const ZONE = 'Australia/Brisbane';
const NEW_TIME = '09:25';
const OFF_STEP_TIME = '09:17';
const OUTSIDE_WINDOW_TIME = '09:35'; // the window is 08:30–09:30 (30 minutes either side of 09:00)
const SAVED_AT = instantAtTimeOnSameDay(APPOINTMENT.starts_at, NEW_TIME, ZONE);
const SERVER_REFUSAL = 'The arrival time must be on the day of the appointment and before it ends.';

const SAVE_DONE = { type: 'xstate.done.actor.save', output: { arrive_at: SAVED_AT } } as unknown as ArrivalTimeEditorEvent;
const SAVE_ERROR = { type: 'xstate.error.actor.save', error: new Error('422') } as unknown as ArrivalTimeEditorEvent;
const USER_EVENTS: ArrivalTimeEditorEvent[] = [
  { type: 'EDIT' },
  { type: 'CHANGE', value: NEW_TIME },
  { type: 'CHANGE', value: OFF_STEP_TIME },
  { type: 'CHANGE', value: OUTSIDE_WINDOW_TIME },
  { type: 'SAVE' },
  { type: 'CANCEL' },
];

const isSaveResult = (event: ArrivalTimeEditorEvent | undefined) =>
  event !== undefined && ['xstate.done.actor.save', 'xstate.error.actor.save'].includes((event as { type: string }).type);

function inputFor(routeId: number | null): ArrivalTimeEditorInput {
  return {
    appointmentId: APPOINTMENT.id, startsAt: APPOINTMENT.starts_at, toleranceMinutes: APPOINTMENT.tolerance_minutes, arriveAt: APPOINTMENT.arrive_at, routeId, timeZone: ZONE,
  };
}

function modelPaths(routeId: number | null) {
  return getShortestPaths(arrivalTimeEditorMachine, {
    input: inputFor(routeId),
    // Only what the user can do in that state: an ignored event has no control to drive.
    events: (snapshot) => (snapshot.matches('saving') ? [SAVE_DONE, SAVE_ERROR] : USER_EVENTS.filter((event) => snapshot.can(event))),
    serializeState: (snapshot, event) =>
      JSON.stringify([snapshot.value, snapshot.context, isSaveResult(event) ? (event as { type: string }).type : null]),
  });
}

useFakeApi();

interface PathRun {
  pendingSave: ReturnType<typeof deferred<'ok' | 'refuse'>> | null;
}

function serve(routeId: number | null, run: PathRun) {
  const appointment = { ...APPOINTMENT, route_id: routeId };
  server.use(
    http.get(api('/appointments/501'), () => HttpResponse.json({ appointment })),
    http.get(api('/appointments/501/extra_details'), () => HttpResponse.json({ resource_map: null, versions: [], import_history: [], export_history: [] })),
    http.put(api('/appointments/501/update_arrival_time'), async ({ request }) => {
      run.pendingSave = deferred<'ok' | 'refuse'>();
      const outcome = await run.pendingSave.promise;
      const body = (await request.json()) as { arrive_at: string };
      return outcome === 'ok'
        ? HttpResponse.json({ appointment: { ...appointment, arrive_at: body.arrive_at }, warnings: [] })
        : HttpResponse.json({ message: SERVER_REFUSAL }, { status: 422 });
    }),
  );
}

const editorEl = () => screen.getByTestId('arrival-time');

async function perform(event: ArrivalTimeEditorEvent, run: PathRun, user: ReturnType<typeof userEvent.setup>) {
  const type = (event as { type: string }).type;
  switch (event.type) {
    case 'EDIT':
      return user.click(within(editorEl()).getByText('Edit arrival time'));
    case 'CHANGE':
      fireEvent.change(within(editorEl()).getByLabelText('Arrival time'), { target: { value: event.value } });
      return;
    case 'SAVE':
      // Enter in the time input saves.
      fireEvent.keyDown(within(editorEl()).getByLabelText('Arrival time'), { key: 'Enter' });
      return;
    case 'CANCEL':
      return user.click(within(editorEl()).getByText('Cancel'));
  }
  if (type === 'xstate.init') return;
  await waitFor(() => expect(run.pendingSave).not.toBeNull());
  run.pendingSave!.resolve(type === 'xstate.done.actor.save' ? 'ok' : 'refuse');
  run.pendingSave = null;
}

async function expectUserSees(snapshot: ArrivalTimeEditorSnapshot, lastEvent: string | undefined) {
  const { context } = snapshot;
  const state = String(snapshot.value);
  await waitFor(() => expect(editorEl()).toHaveAttribute('data-state', state));
  const editor = editorEl();
  if (state === 'locked' || state === 'viewing') {
    expect(editor).toHaveTextContent(shownArrivalTime(context));
    if (state === 'locked') expect(within(editor).queryByText('Edit arrival time')).toBeNull();
    if (lastEvent === 'xstate.done.actor.save') expect(await screen.findByText(ARRIVAL_TIME_UPDATED_MESSAGE)).toBeInTheDocument();
    return;
  }
  const input = within(editor).getByLabelText('Arrival time') as HTMLInputElement;
  // 24-hour text, whatever the browser's locale (a type="time" input shows 12:30 PM in en-US).
  expect(input.type).toBe('text');
  expect(input).toHaveAttribute('placeholder', 'HH:mm');
  // The allowed window is told before anything is typed.
  expect(within(editor).getByTestId('arrival-time-hint')).toHaveTextContent(arrivalWindowHint(context));
  expect(input).toHaveAccessibleDescription(expect.stringContaining(arrivalWindowHint(context)));
  if (state === 'saving') {
    expect(input).toBeDisabled();
    await waitFor(() => expect(sent.some((request) => request.method === 'PUT')).toBe(true));
    const put = sent.filter((request) => request.method === 'PUT').at(-1)!;
    expect(put.path).toBe('/api/appointments/501/update_arrival_time');
    expect(put.body).toEqual({ arrive_at: instantAtTimeOnSameDay(context.startsAt, draftTime(context)!, ZONE) });
    return;
  }
  expect(input.value).toBe(context.draft);
  if (context.error) expect(within(editor).getByRole('alert')).toHaveTextContent(lastEvent === 'xstate.error.actor.save' ? SERVER_REFUSAL : context.error);
  else expect(within(editor).queryByRole('alert')).toBeNull();
  if (lastEvent === 'xstate.error.actor.save') expect(screen.getAllByText(SERVER_REFUSAL).length).toBeGreaterThanOrEqual(1);
}

const label = (path: ReturnType<typeof modelPaths>[number]) =>
  path.steps.map((step) => ('value' in step.event ? `${step.event.type}(${step.event.value})` : step.event.type)).join(' → ');

describe.each([
  { name: 'an appointment outside any route', routeId: null },
  { name: 'an appointment on an optimised route', routeId: 12 },
])('arrival-time editor model, $name', ({ routeId }) => {
  const paths = modelPaths(routeId);

  it('covers the states the machine can reach', () => {
    const states = new Set(paths.map((path) => String(path.state.value)));
    expect([...states].sort()).toEqual(routeId === null ? ['editing', 'saving', 'viewing'] : ['locked']);
  });

  it.each(withoutPrefixes(paths).map((path) => [label(path), path] as const))('reaches %s', async (_, path) => {
    const run: PathRun = { pendingSave: null };
    serve(routeId, run);
    const user = userEvent.setup({ delay: null });
    const view = renderWithServices(<AppointmentDetailsModal appointmentId={APPOINTMENT.id} onClose={() => {}} />);
    try {
      await screen.findByTestId('arrival-time');
      for (const step of path.steps) {
        await perform(step.event, run, user);
        await expectUserSees(step.state, step.event.type);
      }
    } finally {
      run.pendingSave?.resolve('ok');
      view.unmount();
    }
  });
});
