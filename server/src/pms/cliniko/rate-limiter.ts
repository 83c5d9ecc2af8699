import { createHash } from 'node:crypto';
import { sleep } from './sleep';
import { countRateLimitWait } from '../../operations/metrics';

/**
 * Client-side limiter: at most `limit` request starts in any sliding window of `windowMs`, handed out in
 * arrival order. Cliniko limits per user (i.e. per API key), so every client using one key should share one
 * limiter (see rateLimiterForKey). `pauseUntil` holds everyone back after the server answered 429.
 */
export class SlidingWindowRateLimiter {
  private readonly starts: number[] = [];
  private pausedUntil = 0;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {
    if (!Number.isInteger(limit) || limit < 1) throw new Error(`requestsPerWindow: must be a positive integer, got ${limit}`);
    if (!(windowMs > 0)) throw new Error(`rateLimitWindowMs: must be positive, got ${windowMs}`);
  }

  /** Resolves when the caller may start a request; rejects if `signal` aborts while waiting. */
  acquire(signal?: AbortSignal): Promise<void> {
    const turn = this.queue.then(() => this.waitForSlot(signal));
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  pauseUntil(epochMs: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, epochMs);
  }

  private async waitForSlot(signal?: AbortSignal): Promise<void> {
    for (;;) {
      signal?.throwIfAborted();
      const now = Date.now();
      if (now < this.pausedUntil) {
        countRateLimitWait(this.pausedUntil - now);
        await sleep(this.pausedUntil - now, signal);
        continue;
      }
      while (this.starts.length > 0 && this.starts[0] <= now - this.windowMs) this.starts.shift();
      if (this.starts.length < this.limit) {
        this.starts.push(now);
        return;
      }
      countRateLimitWait(this.starts[0] + this.windowMs - now + 1);
      await sleep(this.starts[0] + this.windowMs - now + 1, signal);
    }
  }
}

const sharedLimiters = new Map<string, SlidingWindowRateLimiter>();

/** One limiter per API key (and limit) for the life of the process. */
export function rateLimiterForKey(apiKey: string, limit: number, windowMs: number): SlidingWindowRateLimiter {
  const id = `${createHash('sha256').update(apiKey).digest('hex')}:${limit}:${windowMs}`;
  let limiter = sharedLimiters.get(id);
  if (!limiter) {
    limiter = new SlidingWindowRateLimiter(limit, windowMs);
    sharedLimiters.set(id, limiter);
  }
  return limiter;
}
