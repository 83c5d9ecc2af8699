import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { ApiError } from '../api/errors';
import { JOB_POLL_INTERVAL_MS, type JobStatus } from '../api/jobs';
import { jobRunMachine, type JobRunEmitted, type JobRunInput, type RunJob } from './jobRun';

const job = (status: JobStatus, id = 5): RunJob => ({ id, status });

type Answer = JobStatus | Error;

/** A fake server: each call answers the next of its answers (a status, or an Error to fail with), the last one repeating. */
function start(input: JobRunInput, answers: { create?: Answer[]; poll?: Answer[]; cancel?: Answer[] } = {}) {
  const requests: Array<{ call: 'create' | 'poll' | 'cancel'; id?: number; request?: unknown; signal: AbortSignal }> = [];
  const answerOf = (call: 'create' | 'poll' | 'cancel') => {
    const list = answers[call] ?? ['COMPLETE'];
    const count = requests.filter((request) => request.call === call).length;
    return list[Math.min(count - 1, list.length - 1)];
  };
  const answer = async (call: 'create' | 'poll' | 'cancel', id: number) => {
    const next = answerOf(call);
    if (next instanceof Error) throw next;
    // Resolved on the next macrotask so a CLOSE can arrive while the request is in flight.
    await new Promise((resolve) => setTimeout(resolve, 10));
    return job(next, id);
  };
  const machine = jobRunMachine.provide({
    actors: {
      createJob: fromPromise(async ({ input, signal }) => {
        requests.push({ call: 'create', request: input.request, signal });
        return answer('create', 5);
      }),
      pollJob: fromPromise(async ({ input, signal }) => {
        requests.push({ call: 'poll', id: input.job.id, signal });
        return answer('poll', input.job.id);
      }),
      cancelJob: fromPromise(async ({ input, signal }) => {
        requests.push({ call: 'cancel', id: input.job.id, signal });
        return answer('cancel', input.job.id);
      }),
    },
  });
  const actor = createActor(machine, { input });
  const emitted: JobRunEmitted[] = [];
  actor.on('*', (event) => emitted.push(event));
  actor.start();
  const calls = (call: 'create' | 'poll' | 'cancel') => requests.filter((request) => request.call === call);
  return { actor, emitted, requests, calls };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('job run: following a created job', () => {
  it('polls every JOB_POLL_INTERVAL_MS until the status is terminal, then emits finished once', async () => {
    const { actor, emitted, requests } = start({ whenClosed: 'stop' }, { poll: ['PENDING', 'INPROGRESS', 'COMPLETE'] });
    actor.send({ type: 'FOLLOW', job: job('PENDING') });
    expect(actor.getSnapshot().matches({ running: 'waiting' })).toBe(true);
    await vi.advanceTimersByTimeAsync(JOB_POLL_INTERVAL_MS - 1);
    expect(requests).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(requests).toEqual([expect.objectContaining({ call: 'poll', id: 5 })]);
    await vi.advanceTimersByTimeAsync(10 + JOB_POLL_INTERVAL_MS + 10 + JOB_POLL_INTERVAL_MS + 10);
    expect(requests).toHaveLength(3);
    expect(actor.getSnapshot().value).toBe('finished');
    expect(actor.getSnapshot().context.job?.status).toBe('COMPLETE');
    expect(actor.getSnapshot().output).toEqual({ job: job('COMPLETE'), error: null, ended: 'finished' });
    expect(emitted).toEqual([{ type: 'finished', job: job('COMPLETE'), detached: false }]);
    await vi.advanceTimersByTimeAsync(JOB_POLL_INTERVAL_MS * 3);
    expect(requests).toHaveLength(3);
  });

  it('does not poll a job that is already finished when followed', async () => {
    const { actor, emitted, requests } = start({ whenClosed: 'keepGoing' });
    actor.send({ type: 'FOLLOW', job: job('ERROR') });
    expect(actor.getSnapshot().value).toBe('finished');
    expect(emitted.map((event) => event.type)).toEqual(['finished']);
    await vi.advanceTimersByTimeAsync(JOB_POLL_INTERVAL_MS * 2);
    expect(requests).toHaveLength(0);
  });

  it.each(['ERROR', 'CANCELLED'] as const)('stops at %s', async (status) => {
    const { actor, emitted } = start({ whenClosed: 'stop' }, { poll: [status] });
    actor.send({ type: 'FOLLOW', job: job('PENDING') });
    await vi.advanceTimersByTimeAsync(JOB_POLL_INTERVAL_MS + 10);
    expect(actor.getSnapshot().value).toBe('finished');
    expect(emitted).toEqual([{ type: 'finished', job: job(status), detached: false }]);
  });

  it('stops polling when a poll fails, keeping the error', async () => {
    const failure = new ApiError(500, { message: 'Database unavailable.' }, 'fallback');
    const { actor, emitted, requests } = start({ whenClosed: 'stop' }, { poll: [failure] });
    actor.send({ type: 'FOLLOW', job: job('PENDING') });
    await vi.advanceTimersByTimeAsync(JOB_POLL_INTERVAL_MS);
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.error).toBe(failure);
    expect(emitted).toEqual([{ type: 'failed', error: failure, detached: false }]);
    await vi.advanceTimersByTimeAsync(JOB_POLL_INTERVAL_MS * 3);
    expect(requests).toHaveLength(1);
  });

  it('closing when whenClosed is stop stops polling and aborts the request in flight', async () => {
    const { actor, emitted, requests } = start({ whenClosed: 'stop' }, { poll: ['INPROGRESS'] });
    actor.send({ type: 'FOLLOW', job: job('PENDING') });
    await vi.advanceTimersByTimeAsync(JOB_POLL_INTERVAL_MS);
    expect(requests).toHaveLength(1);
    expect(requests[0].signal.aborted).toBe(false);
    actor.send({ type: 'CLOSE' });
    expect(requests[0].signal.aborted).toBe(true);
    expect(actor.getSnapshot().value).toBe('stopped');
    await vi.advanceTimersByTimeAsync(JOB_POLL_INTERVAL_MS * 3);
    expect(requests).toHaveLength(1);
    expect(emitted).toEqual([]);
  });

  it('closing when whenClosed is keepGoing keeps polling in the background until the job ends', async () => {
    const { actor, emitted, requests } = start({ whenClosed: 'keepGoing' }, { poll: ['INPROGRESS', 'COMPLETE'] });
    actor.send({ type: 'FOLLOW', job: job('PENDING') });
    await vi.advanceTimersByTimeAsync(JOB_POLL_INTERVAL_MS);
    actor.send({ type: 'CLOSE' });
    expect(requests[0].signal.aborted).toBe(false);
    expect(actor.getSnapshot().context.detached).toBe(true);
    await vi.advanceTimersByTimeAsync(10 + JOB_POLL_INTERVAL_MS + 10);
    expect(requests).toHaveLength(2);
    expect(actor.getSnapshot().value).toBe('finished');
    expect(emitted).toEqual([{ type: 'finished', job: job('COMPLETE'), detached: true }]);
  });

  it('ignores CLOSE before anything was created', () => {
    const { actor } = start({ whenClosed: 'stop' });
    actor.send({ type: 'CLOSE' });
    expect(actor.getSnapshot().value).toBe('idle');
  });
});

describe('job run: creating the job', () => {
  it('creates the job from the input’s request at once, then follows it', async () => {
    const { actor, calls } = start({ whenClosed: 'cancel', request: { date: '2026-11-30' } }, { create: ['PENDING'], poll: ['COMPLETE'] });
    expect(actor.getSnapshot().value).toBe('submitting');
    expect(calls('create')).toEqual([expect.objectContaining({ request: { date: '2026-11-30' } })]);
    await vi.advanceTimersByTimeAsync(10);
    expect(actor.getSnapshot().matches({ running: 'waiting' })).toBe(true);
    await vi.advanceTimersByTimeAsync(JOB_POLL_INTERVAL_MS + 10);
    expect(calls('poll')).toHaveLength(1);
    expect(actor.getSnapshot().value).toBe('finished');
  });

  it('fails without a job when creating it fails', async () => {
    const refused = new ApiError(422, { message: 'Amelia Brown has no working hours.' }, 'fallback');
    const { actor, emitted, calls } = start({ whenClosed: 'cancel', request: {} }, { create: [refused] });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().output).toEqual({ job: null, error: refused, ended: 'failed' });
    expect(emitted).toEqual([{ type: 'failed', error: refused, detached: false }]);
    await vi.advanceTimersByTimeAsync(JOB_POLL_INTERVAL_MS * 2);
    expect(calls('poll')).toHaveLength(0);
  });
});

describe('job run: cancelling', () => {
  it('CANCEL asks the server to cancel and follows the job to CANCELLED', async () => {
    const { actor, emitted, calls } = start({ whenClosed: 'cancel' }, { cancel: ['CANCELLED'] });
    actor.send({ type: 'FOLLOW', job: job('INPROGRESS') });
    actor.send({ type: 'CANCEL' });
    expect(actor.getSnapshot().value).toBe('cancelling');
    expect(calls('cancel')).toEqual([expect.objectContaining({ id: 5 })]);
    await vi.advanceTimersByTimeAsync(10);
    expect(actor.getSnapshot().value).toBe('finished');
    expect(emitted).toEqual([{ type: 'finished', job: job('CANCELLED'), detached: false }]);
  });

  it('a refused cancel keeps following the job, keeping why', async () => {
    const tooLate = new ApiError(409, { message: 'The run already finished.' }, 'fallback');
    const { actor, calls } = start({ whenClosed: 'cancel' }, { cancel: [tooLate], poll: ['COMPLETE'] });
    actor.send({ type: 'FOLLOW', job: job('INPROGRESS') });
    actor.send({ type: 'CANCEL' });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().matches({ running: 'waiting' })).toBe(true);
    expect(actor.getSnapshot().context.error).toBe(tooLate);
    await vi.advanceTimersByTimeAsync(JOB_POLL_INTERVAL_MS + 10);
    expect(calls('poll')).toHaveLength(1);
    expect(actor.getSnapshot().output).toEqual({ job: job('COMPLETE'), error: tooLate, ended: 'finished' });
  });

  it.each([['answers', 'CANCELLED' as const], ['fails', new Error('offline')]])(
    'closing when whenClosed is cancel cancels the job, then stops (the server %s)',
    async (_, answer) => {
      const { actor, emitted, calls } = start({ whenClosed: 'cancel' }, { cancel: [answer], poll: ['INPROGRESS'] });
      actor.send({ type: 'FOLLOW', job: job('INPROGRESS') });
      await vi.advanceTimersByTimeAsync(JOB_POLL_INTERVAL_MS);
      const poll = calls('poll')[0];
      actor.send({ type: 'CLOSE' });
      expect(poll.signal.aborted).toBe(true);
      expect(actor.getSnapshot().value).toBe('closing');
      expect(calls('cancel')).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(10);
      expect(actor.getSnapshot().value).toBe('stopped');
      // Stopped, not finished: the job as last read was still running.
      expect(actor.getSnapshot().output).toEqual({ job: job('INPROGRESS'), error: null, ended: 'stopped' });
      expect(emitted).toEqual([]);
      await vi.advanceTimersByTimeAsync(JOB_POLL_INTERVAL_MS * 3);
      expect(calls('poll')).toHaveLength(1);
    },
  );
});
