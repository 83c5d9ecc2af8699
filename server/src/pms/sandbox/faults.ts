import { SeededRandom } from '../../sample-data';

/**
 * Fault knobs of the sandbox, for tests and benchmarks. Rates are probabilities per request (or per record
 * for `malformedRate`) drawn from a seeded generator, so a run with the same requests repeats exactly; the
 * `*Next` counters fail exactly the next N API requests, for tests that need certainty.
 */
export interface SandboxFaults {
  /** Requests allowed per API key per window; null = unlimited. Over it: 429 with X-RateLimit-Reset. */
  rateLimitPerMinute: number | null;
  /** Length of the rate-limit window (Cliniko: one minute). Tests shrink it. */
  rateLimitWindowMs: number;
  /** The next N API requests are answered 429, to be retried after one window (counts down). */
  rateLimitNext: number;
  /** Added before every API response, in ms. */
  latencyMs: number;
  /** Share of API requests answered 500/502/503. */
  errorRate: number;
  /** The next N API requests are answered 503 (counts down). */
  errorNext: number;
  /** Share of records in responses that are corrupted (bad id, bad timestamp or missing link). */
  malformedRate: number;
  /** Share of API requests whose connection is destroyed without a response. */
  dropConnectionRate: number;
  /** The next N API requests have their connection destroyed (counts down). */
  dropNext: number;
  /** The next N writes (POST/PATCH) that succeed are committed, then answered 500 (counts down). */
  commitThenFailNext: number;
  /** The next N writes that succeed are committed, then their connection is destroyed unanswered (counts down). */
  commitThenDropNext: number;
  /** Writes that succeed are committed, then answered only after this many ms (a slow PMS). */
  commitThenDelayMs: number;
}

export const NO_FAULTS: SandboxFaults = {
  rateLimitPerMinute: null,
  rateLimitWindowMs: 60_000,
  rateLimitNext: 0,
  latencyMs: 0,
  errorRate: 0,
  errorNext: 0,
  malformedRate: 0,
  dropConnectionRate: 0,
  dropNext: 0,
  commitThenFailNext: 0,
  commitThenDropNext: 0,
  commitThenDelayMs: 0,
};

/** Validates a partial update (from code or the admin endpoint); errors name the field. */
export function validateFaults(input: unknown): Partial<SandboxFaults> {
  if (!input || typeof input !== 'object' || Array.isArray(input)) throw new FaultsInputError({ body: 'must be a JSON object' });
  const errors: Record<string, string> = {};
  const result: Partial<SandboxFaults> = {};
  for (const [key, value] of Object.entries(input as Record<string, unknown>)) {
    switch (key) {
      case 'rateLimitPerMinute':
        if (value === null || (Number.isInteger(value) && (value as number) > 0)) result.rateLimitPerMinute = value as number | null;
        else errors[key] = 'must be a positive integer or null';
        break;
      case 'rateLimitWindowMs':
      case 'latencyMs':
      case 'rateLimitNext':
      case 'errorNext':
      case 'dropNext':
      case 'commitThenFailNext':
      case 'commitThenDropNext':
      case 'commitThenDelayMs':
        if (Number.isInteger(value) && (value as number) >= 0 && (key !== 'rateLimitWindowMs' || (value as number) > 0)) {
          result[key] = value as number;
        } else errors[key] = key === 'rateLimitWindowMs' ? 'must be a positive integer' : 'must be a non-negative integer';
        break;
      case 'errorRate':
      case 'malformedRate':
      case 'dropConnectionRate':
        if (typeof value === 'number' && value >= 0 && value <= 1) result[key] = value;
        else errors[key] = 'must be a number from 0 to 1';
        break;
      default:
        errors[key] = 'is not a fault knob';
    }
  }
  if (Object.keys(errors).length > 0) throw new FaultsInputError(errors);
  return result;
}

export class FaultsInputError extends Error {
  constructor(readonly errors: Record<string, string>) {
    super(`invalid faults: ${Object.entries(errors).map(([k, v]) => `${k} ${v}`).join('; ')}`);
  }
}

/** What happens to a write's answer once the write is committed. */
export type AfterCommitFault = { kind: 'drop' } | { kind: 'error'; status: number } | { kind: 'none' };

export type FaultDecision =
  | { kind: 'drop' }
  | { kind: 'rate_limited'; resetEpochSeconds: number }
  | { kind: 'error'; status: number }
  | { kind: 'none' };

/** Decides, request by request, which fault (if any) the sandbox injects. */
export class FaultInjector {
  private faults: SandboxFaults;
  private readonly random: SeededRandom;
  private readonly windows = new Map<string, { startedAt: number; count: number }>();

  constructor(initial: Partial<SandboxFaults> = {}, seed = 1) {
    this.faults = { ...NO_FAULTS, ...validateFaults(initial) };
    this.random = new SeededRandom(seed);
  }

  current(): SandboxFaults {
    return { ...this.faults };
  }

  set(update: Partial<SandboxFaults>): SandboxFaults {
    this.faults = { ...this.faults, ...validateFaults(update) };
    if ('rateLimitPerMinute' in update || 'rateLimitWindowMs' in update) this.windows.clear();
    return this.current();
  }

  /** Before authentication: network-level faults. */
  connectionFault(): boolean {
    if (this.faults.dropNext > 0) {
      this.faults.dropNext -= 1;
      return true;
    }
    return this.faults.dropConnectionRate > 0 && this.random.chance(this.faults.dropConnectionRate);
  }

  /** After authentication: per-key rate limit, then server errors. */
  requestFault(apiKey: string, now = Date.now()): FaultDecision {
    if (this.faults.rateLimitNext > 0) {
      this.faults.rateLimitNext -= 1;
      return { kind: 'rate_limited', resetEpochSeconds: Math.ceil((now + this.faults.rateLimitWindowMs) / 1000) };
    }
    const limit = this.faults.rateLimitPerMinute;
    if (limit !== null) {
      let window = this.windows.get(apiKey);
      if (!window || now >= window.startedAt + this.faults.rateLimitWindowMs) {
        window = { startedAt: now, count: 0 };
        this.windows.set(apiKey, window);
      }
      if (window.count >= limit) {
        return { kind: 'rate_limited', resetEpochSeconds: Math.ceil((window.startedAt + this.faults.rateLimitWindowMs) / 1000) };
      }
      window.count += 1;
    }
    if (this.faults.errorNext > 0) {
      this.faults.errorNext -= 1;
      return { kind: 'error', status: 503 };
    }
    if (this.faults.errorRate > 0 && this.random.chance(this.faults.errorRate)) {
      return { kind: 'error', status: this.random.pick([500, 502, 503]) };
    }
    return { kind: 'none' };
  }

  /** After a write was committed: drop its connection, or answer 500, instead of the answer (counters count down). */
  afterCommitFault(): AfterCommitFault {
    if (this.faults.commitThenDropNext > 0) {
      this.faults.commitThenDropNext -= 1;
      return { kind: 'drop' };
    }
    if (this.faults.commitThenFailNext > 0) {
      this.faults.commitThenFailNext -= 1;
      return { kind: 'error', status: 500 };
    }
    return { kind: 'none' };
  }

  commitThenDelayMs(): number {
    return this.faults.commitThenDelayMs;
  }

  latencyMs(): number {
    return this.faults.latencyMs;
  }

  /** Whether to corrupt the next record of a response. */
  corruptRecord(): boolean {
    return this.faults.malformedRate > 0 && this.random.chance(this.faults.malformedRate);
  }

  corruptionVariant(count: number): number {
    return this.random.int(0, count - 1);
  }
}

/**
 * Corrupts a serialised record the way a buggy upstream might: a numeric id (which loses digits in JSON),
 * an unparseable timestamp, or (appointments) a missing practitioner link.
 */
export function corrupt(record: Record<string, unknown>, variant: number): Record<string, unknown> {
  const copy = { ...record };
  switch (variant % 3) {
    case 0:
      copy.id = Number(copy.id);
      break;
    case 1:
      copy.updated_at = 'not-a-timestamp';
      if ('starts_at' in copy) copy.starts_at = '25/12/2026 9am';
      break;
    default:
      if ('practitioner' in copy) delete copy.practitioner;
      else copy.updated_at = null;
  }
  return copy;
}
