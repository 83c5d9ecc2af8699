// The phone's outbox of visit steps: a practitioner without signal still taps On my way, Arrived and Done. A step that
// cannot reach the server (no network, a connection that hangs, the server down, the session ended) waits here, kept in
// the phone's storage so a reload, a closed tab or a log out loses nothing, and is sent when the network is back: in
// the order the steps were taken, each with the time it was tapped and its idempotency key (so the server stores it
// once, however often it is sent). While steps wait, the next ones wait behind them, so a visit's Arrived never
// reaches the server before its On my way. A step the server refuses (the office reopened the visit meanwhile, say) is
// kept as refused and shown as "Not recorded" until the practitioner dismisses it: a step is never dropped unseen.
// Each user's steps are kept apart: only the user who took them sees them, and they are sent once that user is logged
// in again; another user on the same phone never sees or sends them.
import { ApiError } from '../api/errors';
import type { RecordedVisitStep, VisitState, VisitStepKind, VisitStepRequest } from '../api/visitSteps';
import { readStored, removeStored, writeStored } from './storage';

export interface WaitingStep {
  appointmentId: number;
  /** Who the visit is for, to say which visit a waiting or refused step is of. */
  clientName: string | null;
  step: VisitStepRequest;
}

export interface RefusedStep extends WaitingStep {
  message: string;
}

export interface OutboxSnapshot {
  waiting: readonly WaitingStep[];
  refused: readonly RefusedStep[];
}

/** What a step tapped came to: recorded by the server now, or waiting in the outbox. */
export type StepOutcome = RecordedVisitStep | { queued: true; state: VisitState };

export const isQueued = (outcome: StepOutcome): outcome is { queued: true; state: VisitState } => 'queued' in outcome;

/** The state a visit is in once a step is recorded (the server's rule, for the steps still waiting to reach it). */
export const STATE_AFTER: Record<VisitStepKind, VisitState> = {
  on_my_way: 'on_my_way', arrived: 'arrived', done: 'done', could_not_attend: 'could_not_attend', reopened: 'not_started',
};

/** The state a visit shows while steps of it wait: its last waiting step's, else none. */
export function waitingStateOf(snapshot: OutboxSnapshot, appointmentId: number): VisitState | null {
  const mine = snapshot.waiting.filter((item) => item.appointmentId === appointmentId);
  return mine.length ? STATE_AFTER[mine[mine.length - 1].step.step] : null;
}

export interface StepOutboxOptions {
  /** `signal` aborts a send that has had no answer within the time-out. */
  send: (appointmentId: number, step: VisitStepRequest, signal: AbortSignal) => Promise<RecordedVisitStep>;
  /** Told of each step the server recorded (the cache updates). */
  onRecorded: (result: RecordedVisitStep, appointmentId: number) => void;
  isOnline: () => boolean;
  /** How long after a failed send the outbox tries again by itself (the network's 'online' event also wakes it). */
  retryMs?: number;
  /** How long a send may go without an answer before the step is kept to send later. */
  sendTimeoutMs?: number;
}

export interface StepOutbox {
  /**
   * Sends the step now when it can, else keeps it to send later. A step the server refuses now is kept as refused and
   * the refusal thrown.
   */
  submit(appointmentId: number, clientName: string | null, step: VisitStepRequest): Promise<StepOutcome>;
  /** Sends what waits, in order, until the outbox is empty or the network fails again. */
  flush(): Promise<void>;
  /**
   * Whose steps the outbox holds: the logged-in user's id, or null when nobody is (nothing shown or sent then, and
   * nothing forgotten: each user's steps stay on the phone until they are sent or, refused, dismissed).
   */
  setUser(userId: number | null): void;
  /** The practitioner has read the refusals: all of them, or the one step with this idempotency key. */
  dismissRefused(idempotencyKey?: string): void;
  subscribe(listener: () => void): () => void;
  getSnapshot(): OutboxSnapshot;
  stop(): void;
}

const STORAGE_KEY = 'rounds.visitStepOutbox';
const RETRY_MS = 20_000;
export const SEND_TIMEOUT_MS = 10_000;
const EMPTY: OutboxSnapshot = { waiting: [], refused: [] };

const storageKeyOf = (userId: number) => `${STORAGE_KEY}.${userId}`;

/**
 * Not the server's answer about the step: no network, no answer in time, the server or a proxy down, or the session
 * ended (expired, or ended by a password change: the step is sent once its user logs in again). Worth sending again.
 */
function isUnreachable(error: unknown): boolean {
  if (!(error instanceof ApiError)) return true;
  return error.status === 0 || error.status === 401 || error.status === 408 || error.status === 429 || error.status >= 500;
}

class NoAnswer extends Error {
  constructor() {
    super('The step had no answer in time.');
    this.name = 'NoAnswer';
  }
}

const isStep = (item: unknown): item is WaitingStep => typeof item === 'object' && item !== null
  && typeof (item as WaitingStep).appointmentId === 'number' && typeof (item as WaitingStep).step?.idempotency_key === 'string';
const isStepList = (value: unknown): value is WaitingStep[] => Array.isArray(value) && value.every(isStep);
const isSnapshot = (value: unknown): value is OutboxSnapshot => typeof value === 'object' && value !== null
  && isStepList((value as OutboxSnapshot).waiting) && isStepList((value as OutboxSnapshot).refused)
  && (value as OutboxSnapshot).refused.every((item) => typeof item.message === 'string');

function readKept(userId: number): OutboxSnapshot {
  return readStored(storageKeyOf(userId), isSnapshot) ?? EMPTY;
}

function keep(userId: number, kept: OutboxSnapshot): void {
  // Without storage (a full quota, private mode) the steps live in memory, still sent while the page stays open.
  if (kept.waiting.length || kept.refused.length) writeStored(storageKeyOf(userId), kept);
  else removeStored(storageKeyOf(userId));
}

/**
 * Steps kept before the outbox kept them per user (one list, emptied at log out, so the user logged in now took them):
 * they become that user's.
 */
function adoptUnowned(userId: number): OutboxSnapshot {
  const kept = readKept(userId);
  const unowned = readStored(STORAGE_KEY, isStepList);
  if (!unowned) return kept;
  const adopted = { ...kept, waiting: [...unowned, ...kept.waiting] };
  keep(userId, adopted);
  removeStored(STORAGE_KEY);
  return adopted;
}

export function createStepOutbox(options: StepOutboxOptions): StepOutbox {
  const retryMs = options.retryMs ?? RETRY_MS;
  const sendTimeoutMs = options.sendTimeoutMs ?? SEND_TIMEOUT_MS;
  let userId: number | null = null;
  let snapshot: OutboxSnapshot = EMPTY;
  const listeners = new Set<() => void>();
  let flushing: Promise<void> | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;

  /** Changes the steps of `owner`: the ones shown when they are logged in, else those kept for them. */
  const update = (owner: number | null, change: (current: OutboxSnapshot) => OutboxSnapshot) => {
    if (owner !== userId) {
      // The user logged out (or another logged in) while this step was being sent: it is still theirs.
      if (owner !== null) keep(owner, change(readKept(owner)));
      return;
    }
    snapshot = change(snapshot);
    if (owner !== null) keep(owner, snapshot);
    for (const listener of listeners) listener();
  };

  const retryLater = () => {
    if (stopped || retryTimer !== null) return;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      void outbox.flush();
    }, retryMs);
  };

  /** The send, given up after the time-out (a hanging connection); the step's key makes a late answer harmless. */
  async function send(appointmentId: number, step: VisitStepRequest): Promise<RecordedVisitStep> {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const noAnswer = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new NoAnswer());
      }, sendTimeoutMs);
    });
    try {
      return await Promise.race([options.send(appointmentId, step, controller.signal), noAnswer]);
    } finally {
      clearTimeout(timer);
    }
  }

  async function drain(): Promise<void> {
    while (!stopped && userId !== null && snapshot.waiting.length > 0) {
      if (!options.isOnline()) return retryLater();
      const owner = userId;
      const [first] = snapshot.waiting;
      try {
        const result = await send(first.appointmentId, first.step);
        update(owner, (current) => ({ ...current, waiting: current.waiting.filter((item) => item.step.idempotency_key !== first.step.idempotency_key) }));
        options.onRecorded(result, first.appointmentId);
      } catch (error) {
        // A session that ended waits for its user to log in again (logging in flushes).
        if (error instanceof ApiError && error.status === 401) return;
        if (isUnreachable(error)) return retryLater();
        // The server's answer about this step (out of order after the office reopened the visit, no longer this
        // practitioner's visit, too old): it will never be taken, so it leaves the waiting steps and is shown refused.
        const { message } = error as ApiError;
        update(owner, (current) => ({
          waiting: current.waiting.filter((item) => item.step.idempotency_key !== first.step.idempotency_key),
          refused: [...current.refused, { ...first, message }],
        }));
      }
    }
  }

  const outbox: StepOutbox = {
    async submit(appointmentId, clientName, step) {
      const owner = userId;
      const item = { appointmentId, clientName, step };
      const queue = () => {
        update(owner, (current) => ({ ...current, waiting: [...current.waiting, item] }));
        retryLater();
        return { queued: true as const, state: STATE_AFTER[step.step] };
      };
      // Sent again (Try again after a refusal): no longer refused unless refused again.
      if (snapshot.refused.some((refused) => refused.step.idempotency_key === step.idempotency_key)) outbox.dismissRefused(step.idempotency_key);
      // Behind steps still waiting, or with no network: it waits its turn.
      if (snapshot.waiting.length > 0 || !options.isOnline()) return queue();
      try {
        return await send(appointmentId, step);
      } catch (error) {
        if (isUnreachable(error)) return queue();
        update(owner, (current) => ({ ...current, refused: [...current.refused, { ...item, message: (error as ApiError).message }] }));
        throw error;
      }
    },
    flush() {
      if (retryTimer !== null) {
        clearTimeout(retryTimer);
        retryTimer = null;
      }
      flushing ??= drain().finally(() => {
        flushing = null;
      });
      return flushing;
    },
    setUser(next) {
      if (next === userId) return;
      userId = next;
      snapshot = next === null ? EMPTY : adoptUnowned(next);
      for (const listener of listeners) listener();
    },
    dismissRefused(idempotencyKey) {
      update(userId, (current) => ({
        ...current,
        refused: idempotencyKey === undefined ? [] : current.refused.filter((item) => item.step.idempotency_key !== idempotencyKey),
      }));
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => snapshot,
    stop() {
      stopped = true;
      if (retryTimer !== null) clearTimeout(retryTimer);
      listeners.clear();
    },
  };
  return outbox;
}
