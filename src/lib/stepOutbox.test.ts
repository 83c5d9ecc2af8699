// @vitest-environment jsdom
// The phone's outbox of visit steps: what waits without signal, in what order it is sent, that each step reaches the
// server once with the time it was tapped, and that nothing is lost: not across a reload, a log out, an ended session,
// a connection that hangs or a refusal; and that each user's steps are theirs alone.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/errors';
import type { RecordedVisitStep, VisitStepRequest } from '../api/visitSteps';
import { createStepOutbox, isQueued, waitingStateOf, type StepOutbox } from './stepOutbox';

const step = (kind: VisitStepRequest['step'], minute: number): VisitStepRequest => ({
  step: kind, at: `2026-11-24T00:${String(minute).padStart(2, '0')}:00.000Z`, idempotency_key: `${kind}-${minute}`,
});

/** A server that stores each idempotency key once, and a network that can be cut. */
function fakeServer() {
  const stored: { appointmentId: number; step: VisitStepRequest }[] = [];
  const state = { online: true, refuse: null as null | ((step: VisitStepRequest) => ApiError | null) };
  const send = async (appointmentId: number, body: VisitStepRequest): Promise<RecordedVisitStep> => {
    if (!state.online) throw new TypeError('Failed to fetch');
    const refusal = state.refuse?.(body);
    if (refusal) throw refusal;
    if (!stored.some((item) => item.step.idempotency_key === body.idempotency_key)) stored.push({ appointmentId, step: body });
    return { step: { appointment_id: appointmentId, step: body.step, at: body.at } , appointment: { id: appointmentId, visit_state: 'on_my_way' } } as unknown as RecordedVisitStep;
  };
  return { stored, state, send };
}

const PAT = 7;
const SAM = 8;

let outboxes: StepOutbox[] = [];
/** The outbox of a page load, with `userId` logged in (Pat unless told). */
function outboxOn(server: ReturnType<typeof fakeServer>, recorded: number[] = [], userId: number | null = PAT) {
  const outbox = createStepOutbox({
    send: server.send, onRecorded: (_, id) => recorded.push(id), isOnline: () => server.state.online, retryMs: 60_000,
  });
  outbox.setUser(userId);
  outboxes.push(outbox);
  return outbox;
}

beforeEach(() => localStorage.clear());
afterEach(() => {
  for (const outbox of outboxes) outbox.stop();
  outboxes = [];
  vi.useRealTimers();
});

describe('the visit step outbox', () => {
  it('sends a step at once while the network is up', async () => {
    const server = fakeServer();
    const outbox = outboxOn(server);
    const outcome = await outbox.submit(1, 'Mary', step('on_my_way', 1));
    expect(isQueued(outcome)).toBe(false);
    expect(server.stored).toHaveLength(1);
    expect(outbox.getSnapshot().waiting).toEqual([]);
  });

  it('keeps steps taken without signal and sends them in order, once each, with the times they were tapped', async () => {
    const server = fakeServer();
    const recorded: number[] = [];
    const outbox = outboxOn(server, recorded);
    server.state.online = false;
    expect(await outbox.submit(1, 'Mary', step('on_my_way', 1))).toEqual({ queued: true, state: 'on_my_way' });
    expect(await outbox.submit(1, 'Mary', step('arrived', 20))).toEqual({ queued: true, state: 'arrived' });
    expect(await outbox.submit(2, 'Bert', step('on_my_way', 45))).toEqual({ queued: true, state: 'on_my_way' });
    expect(waitingStateOf(outbox.getSnapshot(), 1)).toBe('arrived');
    expect(waitingStateOf(outbox.getSnapshot(), 3)).toBeNull();

    // Still offline: nothing is sent, nothing is lost.
    await outbox.flush();
    expect(server.stored).toEqual([]);

    server.state.online = true;
    await outbox.flush();
    await outbox.flush();
    expect(server.stored.map((item) => [item.appointmentId, item.step.step, item.step.at])).toEqual([
      [1, 'on_my_way', '2026-11-24T00:01:00.000Z'], [1, 'arrived', '2026-11-24T00:20:00.000Z'], [2, 'on_my_way', '2026-11-24T00:45:00.000Z'],
    ]);
    expect(recorded).toEqual([1, 1, 2]);
    expect(outbox.getSnapshot().waiting).toEqual([]);
  });

  it('puts a step behind those still waiting, even once the network is back, so a visit’s steps keep their order', async () => {
    const server = fakeServer();
    const outbox = outboxOn(server);
    server.state.online = false;
    await outbox.submit(1, 'Mary', step('on_my_way', 1));
    server.state.online = true;
    expect(isQueued(await outbox.submit(1, 'Mary', step('arrived', 2)))).toBe(true);
    await outbox.flush();
    expect(server.stored.map((item) => item.step.step)).toEqual(['on_my_way', 'arrived']);
  });

  it('keeps what waits across a reload of the page', async () => {
    const server = fakeServer();
    server.state.online = false;
    await outboxOn(server).submit(1, 'Mary', step('on_my_way', 1));
    const reloaded = outboxOn(server);
    expect(reloaded.getSnapshot().waiting).toEqual([{ appointmentId: 1, clientName: 'Mary', step: step('on_my_way', 1) }]);
    server.state.online = true;
    await reloaded.flush();
    expect(server.stored).toHaveLength(1);
    expect(outboxOn(server).getSnapshot().waiting).toEqual([]);
  });

  it('tries again later when the server is down, and keeps a step the server refuses, with its reason, until it is dismissed', async () => {
    const server = fakeServer();
    const outbox = outboxOn(server);
    server.state.online = false;
    await outbox.submit(1, 'Mary', step('on_my_way', 1));
    await outbox.submit(1, 'Mary', step('done', 30));
    await outbox.submit(2, 'Bert', step('on_my_way', 40));
    server.state.online = true;
    server.state.refuse = (body) => (body.step === 'on_my_way' && body.idempotency_key === 'on_my_way-1'
      ? new ApiError(503, { message: 'Service unavailable' }, 'x') : null);
    await outbox.flush();
    expect(server.stored).toEqual([]);
    expect(outbox.getSnapshot().waiting).toHaveLength(3);

    server.state.refuse = (body) => (body.step === 'done' ? new ApiError(409, { message: 'The office reopened this visit at 10:15.' }, 'x') : null);
    await outbox.flush();
    expect(server.stored.map((item) => item.step.idempotency_key)).toEqual(['on_my_way-1', 'on_my_way-40']);
    const refused = [{ appointmentId: 1, clientName: 'Mary', step: step('done', 30), message: 'The office reopened this visit at 10:15.' }];
    expect(outbox.getSnapshot()).toEqual({ waiting: [], refused });
    // Still there after a reload, until the practitioner has read it.
    expect(outboxOn(server).getSnapshot().refused).toEqual(refused);
    outbox.dismissRefused();
    expect(outbox.getSnapshot().refused).toEqual([]);
    expect(outboxOn(server).getSnapshot().refused).toEqual([]);
  });

  it('keeps a step sent now and refused as refused, throwing the refusal, and forgets the refusal when it is sent again', async () => {
    const server = fakeServer();
    const outbox = outboxOn(server);
    server.state.refuse = () => new ApiError(403, { message: 'Not your visit.' }, 'x');
    await expect(outbox.submit(1, 'Mary', step('on_my_way', 1))).rejects.toThrow('Not your visit.');
    expect(outbox.getSnapshot()).toEqual({ waiting: [], refused: [{ appointmentId: 1, clientName: 'Mary', step: step('on_my_way', 1), message: 'Not your visit.' }] });
    server.state.refuse = null;
    await outbox.submit(1, 'Mary', step('on_my_way', 1));
    expect(outbox.getSnapshot()).toEqual({ waiting: [], refused: [] });
    expect(server.stored).toHaveLength(1);
  });

  it('queues a step whose send has no answer within 10 s, and sends it again later under the same key', async () => {
    vi.useFakeTimers();
    const server = fakeServer();
    const hanging = { on: true };
    const outbox = createStepOutbox({
      send: (id, body, signal) => (hanging.on ? new Promise((_, reject) => signal.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')))) : server.send(id, body)),
      onRecorded: () => {}, isOnline: () => true, retryMs: 60_000,
    });
    outbox.setUser(PAT);
    outboxes.push(outbox);
    let outcome: unknown = null;
    void outbox.submit(1, 'Mary', step('on_my_way', 1)).then((value) => { outcome = value; });
    await vi.advanceTimersByTimeAsync(9_999);
    expect(outcome).toBeNull();
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome).toEqual({ queued: true, state: 'on_my_way' });
    // Kept on the phone: a reload now loses nothing.
    expect(outboxOn(server).getSnapshot().waiting).toEqual([{ appointmentId: 1, clientName: 'Mary', step: step('on_my_way', 1) }]);

    hanging.on = false;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(server.stored.map((item) => item.step.idempotency_key)).toEqual(['on_my_way-1']);
    expect(outbox.getSnapshot().waiting).toEqual([]);
  });

  it('keeps a step whose session has ended (401) for its user, and sends it once they are logged in again', async () => {
    const server = fakeServer();
    const outbox = outboxOn(server);
    server.state.refuse = () => {
      // The app hears the 401 before the send answers: the user is logged out.
      outbox.setUser(null);
      return new ApiError(401, { message: 'Your session has expired.' }, 'x');
    };
    expect(await outbox.submit(1, 'Mary', step('arrived', 5))).toEqual({ queued: true, state: 'arrived' });
    expect(outbox.getSnapshot()).toEqual({ waiting: [], refused: [] });

    server.state.refuse = null;
    outbox.setUser(PAT);
    expect(outbox.getSnapshot().waiting).toEqual([{ appointmentId: 1, clientName: 'Mary', step: step('arrived', 5) }]);
    await outbox.flush();
    expect(server.stored.map((item) => item.step.idempotency_key)).toEqual(['arrived-5']);
  });

  it('keeps each user’s steps for them alone across a log out: another user neither sees nor sends them', async () => {
    const server = fakeServer();
    server.state.online = false;
    const outbox = outboxOn(server);
    await outbox.submit(1, 'Mary', step('on_my_way', 1));
    outbox.setUser(null);
    expect(outbox.getSnapshot().waiting).toEqual([]);

    server.state.online = true;
    outbox.setUser(SAM);
    await outbox.flush();
    expect(outbox.getSnapshot()).toEqual({ waiting: [], refused: [] });
    expect(server.stored).toEqual([]);
    outbox.setUser(null);

    // Pat logs in again, after a reload.
    const again = outboxOn(server);
    expect(again.getSnapshot().waiting).toEqual([{ appointmentId: 1, clientName: 'Mary', step: step('on_my_way', 1) }]);
    await again.flush();
    expect(server.stored.map((item) => item.step.idempotency_key)).toEqual(['on_my_way-1']);
  });

  it('adopts the steps an earlier version of the app kept for the user logged in', () => {
    localStorage.setItem('rounds.visitStepOutbox', JSON.stringify([{ appointmentId: 1, clientName: 'Mary', step: step('on_my_way', 1) }]));
    const outbox = outboxOn(fakeServer());
    expect(outbox.getSnapshot().waiting).toEqual([{ appointmentId: 1, clientName: 'Mary', step: step('on_my_way', 1) }]);
    expect(localStorage.getItem('rounds.visitStepOutbox')).toBeNull();
  });
});
