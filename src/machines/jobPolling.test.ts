import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { ApiError } from '../api/errors';
import { JOB_POLL_INTERVAL_MS, type JobKind, type JobStatus, type SyncJob } from '../api/jobs';
import { jobPollingMachine, type JobPollingEmitted } from './jobPolling';

const job = (status: JobStatus, id = 5): SyncJob => ({
  id,
  status,
  result: null,
  start_date: '2026-11-22',
  end_date: '2026-11-29',
  error_message: status === 'ERROR' ? 'boom' : null,
  created_at: '2026-11-22T00:00:00Z',
});

/** A fake server: each fetch answers the next of `answers` (a status, or an Error to fail with). */
function start(kind: JobKind, answers: Array<JobStatus | Error>) {
  const requests: Array<{ id: number; kind: JobKind; signal: AbortSignal }> = [];
  const machine = jobPollingMachine.provide({
    actors: {
      fetchJob: fromPromise(async ({ input, signal }) => {
        requests.push({ ...input, signal });
        const answer = answers[Math.min(requests.length - 1, answers.length - 1)];
        if (answer instanceof Error) throw answer;
        // Resolved on the next macrotask so a CLOSE can arrive while the request is in flight.
        await new Promise((resolve) => setTimeout(resolve, 10));
        return job(answer, input.id);
      }),
    },
  });
  const actor = createActor(machine, { input: { kind } });
  const emitted: JobPollingEmitted[] = [];
  actor.on('*', (event) => emitted.push(event));
  actor.start();
  return { actor, emitted, requests };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('job polling', () => {
  it('polls every JOB_POLL_INTERVAL_MS until the status is terminal, then emits completed once', async () => {
    const { actor, emitted, requests } = start('import', ['PENDING', 'INPROGRESS', 'COMPLETE']);
    actor.send({ type: 'TRACK', job: job('PENDING') });
    expect(actor.getSnapshot().matches({ tracking: 'waiting' })).toBe(true);
    await vi.advanceTimersByTimeAsync(JOB_POLL_INTERVAL_MS - 1);
    expect(requests).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(requests).toEqual([expect.objectContaining({ id: 5, kind: 'import' })]);
    await vi.advanceTimersByTimeAsync(10 + JOB_POLL_INTERVAL_MS + 10 + JOB_POLL_INTERVAL_MS + 10);
    expect(requests).toHaveLength(3);
    expect(actor.getSnapshot().value).toBe('finished');
    expect(actor.getSnapshot().context.job?.status).toBe('COMPLETE');
    expect(emitted).toEqual([{ type: 'completed', job: job('COMPLETE'), detached: false }]);
    await vi.advanceTimersByTimeAsync(JOB_POLL_INTERVAL_MS * 3);
    expect(requests).toHaveLength(3);
  });

  it('does not poll a job that is already finished when tracked', async () => {
    const { actor, emitted, requests } = start('export', ['COMPLETE']);
    actor.send({ type: 'TRACK', job: job('ERROR') });
    expect(actor.getSnapshot().value).toBe('finished');
    expect(emitted.map((event) => event.type)).toEqual(['completed']);
    await vi.advanceTimersByTimeAsync(JOB_POLL_INTERVAL_MS * 2);
    expect(requests).toHaveLength(0);
  });

  it.each(['ERROR', 'CANCELLED'] as const)('stops at %s', async (status) => {
    const { actor, emitted } = start('import', [status]);
    actor.send({ type: 'TRACK', job: job('PENDING') });
    await vi.advanceTimersByTimeAsync(JOB_POLL_INTERVAL_MS + 10);
    expect(actor.getSnapshot().value).toBe('finished');
    expect(emitted).toEqual([{ type: 'completed', job: job(status), detached: false }]);
  });

  it('stops polling when a poll fails, keeping the server’s message', async () => {
    const { actor, emitted, requests } = start('import', [new ApiError(500, { message: 'Database unavailable.' }, 'fallback')]);
    actor.send({ type: 'TRACK', job: job('PENDING') });
    await vi.advanceTimersByTimeAsync(JOB_POLL_INTERVAL_MS);
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.pollError).toBe('Database unavailable.');
    expect(emitted).toEqual([{ type: 'pollFailed', message: 'Database unavailable.', detached: false }]);
    await vi.advanceTimersByTimeAsync(JOB_POLL_INTERVAL_MS * 3);
    expect(requests).toHaveLength(1);
  });

  it('closing an import stops polling and aborts the request in flight', async () => {
    const { actor, emitted, requests } = start('import', ['INPROGRESS']);
    actor.send({ type: 'TRACK', job: job('PENDING') });
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

  it('closing an export keeps polling in the background until it ends', async () => {
    const { actor, emitted, requests } = start('export', ['INPROGRESS', 'COMPLETE']);
    actor.send({ type: 'TRACK', job: job('PENDING') });
    await vi.advanceTimersByTimeAsync(JOB_POLL_INTERVAL_MS);
    actor.send({ type: 'CLOSE' });
    expect(requests[0].signal.aborted).toBe(false);
    expect(actor.getSnapshot().context.detached).toBe(true);
    await vi.advanceTimersByTimeAsync(10 + JOB_POLL_INTERVAL_MS + 10);
    expect(requests).toHaveLength(2);
    expect(actor.getSnapshot().value).toBe('finished');
    expect(emitted).toEqual([{ type: 'completed', job: job('COMPLETE'), detached: true }]);
  });

  it('ignores CLOSE before anything was created', () => {
    const { actor } = start('import', ['COMPLETE']);
    actor.send({ type: 'CLOSE' });
    expect(actor.getSnapshot().value).toBe('idle');
  });
});
