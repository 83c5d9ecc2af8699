import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { ApiError } from '../api/errors';
import { JOB_POLL_INTERVAL_MS, type JobStatus } from '../api/jobs';
import type { OptimizationRequest } from '../api/optimizations';
import { makeRun, RUN_DAY } from '../testing/optimizations';
import { jobRunMachine } from './jobRun';
import {
  NO_DATE,
  NO_PRACTITIONERS,
  SCHEDULE_CHANGED,
  followedJobOf,
  optimizationRunMachine,
  problemsOf,
  problemsShown,
  requestProblem,
  runShown,
  stepOf,
} from './optimizationRun';

const REQUEST: OptimizationRequest = { date: RUN_DAY, practitioner_ids: [7, 8], mode: 'keep_practitioners' };
const REFUSED = new ApiError(422, {
  message: 'practitioner_ids: Pat Nguyen has no start place with a map position: set one in Settings → Practitioners. Sam Lee has no working hours on Wednesdays: set them in Settings → Practitioners.',
  errors: [
    'practitioner_ids: Pat Nguyen has no start place with a map position: set one in Settings → Practitioners.',
    'practitioner_ids: Sam Lee has no working hours on Wednesdays: set them in Settings → Practitioners.',
  ],
}, '');
const CHANGED = new ApiError(409, { message: SCHEDULE_CHANGED, code: 'SCHEDULE_CHANGED' }, '');

type Answer<T> = T | Error;

/** A fake server: each call answers the next of its answers (the last one repeats). */
function start(answers: {
  create?: Array<Answer<JobStatus>>;
  poll?: Array<Answer<JobStatus>>;
  cancel?: Array<Answer<JobStatus>>;
  apply?: Array<Answer<'ok'>>;
  discard?: Array<Answer<'ok'>>;
}) {
  const calls: string[] = [];
  const polls: AbortSignal[] = [];
  const next = <T,>(name: string, list: Array<Answer<T>> | undefined): T => {
    const count = calls.filter((call) => call.startsWith(name)).length;
    const answer = list?.[Math.min(count, list.length - 1)];
    if (answer === undefined) throw new Error(`no answer for ${name}`);
    if (answer instanceof Error) throw answer;
    return answer;
  };
  const call = <T,>(name: string, list: Array<Answer<T>> | undefined, detail: unknown) => {
    const answer = next(name, list);
    calls.push(`${name} ${JSON.stringify(detail)}`);
    return answer;
  };
  // The calls the schedule feature gives the job run the optimisation run follows.
  const jobRun = jobRunMachine.provide({
    actors: {
      createJob: fromPromise(async ({ input }) => makeRun(call('create', answers.create, input.request))),
      pollJob: fromPromise(async ({ input, signal }) => {
        polls.push(signal);
        const answer = call('poll', answers.poll, { id: input.job.id });
        // Answered on a later macrotask, so that a CANCEL or CLOSE can arrive while the poll is in flight.
        await new Promise((resolve) => setTimeout(resolve, 10));
        return makeRun(answer);
      }),
      cancelJob: fromPromise(async ({ input }) => makeRun(call('cancel', answers.cancel, { id: input.job.id }))),
    },
  });
  const machine = optimizationRunMachine.provide({
    actors: {
      jobRun,
      applyOptimization: fromPromise(async ({ input }) => {
        call('apply', answers.apply, input);
        return { optimization: makeRun('COMPLETE', { applied_at: '2026-11-24T20:02:00Z' }), routes: [] };
      }),
      discardOptimization: fromPromise(async ({ input }) => {
        call('discard', answers.discard, input);
        return makeRun('COMPLETE', { discarded_at: '2026-11-24T20:02:00Z' });
      }),
    },
  });
  const actor = createActor(machine);
  actor.start();
  return { actor, calls, polls };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('optimisation run', () => {
  it('creates the run, polls it every JOB_POLL_INTERVAL_MS while it solves, then holds its proposal', async () => {
    const { actor, calls } = start({ create: ['PENDING'], poll: ['INPROGRESS', 'COMPLETE'] });
    actor.send({ type: 'START', request: REQUEST });
    expect(stepOf(actor.getSnapshot())).toBe('submitting');
    await vi.advanceTimersByTimeAsync(0);
    expect(followedJobOf(actor.getSnapshot())?.matches({ running: 'waiting' })).toBe(true);
    expect(calls).toEqual([`create ${JSON.stringify(REQUEST)}`]);
    await vi.advanceTimersByTimeAsync(JOB_POLL_INTERVAL_MS - 1);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls.at(-1)).toBe('poll {"id":31}');
    await vi.advanceTimersByTimeAsync(10);
    expect(followedJobOf(actor.getSnapshot())?.matches({ running: 'waiting' })).toBe(true);
    expect(runShown(actor.getSnapshot())?.progress?.best_travel_seconds).toBe(16_943);
    await vi.advanceTimersByTimeAsync(JOB_POLL_INTERVAL_MS + 10);
    expect(actor.getSnapshot().value).toEqual({ proposal: 'reviewing' });
    expect(actor.getSnapshot().context.run?.proposal?.changes).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(JOB_POLL_INTERVAL_MS * 3);
    expect(calls.filter((call) => call.startsWith('poll'))).toHaveLength(2);
  });

  it('refuses a request without a day or without practitioners, sending nothing', () => {
    const { actor, calls } = start({});
    actor.send({ type: 'START', request: { ...REQUEST, practitioner_ids: [] } });
    expect(actor.getSnapshot().value).toBe('configure');
    expect(actor.getSnapshot().context.problems).toEqual([NO_PRACTITIONERS]);
    actor.send({ type: 'START', request: { ...REQUEST, date: '' } });
    expect(actor.getSnapshot().context.problems).toEqual([NO_DATE]);
    expect(calls).toEqual([]);
    expect(requestProblem(REQUEST)).toBeNull();
    // Left out, the server takes every active practitioner with visits that day.
    expect(requestProblem({ date: RUN_DAY })).toBeNull();
  });

  it('goes back to the choices naming each practitioner the server refused, without the field name', async () => {
    const { actor } = start({ create: [REFUSED] });
    actor.send({ type: 'START', request: REQUEST });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toBe('configure');
    expect(actor.getSnapshot().context.problems).toEqual([
      'Pat Nguyen has no start place with a map position: set one in Settings → Practitioners.',
      'Sam Lee has no working hours on Wednesdays: set them in Settings → Practitioners.',
    ]);
  });

  it('says the server’s words when another run holds the day (409), and a fallback when the network fails', async () => {
    const overlap = new ApiError(409, { message: 'An optimisation of Wednesday 25 November 2026 for Pat Nguyen has not finished yet (#30).' }, '');
    expect(problemsOf(overlap, 'fallback')).toEqual(['An optimisation of Wednesday 25 November 2026 for Pat Nguyen has not finished yet (#30).']);
    expect(problemsOf(new TypeError('Failed to fetch'), 'Could not start.')).toEqual(['Could not start.']);
    const { actor } = start({ create: [overlap] });
    actor.send({ type: 'START', request: REQUEST });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toBe('configure');
    expect(actor.getSnapshot().context.problems[0]).toMatch(/has not finished yet/);
  });

  it('cancels a solving run: the poll in flight is aborted and the run ends cancelled', async () => {
    const { actor, calls, polls } = start({ create: ['PENDING'], poll: ['INPROGRESS'], cancel: ['CANCELLED'] });
    actor.send({ type: 'START', request: REQUEST });
    await vi.advanceTimersByTimeAsync(JOB_POLL_INTERVAL_MS);
    expect(polls).toHaveLength(1);
    actor.send({ type: 'CANCEL' });
    expect(polls[0].aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toBe('cancelled');
    expect(calls.at(-1)).toBe('cancel {"id":31}');
    actor.send({ type: 'EDIT' });
    expect(actor.getSnapshot().value).toBe('configure');
    expect(actor.getSnapshot().context.run).toBeNull();
  });

  it('keeps following a run it was too late to cancel (409), saying so, and shows its proposal', async () => {
    const late = new ApiError(409, { message: 'The optimisation has already finished (COMPLETE).' }, '');
    const { actor } = start({ create: ['INPROGRESS'], poll: ['COMPLETE'], cancel: [late] });
    actor.send({ type: 'START', request: REQUEST });
    await vi.advanceTimersByTimeAsync(0);
    actor.send({ type: 'CANCEL' });
    await vi.advanceTimersByTimeAsync(0);
    expect(followedJobOf(actor.getSnapshot())?.matches({ running: 'waiting' })).toBe(true);
    expect(problemsShown(actor.getSnapshot())).toEqual(['The optimisation has already finished (COMPLETE).']);
    await vi.advanceTimersByTimeAsync(JOB_POLL_INTERVAL_MS + 10);
    expect(actor.getSnapshot().value).toEqual({ proposal: 'reviewing' });
    expect(actor.getSnapshot().context.problems).toEqual([]);
  });

  it('closing while it solves cancels the run first, so it does not hold the day', async () => {
    const { actor, calls } = start({ create: ['INPROGRESS'], cancel: ['CANCELLED'] });
    actor.send({ type: 'START', request: REQUEST });
    await vi.advanceTimersByTimeAsync(0);
    actor.send({ type: 'CLOSE' });
    expect(stepOf(actor.getSnapshot())).toBe('closing');
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().status).toBe('done');
    expect(calls.at(-1)).toBe('cancel {"id":31}');
  });

  it('fails with the run’s own error, or when its progress cannot be read', async () => {
    const failing = start({ create: ['PENDING'], poll: ['ERROR'] });
    failing.actor.send({ type: 'START', request: REQUEST });
    await vi.advanceTimersByTimeAsync(JOB_POLL_INTERVAL_MS + 10);
    expect(failing.actor.getSnapshot().value).toBe('failed');
    expect(failing.actor.getSnapshot().context.problems).toEqual(['The optimiser stopped: out of memory.']);

    const unreachable = start({ create: ['PENDING'], poll: [new ApiError(503, { message: 'The database is unavailable.' }, '')] });
    unreachable.actor.send({ type: 'START', request: REQUEST });
    await vi.advanceTimersByTimeAsync(JOB_POLL_INTERVAL_MS);
    expect(unreachable.actor.getSnapshot().value).toBe('failed');
    expect(unreachable.actor.getSnapshot().context.problems).toEqual(['The database is unavailable.']);
  });

  it('applies the proposal and ends; a changed schedule (409) makes it outdated, and running again starts a new run', async () => {
    const applied = start({ create: ['COMPLETE'], apply: ['ok'] });
    applied.actor.send({ type: 'START', request: REQUEST });
    await vi.advanceTimersByTimeAsync(0);
    applied.actor.send({ type: 'APPLY' });
    expect(applied.actor.getSnapshot().value).toBe('applying');
    await vi.advanceTimersByTimeAsync(0);
    expect(applied.actor.getSnapshot().value).toBe('applied');
    expect(applied.actor.getSnapshot().status).toBe('done');
    expect(applied.calls.at(-1)).toBe(`apply {"id":31,"date":"${RUN_DAY}","notifyClients":false}`);

    // Apply asked to tell the clients passes it on.
    const telling = start({ create: ['COMPLETE'], apply: ['ok'] });
    telling.actor.send({ type: 'START', request: REQUEST });
    await vi.advanceTimersByTimeAsync(0);
    telling.actor.send({ type: 'APPLY', notifyClients: true });
    await vi.advanceTimersByTimeAsync(0);
    expect(telling.calls.at(-1)).toBe(`apply {"id":31,"date":"${RUN_DAY}","notifyClients":true}`);

    const outdated = start({ create: ['COMPLETE'], apply: [CHANGED] });
    outdated.actor.send({ type: 'START', request: REQUEST });
    await vi.advanceTimersByTimeAsync(0);
    outdated.actor.send({ type: 'APPLY' });
    await vi.advanceTimersByTimeAsync(0);
    expect(outdated.actor.getSnapshot().value).toBe('outdated');
    expect(outdated.actor.getSnapshot().context.problems).toEqual([SCHEDULE_CHANGED]);
    outdated.actor.send({ type: 'APPLY' });
    expect(outdated.actor.getSnapshot().value).toBe('outdated');
    outdated.actor.send({ type: 'RUN_AGAIN' });
    expect(stepOf(outdated.actor.getSnapshot())).toBe('submitting');
    await vi.advanceTimersByTimeAsync(0);
    expect(outdated.calls.filter((call) => call.startsWith('create'))).toEqual([`create ${JSON.stringify(REQUEST)}`, `create ${JSON.stringify(REQUEST)}`]);
  });

  it('an apply that fails otherwise keeps the proposal to try again; discard ends without applying', async () => {
    const { actor, calls } = start({ create: ['COMPLETE'], apply: [new TypeError('Failed to fetch')], discard: ['ok'] });
    actor.send({ type: 'START', request: REQUEST });
    await vi.advanceTimersByTimeAsync(0);
    actor.send({ type: 'APPLY' });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toEqual({ proposal: 'reviewing' });
    expect(actor.getSnapshot().context.problems).toEqual(['An error has occurred. Could not apply the proposal.']);
    actor.send({ type: 'DISCARD' });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toBe('discarded');
    expect(calls.filter((call) => call.startsWith('apply') || call.startsWith('discard'))).toEqual(['discard {"id":31}']);
  });

  it('closing a proposal asks first: keeping it goes back to it, Discard throws it away', async () => {
    const { actor, calls } = start({ create: ['COMPLETE'], discard: ['ok'] });
    actor.send({ type: 'START', request: REQUEST });
    await vi.advanceTimersByTimeAsync(0);
    actor.send({ type: 'CLOSE' });
    expect(actor.getSnapshot().value).toEqual({ proposal: 'confirmingDiscard' });
    actor.send({ type: 'KEEP' });
    expect(actor.getSnapshot().value).toEqual({ proposal: 'reviewing' });
    actor.send({ type: 'CLOSE' });
    actor.send({ type: 'DISCARD' });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toBe('discarded');
    expect(calls.at(-1)).toBe('discard {"id":31}');
  });

  it('ignores closing while a request is on its way', async () => {
    const { actor } = start({ create: ['COMPLETE'], apply: ['ok'] });
    actor.send({ type: 'START', request: REQUEST });
    actor.send({ type: 'CLOSE' });
    expect(stepOf(actor.getSnapshot())).toBe('submitting');
    await vi.advanceTimersByTimeAsync(0);
    actor.send({ type: 'APPLY' });
    actor.send({ type: 'CLOSE' });
    expect(actor.getSnapshot().value).toBe('applying');
  });
});
