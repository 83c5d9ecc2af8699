// Model-based test of the optimisation-run machine and the job run it follows while the run is created and solves:
// paths generated from the two real machines' state graphs walked together (xstate/graph, every transition covered),
// each walked through the REAL day schedule and Optimise dialog. A step is a user gesture
// (Start with or without practitioners, Cancel, Close, Keep the proposal, Apply, Discard, Run again, Change and start again), the poll
// timer firing, or the server's answer to a call (held until the path says what it is). After each step the screen
// must show what the model's state means; at the end, the run must be polled only while the model is following it.
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ActorLogic, ActorScope, EventFromLogic, SnapshotFrom, StateValue } from 'xstate';
import { ApiError } from '../../src/api/errors';
import type { AppliedOptimization, Optimization, OptimizationRequest } from '../../src/api/optimizations';
import { jobRunMachine } from '../../src/machines/jobRun';
import { followedJobOf, optimizationRunMachine, problemsShown, runShown, SCHEDULE_CHANGED } from '../../src/machines/optimizationRun';
import { appliedMessage, DISCARDED_MESSAGE } from '../../src/features/schedule/mutations';
import { formatElapsed } from '../../src/features/schedule/optimise/RunProgress';
import { at, makeRoute, makeRun, RUN_DAY } from '../../src/testing/optimizations';
import { server } from '../component/support/fakeApi';
import { useFakeApi } from '../component/support/harness';
import { freshFake, json, renderDaySchedule, serveRoutes } from '../component/support/routesFakeApi';
import { transitionCoveringPaths } from './support/paths';

type RunEvent = EventFromLogic<typeof optimizationRunMachine> | EventFromLogic<typeof jobRunMachine>;
type ParentSnapshot = SnapshotFrom<typeof optimizationRunMachine>;
type ChildSnapshot = SnapshotFrom<typeof jobRunMachine>;

/**
 * The optimisation run and, while it follows its job (following), the job run it invokes. `value` is the step the
 * dialog shows: the run's state, or the job run's while it follows (submitting, running, cancelling, closing).
 */
interface RunSnapshot {
  value: StateValue;
  /** Both machines' contexts: what tells two model states apart. */
  context: { parent: ParentSnapshot['context']; child: ChildSnapshot['context'] | null };
  parent: ParentSnapshot;
  child: ChildSnapshot | undefined;
}

function modelSnapshot(parent: ParentSnapshot): RunSnapshot {
  const child = followedJobOf(parent);
  return { value: child?.value ?? parent.value, context: { parent: parent.context, child: child?.context ?? null }, parent, child };
}

/**
 * The two machines walked together. While the run follows its job, every event is the job run's (its calls' answers and
 * timer, and the CANCEL and CLOSE the run passes on to it); when the job run ends, the run is told its output.
 */
const runWithItsJob = {
  getInitialSnapshot: (scope: ActorScope<never, never>) => modelSnapshot(optimizationRunMachine.getInitialSnapshot(scope as never)),
  transition: (model: RunSnapshot, event: RunEvent, scope: ActorScope<never, never>): RunSnapshot => {
    if (!model.child) return modelSnapshot(optimizationRunMachine.transition(model.parent, event as never, scope as never));
    const child = jobRunMachine.transition(model.child, event as never, scope as never);
    if (child.status !== 'done') return { ...model, value: child.value, context: { ...model.context, child: child.context }, child };
    return modelSnapshot(optimizationRunMachine.transition(model.parent, { type: 'xstate.done.actor.job', output: child.output } as never, scope as never));
  },
} as unknown as ActorLogic<RunSnapshot & { status: 'active'; output: undefined; error: undefined }, RunEvent>;

const POLL_MS = 20;
const REQUEST: OptimizationRequest = { date: RUN_DAY, practitioner_ids: [7, 8], mode: 'keep_practitioners' };
const NOBODY: OptimizationRequest = { ...REQUEST, practitioner_ids: [] };
const REFUSED = {
  message: 'practitioner_ids: Pat Nguyen has no working hours on Wednesdays: set them in Settings → Practitioners.',
  errors: [
    'practitioner_ids: Pat Nguyen has no working hours on Wednesdays: set them in Settings → Practitioners.',
    'practitioner_ids: Sam Lee has no start place with a map position: set one in Settings → Practitioners.',
  ],
};
const UNAVAILABLE = { message: 'The service is unavailable; try again in a moment.' };
const FINISHED = { message: 'The optimisation has already finished (COMPLETE).' };
const APPLIED: AppliedOptimization = {
  optimization: makeRun('COMPLETE', { applied_at: at('06:05'), applied_by_name: 'Alex Taylor' }),
  routes: [makeRoute(), makeRoute({ id: 62, practitioner_id: 8, practitioner_name: 'Sam Lee' })],
};
const DISCARDED = makeRun('COMPLETE', { discarded_at: at('06:05') });

type Endpoint = 'create' | 'poll' | 'cancel' | 'apply' | 'discard';
const ENDPOINT_OF: Record<string, Endpoint> = { createJob: 'create', pollJob: 'poll', cancelJob: 'cancel', cancelOnClose: 'cancel', apply: 'apply', discard: 'discard' };

const done = (actor: string, output: unknown) => ({ type: `xstate.done.actor.${actor}`, output });
const failed = (actor: string, status: number, body: object) => ({ type: `xstate.error.actor.${actor}`, error: new ApiError(status, body, ''), status, body });

// `as RunEvent[]`: the timer and the invoked actors' results are internal to XState's typings.
const EVENTS = [
  { type: 'START', request: REQUEST },
  { type: 'START', request: NOBODY },
  { type: 'CANCEL' },
  { type: 'APPLY' },
  { type: 'DISCARD' },
  { type: 'RUN_AGAIN' },
  { type: 'EDIT' },
  { type: 'CLOSE' },
  { type: 'KEEP' },
  done('createJob', makeRun('PENDING')),
  failed('createJob', 422, REFUSED),
  { type: 'xstate.after.pollInterval.jobRun.running.waiting' },
  ...(['INPROGRESS', 'COMPLETE', 'ERROR', 'CANCELLED'] as const).map((status) => done('pollJob', makeRun(status))),
  failed('pollJob', 503, UNAVAILABLE),
  done('cancelJob', makeRun('CANCELLED')),
  failed('cancelJob', 409, FINISHED),
  done('cancelOnClose', makeRun('CANCELLED')),
  failed('cancelOnClose', 409, FINISHED),
  done('apply', APPLIED),
  failed('apply', 409, { message: SCHEDULE_CHANGED, code: 'SCHEDULE_CHANGED' }),
  failed('apply', 503, UNAVAILABLE),
  done('discard', DISCARDED),
  failed('discard', 409, { message: 'This proposal has already been applied (by Sam Taylor).' }),
  failed('discard', 503, UNAVAILABLE),
] as unknown as RunEvent[];

const FOLLOWING = ['running', 'cancelling', 'closing'] as const;
const isFollowing = (snapshot: RunSnapshot) => FOLLOWING.some((state) => snapshot.child?.matches(state) === true);

const isEvent = (event: RunEvent, type: string) => (event as { type: string }).type === type;

/** A run in progress is followed, cancelled and closed as a pending one is: the two are one state of the model. */
const followedAsPending = (run: Optimization | null) => (run?.status === 'INPROGRESS' ? 'PENDING' : (run?.status ?? null));

const paths = transitionCoveringPaths(runWithItsJob, {
  // Without it, every transition out of running, cancelling and closing was walked twice, after a PENDING poll and
  // again after an INPROGRESS one; the path through done:pollJob(INPROGRESS) still checks the progress shown.
  serializeState: (snapshot) => {
    const { parent, child } = (snapshot as RunSnapshot).context;
    const { run, ...context } = parent;
    const followed = child && { ...child, job: followedAsPending(child.job as Optimization | null) };
    return JSON.stringify({ value: snapshot.value, ...context, run: followedAsPending(run), child: followed });
  },
  // A cancel that comes too late (409) is tried on a run not yet started; the run it left running then finishes. Without
  // these limits every state a run can be followed in would be walked twice, with and without the note.
  events: (snapshot) => {
    const state = snapshot as RunSnapshot;
    const noted = isFollowing(state) && problemsShown(state.parent, state.child).length > 0;
    return EVENTS.filter((event) => {
      if (noted) {
        return isEvent(event, 'xstate.after.pollInterval.jobRun.running.waiting')
          || (isEvent(event, 'xstate.done.actor.pollJob') && (event as unknown as { output: Optimization }).output.status === 'COMPLETE');
      }
      if (isEvent(event, 'xstate.error.actor.cancelJob')) return runShown(state.parent, state.child)?.status === 'PENDING';
      return true;
    });
  },
});

/** Requests the fake server holds until the path gives the answer. */
class Held {
  private waiting: Array<{ request: Request; resolve: (response: Response) => void }> = [];
  readonly received: Request[] = [];

  hold(request: Request): Promise<Response> {
    this.received.push(request);
    return new Promise((resolve) => this.waiting.push({ request, resolve }));
  }

  /** Requests waiting for an answer whose caller still wants one. */
  get live(): number {
    return this.waiting.filter(({ request }) => !request.signal.aborted).length;
  }

  answer(response: () => Response): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const { resolve } of waiting) resolve(response());
  }
}

type Run = Record<Endpoint, Held>;

useFakeApi();

const fastPolling = { jobRun: jobRunMachine.provide({ delays: { pollInterval: POLL_MS } }) };
const dialog = () => screen.queryByTestId('optimise-dialog');
const inDialog = () => within(dialog()!);

async function choosePractitioners(user: ReturnType<typeof userEvent.setup>, ids: readonly number[]) {
  const names: Record<number, string> = { 7: 'Pat Nguyen', 8: 'Sam Lee' };
  const field = inDialog().getByTestId('optimise-practitioners');
  const shown = within(field).queryAllByTestId('multiselect-tag').map((tag) => tag.textContent);
  if (shown.join() === ids.map((id) => names[id]).join()) return;
  await user.click(within(inDialog().getByTestId('optimise-practitioners')).getByRole('button'));
  const listbox = await screen.findByRole('listbox');
  for (const [id, name] of Object.entries(names)) {
    const option = within(listbox).getByRole('option', { name });
    if ((option.getAttribute('aria-selected') === 'true') !== ids.includes(Number(id))) await user.click(option);
  }
  await user.keyboard('{Escape}');
}

async function perform(run: Run, event: RunEvent) {
  const user = userEvent.setup();
  const click = (name: string) => user.click(inDialog().getByRole('button', { name }));
  switch (event.type) {
    case 'START':
      await choosePractitioners(user, event.request.practitioner_ids ?? []);
      return click('Start');
    case 'CANCEL':
      return click('Cancel optimisation');
    case 'APPLY':
      return click('Apply');
    case 'DISCARD': {
      // From the proposal's footer, or from the question closing asked.
      const question = screen.queryByRole('alertdialog');
      return user.click(question ? within(question).getByRole('button', { name: 'Discard' }) : inDialog().getByRole('button', { name: 'Discard' }));
    }
    case 'KEEP':
      return user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Keep the proposal' }));
    case 'RUN_AGAIN':
      return click('Run again');
    case 'EDIT':
      return click('Change and start again');
    case 'CLOSE':
      return click('Close');
  }
  const type = (event as { type: string }).type;
  if (type.startsWith('xstate.after.')) {
    // The timer fires on its own: the step is the poll arriving at the server.
    await waitFor(() => expect(run.poll.live).toBeGreaterThan(0));
    return;
  }
  const [, outcome, actor] = /^xstate\.(done|error)\.actor\.(.+)$/.exec(type)!;
  const held = run[ENDPOINT_OF[actor]];
  await waitFor(() => expect(held.live).toBeGreaterThan(0));
  const answer = event as unknown as { output?: unknown; status?: number; body?: object };
  held.answer(outcome === 'done' ? () => json(actor === 'createJob' ? { optimization: answer.output } : (actor === 'apply' ? answer.output : { optimization: answer.output }), actor === 'createJob' ? 201 : 200) : () => json(answer.body, answer.status));
}

const TOP_LEVEL = (snapshot: RunSnapshot) => (typeof snapshot.value === 'string' ? snapshot.value : Object.keys(snapshot.value)[0]);

async function expectProblems(state: RunSnapshot) {
  const problems = problemsShown(state.parent, state.child);
  if (problems.length === 0) {
    expect(inDialog().queryByRole('alert')).toBeNull();
    return;
  }
  const alert = await inDialog().findByRole('alert');
  for (const problem of problems) expect(alert).toHaveTextContent(problem);
}

/** What the model's state means on screen. */
async function expectScreen(run: Run, state: RunSnapshot) {
  const top = TOP_LEVEL(state);
  if (state.parent.status === 'done') {
    await waitFor(() => expect(dialog()).toBeNull());
    if (top === 'applied') expect(await screen.findByText(appliedMessage(APPLIED))).toBeInTheDocument();
    if (top === 'discarded') expect(await screen.findByText(DISCARDED_MESSAGE)).toBeInTheDocument();
    if (top === 'applied' || top === 'discarded') expect(run[top === 'applied' ? 'apply' : 'discard'].received.length).toBeGreaterThan(0);
    return;
  }
  await waitFor(() => expect(inDialog().getByTestId('optimise-step')).toHaveAttribute('data-step', top));
  const run_: Optimization | null = runShown(state.parent, state.child);
  switch (top) {
    case 'configure':
      expect(inDialog().getByRole('button', { name: 'Start' })).toBeEnabled();
      return expectProblems(state);
    case 'submitting':
      expect(inDialog().getByRole('button', { name: 'Starting…' })).toBeDisabled();
      await waitFor(() => expect(run.create.live).toBe(1));
      expect(await run.create.received.at(-1)!.clone().json()).toEqual(state.parent.context.request);
      return;
    case 'running': {
      const progress = inDialog().getByTestId('optimization-progress');
      await waitFor(() => expect(progress).toHaveAttribute('data-status', run_!.status));
      expect(progress).toHaveTextContent(run_!.status === 'PENDING' ? 'Waiting for a free worker…' : 'Looking for shorter routes…');
      expect(within(progress).getByTestId('progress-elapsed')).toHaveTextContent(formatElapsed(run_!.progress?.elapsed_ms ?? 0));
      expect(inDialog().getByRole('button', { name: 'Cancel optimisation' })).toBeEnabled();
      return expectProblems(state);
    }
    case 'cancelling':
    case 'closing':
      expect(inDialog().getByRole('button', { name: 'Cancelling…' })).toBeDisabled();
      await waitFor(() => expect(run.cancel.live).toBe(1));
      expect(new URL(run.cancel.received.at(-1)!.url).pathname).toBe(`/api/optimizations/${run_!.id}/cancel`);
      return;
    case 'proposal':
      if (state.parent.matches({ proposal: 'confirmingDiscard' })) {
        expect(await screen.findByRole('alertdialog', { name: 'Discard this proposal?' })).toBeInTheDocument();
        expect(run.discard.received).toHaveLength(0);
        return;
      }
      await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
      await waitFor(() => expect(within(inDialog().getByTestId('kpi-travel_seconds')).getAllByRole('cell')[1]).toHaveTextContent('4 h 42 min'));
      expect(inDialog().getByRole('button', { name: 'Apply' })).toBeEnabled();
      return expectProblems(state);
    case 'applying':
      expect(inDialog().getByRole('button', { name: 'Applying…' })).toBeDisabled();
      await waitFor(() => expect(run.apply.live).toBe(1));
      return;
    case 'discarding':
      expect(inDialog().getByRole('button', { name: 'Discard' })).toBeDisabled();
      await waitFor(() => expect(run.discard.live).toBe(1));
      return;
    case 'outdated':
      expect(inDialog().getByRole('button', { name: 'Run again' })).toBeInTheDocument();
      expect(inDialog().queryByRole('button', { name: 'Apply' })).toBeNull();
      return expectProblems(state);
    case 'cancelled':
      expect(inDialog().getByText('The optimisation was cancelled. Nothing was changed.')).toBeInTheDocument();
      expect(inDialog().getByRole('button', { name: 'Change and start again' })).toBeInTheDocument();
      return expectProblems(state);
    case 'failed':
      expect(inDialog().getByRole('button', { name: 'Change and start again' })).toBeInTheDocument();
      return expectProblems(state);
    default:
      throw new Error(`no screen for ${top}`);
  }
}

/** At the end of a path: the run is polled while the model follows it, and never once it stopped following. */
async function expectPollingAfterPath(run: Run, state: RunSnapshot) {
  if (state.child?.matches('running')) {
    await waitFor(() => expect(run.poll.live).toBeGreaterThan(0));
    return;
  }
  const before = run.poll.received.length;
  await new Promise((resolve) => setTimeout(resolve, POLL_MS * 6));
  expect(run.poll.received.length).toBe(before);
  expect(run.poll.live).toBe(0);
}

describe('optimisation run through the real Optimise dialog', () => {
  it('covers every state, including cancel, close, failure, an outdated proposal and each ending', () => {
    const visited = new Set(paths.flatMap((path) => path.steps.map((step) => JSON.stringify(step.state.value))));
    expect([...visited].sort()).toEqual(
      [
        '"configure"', '"submitting"', '{"running":"waiting"}', '{"running":"polling"}', '"cancelling"', '"closing"', '{"proposal":"reviewing"}',
        '{"proposal":"confirmingDiscard"}', '"applying"',
        '"discarding"', '"outdated"', '"cancelled"', '"failed"', '"applied"', '"discarded"', '"closed"',
      ].sort(),
    );
  });

  for (const path of paths) {
    it(path.description, async () => {
      const run: Run = { create: new Held(), poll: new Held(), cancel: new Held(), apply: new Held(), discard: new Held() };
      const fake = freshFake();
      fake.create = (request) => run.create.hold(request);
      fake.poll = (request) => run.poll.hold(request);
      fake.cancel = (request) => run.cancel.hold(request);
      fake.apply = (request) => run.apply.hold(request);
      fake.discard = (request) => run.discard.hold(request);
      serveRoutes(server, fake);
      const view = renderDaySchedule({ machines: fastPolling });
      try {
        await userEvent.setup().click(await screen.findByRole('button', { name: 'Optimise' }));
        await waitFor(() => expect(inDialog().getByTestId('optimise-visit-count')).toHaveTextContent('5 visits'));
        for (const step of path.steps) {
          await perform(run, step.event);
          await expectScreen(run, step.state);
        }
        await expectPollingAfterPath(run, path.steps.at(-1)!.state);
      } finally {
        for (const held of Object.values(run)) held.answer(() => json(UNAVAILABLE, 503));
        view.unmount();
      }
    });
  }
});
