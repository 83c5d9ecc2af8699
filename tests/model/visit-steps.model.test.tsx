// Model-based tests: paths generated from visitStepsMachine drive the real step controls of a visit (as the run sheet
// shows them). Each path renders fresh, answers each send as the path says, and checks what the user sees and what was
// sent: the step, its reason, on a retry the same time and idempotency key, and the note saved after Done.
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { getShortestPaths } from 'xstate/graph';
import {
  REASON_LABELS, STATE_LABELS, STEP_LABELS, visitStepsMachine, type VisitStepsEvent, type VisitStepsInput, type VisitStepsSnapshot,
} from '../../src/machines/visitSteps';
import type { VisitState, VisitStepKind, VisitStepRequest } from '../../src/api/visitSteps';
import { VisitSteps } from '../../src/ui/VisitSteps';
import { api, server } from '../component/support/fakeApi';
import { deferred, makeAppointment } from '../component/support/fixtures';
import { renderWithServices, useFakeApi } from '../component/support/harness';
import { withoutPrefixes } from './support/paths';

const ZONE = 'Australia/Brisbane';
const REFUSAL = 'Done comes after Arrived: this visit is on the way. Tap Arrived first.';
const NOTE_REFUSAL = 'This visit is not done yet: a note is added once it is Done.';
const OTHER_WORDS = 'Gate locked, dog loose';
const NOTE = 'Dressing changed';

const AFTER: Record<VisitStepKind, VisitState> = {
  on_my_way: 'on_my_way', arrived: 'arrived', done: 'done', could_not_attend: 'could_not_attend', reopened: 'not_started',
};

const USER_EVENTS: VisitStepsEvent[] = [
  { type: 'ON_MY_WAY' }, { type: 'ARRIVED' }, { type: 'DONE' }, { type: 'COULD_NOT_ATTEND' }, { type: 'REOPEN' },
  { type: 'CHOOSE_REASON', reason: 'client_not_home' }, { type: 'CHOOSE_REASON', reason: 'other' },
  { type: 'CHANGE_REASON_TEXT', value: OTHER_WORDS }, { type: 'ADD_NOTE', note: '' }, { type: 'CHANGE_NOTE', value: NOTE },
  { type: 'CONFIRM' }, { type: 'CANCEL' }, { type: 'RETRY' },
];
const SEND_ERROR = { type: 'xstate.error.actor.send', error: new Error('409') } as unknown as VisitStepsEvent;
const NOTE_SAVED = { type: 'xstate.done.actor.saveNote', output: {} } as unknown as VisitStepsEvent;
const NOTE_ERROR = { type: 'xstate.error.actor.saveNote', error: new Error('409') } as unknown as VisitStepsEvent;
const sendDone = (step: VisitStepKind) =>
  ({ type: 'xstate.done.actor.send', output: { step: { step }, appointment: { visit_state: AFTER[step] } } }) as unknown as VisitStepsEvent;

function modelPaths(input: VisitStepsInput) {
  return getShortestPaths(visitStepsMachine, {
    input,
    events: (snapshot) => (snapshot.matches('sending')
      ? [sendDone(snapshot.context.pending!.step), SEND_ERROR]
      : snapshot.matches('savingNote') ? [NOTE_SAVED, NOTE_ERROR] : USER_EVENTS.filter((event) => snapshot.can(event))),
    // A step's time and key are new each time it is tapped: the path's state is what the user can tell apart.
    serializeState: (snapshot) => JSON.stringify([
      snapshot.value, snapshot.context.state, snapshot.context.pending?.step ?? null, snapshot.context.reason,
      snapshot.context.reasonText, snapshot.context.note, snapshot.context.error !== null,
    ]),
  });
}

useFakeApi();

interface PathRun {
  answer: ReturnType<typeof deferred<'ok' | 'refuse'>> | null;
  sent: VisitStepRequest[];
  notes: string[];
}

function serve(run: PathRun) {
  server.use(http.post(api('/appointments/501/steps'), async ({ request }) => {
    const body = (await request.json()) as VisitStepRequest;
    run.sent.push(body);
    run.answer = deferred<'ok' | 'refuse'>();
    const outcome = await run.answer.promise;
    if (outcome === 'refuse') return HttpResponse.json({ message: REFUSAL, code: 'VISIT_STEP_OUT_OF_ORDER' }, { status: 409 });
    const appointment = makeAppointment({ visit_state: AFTER[body.step] });
    return HttpResponse.json({ step: { id: run.sent.length, appointment_id: 501, step: body.step, at: body.at }, appointment }, { status: 201 });
  }), http.put(api('/appointments/501/visit_note'), async ({ request }) => {
    run.notes.push(((await request.json()) as { note: string }).note);
    run.answer = deferred<'ok' | 'refuse'>();
    const outcome = await run.answer.promise;
    if (outcome === 'refuse') return HttpResponse.json({ message: NOTE_REFUSAL, code: 'VISIT_NOT_DONE' }, { status: 409 });
    return HttpResponse.json({ appointment: makeAppointment({ id: 501, visit_state: 'done' }) });
  }));
}

const controls = () => screen.getByTestId('visit-steps');
const button = (name: string) => within(controls()).getByRole('button', { name });

function perform(event: VisitStepsEvent, run: PathRun) {
  const type = (event as { type: string }).type;
  switch (event.type) {
    case 'ON_MY_WAY': return fireEvent.click(button(STEP_LABELS.on_my_way));
    case 'ARRIVED': return fireEvent.click(button(STEP_LABELS.arrived));
    case 'DONE': return fireEvent.click(button(STEP_LABELS.done));
    case 'COULD_NOT_ATTEND': return fireEvent.click(button(STEP_LABELS.could_not_attend));
    case 'REOPEN': return fireEvent.click(button('Reopen the visit'));
    case 'CHOOSE_REASON': return fireEvent.click(within(controls()).getByRole('radio', { name: REASON_LABELS[event.reason] }));
    case 'CHANGE_REASON_TEXT': return fireEvent.change(within(controls()).getByLabelText('What happened'), { target: { value: event.value } });
    case 'ADD_NOTE': return fireEvent.click(button('Add a note'));
    case 'CHANGE_NOTE': return fireEvent.change(within(controls()).getByLabelText('Note'), { target: { value: event.value } });
    case 'CONFIRM': {
      const confirm = within(controls()).queryByRole('button', { name: 'Save the note' }) ?? button('Confirm: could not attend');
      return fireEvent.click(confirm);
    }
    case 'CANCEL': return fireEvent.click(within(controls()).queryByRole('button', { name: 'Back' }) ?? button('Leave it'));
    case 'RETRY': return fireEvent.click(button('Try again'));
  }
  if (type.startsWith('xstate.done.actor.') || type.startsWith('xstate.error.actor.')) {
    return waitFor(() => expect(run.answer).not.toBeNull()).then(() => {
      run.answer!.resolve(type.startsWith('xstate.done.actor.') ? 'ok' : 'refuse');
      run.answer = null;
    });
  }
}

const STEP_BUTTONS: Record<string, string[]> = {
  notStarted: [STEP_LABELS.on_my_way, STEP_LABELS.arrived, STEP_LABELS.could_not_attend],
  onMyWay: [STEP_LABELS.arrived, STEP_LABELS.could_not_attend],
  arrived: [STEP_LABELS.done, STEP_LABELS.could_not_attend],
  done: [],
  couldNotAttend: [],
};

async function expectUserSees(snapshot: VisitStepsSnapshot, run: PathRun, lastEvent: string) {
  const state = String(snapshot.value);
  const { context } = snapshot;
  await waitFor(() => expect(controls()).toHaveAttribute('data-machine-state', state));
  const view = controls();
  expect(within(view).getByTestId('visit-status')).toHaveAttribute('data-state', context.state);
  expect(within(view).getByTestId('visit-status')).toHaveTextContent(STATE_LABELS[context.state]);

  const group = within(view).queryByRole('group', { name: 'Visit steps' });
  if (state in STEP_BUTTONS && STEP_BUTTONS[state].length) {
    expect(within(group!).getAllByRole('button').map((element) => element.textContent)).toEqual(STEP_BUTTONS[state]);
    // Big enough for a thumb on a phone.
    for (const element of within(group!).getAllByRole('button')) expect(element.className).toContain('min-h-12');
  } else {
    expect(group).toBeNull();
  }
  const reopen = within(view).queryByRole('button', { name: 'Reopen the visit' });
  expect(reopen !== null).toBe(context.canReopen && state in STEP_BUTTONS && context.state !== 'not_started');

  if (state === 'choosingReason') {
    expect(within(view).getAllByRole('radio')).toHaveLength(4);
    for (const radio of within(view).getAllByRole('radio') as HTMLInputElement[]) expect(radio.checked).toBe(radio.value === context.reason);
    const words = within(view).queryByLabelText('What happened') as HTMLInputElement | null;
    expect(words !== null).toBe(context.reason === 'other');
    if (words) expect(words.value).toBe(context.reasonText);
    if (context.error) expect(within(view).getByRole('alert')).toHaveTextContent(context.error);
    else expect(within(view).queryByRole('alert')).toBeNull();
  }
  // Done is one tap; the note is added to the done visit afterwards.
  expect(within(view).queryByRole('button', { name: 'Add a note' }) !== null).toBe(state === 'done');
  if (state === 'writingNote' || state === 'savingNote') {
    expect((within(view).getByLabelText('Note') as HTMLTextAreaElement).value).toBe(context.note);
    if (context.error) expect(within(view).getByRole('alert')).toHaveTextContent(NOTE_REFUSAL);
    else expect(within(view).queryByRole('alert')).toBeNull();
  }
  if (state === 'savingNote') {
    await waitFor(() => expect(run.notes.length).toBeGreaterThan(0));
    expect(run.notes.at(-1)).toBe(context.note.trim());
  }
  if (state === 'sending') {
    expect(within(view).getByRole('status')).toHaveTextContent(`Sending ${STEP_LABELS[context.pending!.step]}`);
    await waitFor(() => expect(run.sent.length).toBeGreaterThan(0));
    const body = run.sent.at(-1)!;
    expect(body).toMatchObject({ step: context.pending!.step, idempotency_key: expect.any(String), at: expect.any(String) });
    if (body.step === 'could_not_attend') {
      expect(body.reason).toBe(context.reason);
      expect(body.reason_text).toBe(context.reason === 'other' ? OTHER_WORDS : undefined);
    }
    if (body.step === 'done') expect(body).not.toHaveProperty('note');
    if (lastEvent === 'RETRY') {
      // A retry is the same step: its first time and key, so the server stores it once.
      const first = run.sent.at(-2)!;
      expect(body.idempotency_key).toBe(first.idempotency_key);
      expect(body.at).toBe(first.at);
    }
  }
  if (state === 'failed') {
    expect(within(view).getByRole('alert')).toHaveTextContent(`${STEP_LABELS[context.pending!.step]} was not recorded: ${REFUSAL}`);
  }
}

const label = (path: ReturnType<typeof modelPaths>[number]) =>
  path.steps.map((step) => ('reason' in step.event ? `${step.event.type}(${step.event.reason})` : step.event.type)).join(' → ');

describe.each([
  { name: 'on the practitioner’s phone', canReopen: false },
  { name: 'for a coordinator, who may reopen', canReopen: true },
])('visit steps model, $name', ({ canReopen }) => {
  const paths = modelPaths({ appointmentId: 501, state: 'not_started', canReopen });
  // canReopen only lets REOPEN through: a coordinator's path without it is the phone's, walked there with the same
  // transitions. Theirs also show the Reopen button in each state they pass (checked at every step).
  const walked = withoutPrefixes(paths.filter((path) => path.steps.length > 1))
    .filter((path) => !canReopen || path.steps.some((step) => step.event.type === 'REOPEN'));

  it('covers every state of the visit', () => {
    if (canReopen) {
      const passed = new Set(walked.flatMap((path) => path.steps.map((step) => String(step.state.value))));
      for (const reopenable of ['onMyWay', 'arrived', 'done', 'couldNotAttend']) expect(passed).toContain(reopenable);
    }
    expect([...new Set(paths.map((path) => String(path.state.value)))].sort()).toEqual(
      ['arrived', 'choosingReason', 'couldNotAttend', 'done', 'failed', 'notStarted', 'onMyWay', 'savingNote', 'sending', 'writingNote'],
    );
  });

  it.each(walked.map((path) => [label(path), path] as const))('reaches %s', async (_, path) => {
    const run: PathRun = { answer: null, sent: [], notes: [] };
    serve(run);
    const visit = makeAppointment({ visit_state: 'not_started' });
    const view = renderWithServices(<VisitSteps visit={visit} timeZone={ZONE} steps canReopen={canReopen} />, { role: canReopen ? 'REGULAR_USER' : 'PRACTITIONER' });
    try {
      for (const step of path.steps) {
        if ((step.event as { type: string }).type === 'xstate.init') continue;
        await perform(step.event, run);
        await expectUserSees(step.state, run, step.event.type);
      }
    } finally {
      run.answer?.resolve('ok');
      view.unmount();
    }
  });
});
