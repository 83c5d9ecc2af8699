import { describe, expect, it } from 'vitest';
import { rateLimiterForKey, SlidingWindowRateLimiter } from './rate-limiter';

/** The largest number of starts inside any window of `windowMs`. */
function maxInAnyWindow(starts: number[], windowMs: number): number {
  let max = 0;
  for (let i = 0; i < starts.length; i++) {
    let count = 0;
    for (let j = i; j < starts.length && starts[j] < starts[i] + windowMs; j++) count++;
    max = Math.max(max, count);
  }
  return max;
}

describe('SlidingWindowRateLimiter', () => {
  it('never lets more than the limit start within one window, even with concurrent callers', async () => {
    const limiter = new SlidingWindowRateLimiter(5, 200);
    const starts: number[] = [];
    const began = Date.now();
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        await limiter.acquire();
        starts.push(Date.now());
      }),
    );
    const elapsed = Date.now() - began;
    starts.sort((a, b) => a - b);
    // A start is seen when its caller resumes, which a loaded machine can delay by tens of milliseconds, so the
    // windows counted here are a little shorter than the limiter's (without a limit all 16 fall in one).
    expect(maxInAnyWindow(starts, 150)).toBeLessThanOrEqual(5);
    // 16 requests at 5 per 200 ms need at least three full windows of waiting.
    expect(elapsed).toBeGreaterThanOrEqual(600);
    expect(elapsed).toBeLessThan(3000);
  });

  it('lets a burst up to the limit through at once', async () => {
    const limiter = new SlidingWindowRateLimiter(10, 1000);
    const began = Date.now();
    for (let i = 0; i < 10; i++) await limiter.acquire();
    // Holding any of them back would cost a whole window (1 s); the slack is for a loaded machine.
    expect(Date.now() - began).toBeLessThan(700);
  });

  it('holds everyone back during a pause (after a 429)', async () => {
    const limiter = new SlidingWindowRateLimiter(100, 1000);
    limiter.pauseUntil(Date.now() + 120);
    const began = Date.now();
    await limiter.acquire();
    expect(Date.now() - began).toBeGreaterThanOrEqual(115);
  });

  it('stops waiting when the caller aborts, and keeps serving the others', async () => {
    const limiter = new SlidingWindowRateLimiter(1, 1000);
    await limiter.acquire();
    const controller = new AbortController();
    const waiting = limiter.acquire(controller.signal);
    const next = limiter.acquire();
    controller.abort(new Error('job cancelled'));
    await expect(waiting).rejects.toThrow('job cancelled');
    const began = Date.now();
    await next;
    // Had the aborted waiter kept its turn, the next caller would wait a second window (~2 s, not ~1 s).
    expect(Date.now() - began).toBeLessThan(1600);
  });

  it('validates its configuration', () => {
    expect(() => new SlidingWindowRateLimiter(0, 1000)).toThrow(/requestsPerWindow/);
    expect(() => new SlidingWindowRateLimiter(10, 0)).toThrow(/rateLimitWindowMs/);
  });

  it('is shared per API key', () => {
    expect(rateLimiterForKey('key-a', 200, 60_000)).toBe(rateLimiterForKey('key-a', 200, 60_000));
    expect(rateLimiterForKey('key-a', 200, 60_000)).not.toBe(rateLimiterForKey('key-b', 200, 60_000));
  });
});
