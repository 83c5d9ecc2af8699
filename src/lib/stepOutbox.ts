// The phone's outbox of visit steps: a practitioner without signal still taps On my way, Arrived and Done. A step that
// cannot reach the server (no network, or the server down) waits here, kept in the phone's storage so a reload or a
// closed tab loses nothing, and is sent when the network is back: in the order the steps were taken, each with the time
// it was tapped and its idempotency key (so the server stores it once, however often it is sent). While steps wait,
// the next ones wait behind them, so a visit's Arrived never reaches the server before its On my way. A step the
// server refuses (the office reopened the visit meanwhile, say) is dropped from the outbox and said in words.
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
  send: (appointmentId: number, step: VisitStepRequest) => Promise<RecordedVisitStep>;
  /** Told of each step the server recorded (the cache updates). */
  onRecorded: (result: RecordedVisitStep, appointmentId: number) => void;
  isOnline: () => boolean;
  /** How long after a failed send the outbox tries again by itself (the network's 'online' event also wakes it). */
  retryMs?: number;
}

export interface StepOutbox {
  /** Sends the step now when it can, else keeps it to send later. Throws the server's refusal of a step sent now. */
  submit(appointmentId: number, clientName: string | null, step: VisitStepRequest): Promise<StepOutcome>;
  /** Sends what waits, in order, until the outbox is empty or the network fails again. */
  flush(): Promise<void>;
  dismissRefused(): void;
  /** Forgets everything (logging out: nothing of one user stays on the phone for the next). */
  clear(): void;
  subscribe(listener: () => void): () => void;
  getSnapshot(): OutboxSnapshot;
  stop(): void;
}

const STORAGE_KEY = 'rounds.visitStepOutbox';
const RETRY_MS = 20_000;

/** Not the server's answer about the step: no network, a timeout, the server or a proxy down. Worth sending again. */
function isUnreachable(error: unknown): boolean {
  if (!(error instanceof ApiError)) return true;
  return error.status === 0 || error.status === 408 || error.status === 429 || error.status >= 500;
}

const isStepList = (value: unknown): value is WaitingStep[] => Array.isArray(value)
  && value.every((item) => typeof item === 'object' && item !== null && typeof item.appointmentId === 'number' && typeof item.step?.idempotency_key === 'string');

export function createStepOutbox(options: StepOutboxOptions): StepOutbox {
  const retryMs = options.retryMs ?? RETRY_MS;
  let snapshot: OutboxSnapshot = { waiting: readStored(STORAGE_KEY, isStepList) ?? [], refused: [] };
  const listeners = new Set<() => void>();
  let flushing: Promise<void> | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;

  const publish = (next: OutboxSnapshot) => {
    snapshot = next;
    // Without storage (a full quota, private mode) the steps live in memory, still sent while the page stays open.
    if (next.waiting.length) writeStored(STORAGE_KEY, next.waiting);
    else removeStored(STORAGE_KEY);
    for (const listener of listeners) listener();
  };

  const retryLater = () => {
    if (stopped || retryTimer !== null) return;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      void outbox.flush();
    }, retryMs);
  };

  async function drain(): Promise<void> {
    while (!stopped && snapshot.waiting.length > 0) {
      if (!options.isOnline()) return retryLater();
      const [first] = snapshot.waiting;
      try {
        const result = await options.send(first.appointmentId, first.step);
        publish({ ...snapshot, waiting: snapshot.waiting.filter((item) => item !== first) });
        options.onRecorded(result, first.appointmentId);
      } catch (error) {
        if (isUnreachable(error)) return retryLater();
        // The server's answer about this step (out of order after the office reopened the visit, no longer this
        // practitioner's visit): it will never be taken, so it leaves the outbox and is said.
        const { message } = error as ApiError;
        publish({ waiting: snapshot.waiting.filter((item) => item !== first), refused: [...snapshot.refused, { ...first, message }] });
      }
    }
  }

  const outbox: StepOutbox = {
    async submit(appointmentId, clientName, step) {
      const queue = () => {
        publish({ ...snapshot, waiting: [...snapshot.waiting, { appointmentId, clientName, step }] });
        retryLater();
        return { queued: true as const, state: STATE_AFTER[step.step] };
      };
      // Behind steps still waiting, or with no network: it waits its turn.
      if (snapshot.waiting.length > 0 || !options.isOnline()) return queue();
      try {
        return await options.send(appointmentId, step);
      } catch (error) {
        if (isUnreachable(error)) return queue();
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
    dismissRefused() {
      if (snapshot.refused.length) publish({ ...snapshot, refused: [] });
    },
    clear() {
      publish({ waiting: [], refused: [] });
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
