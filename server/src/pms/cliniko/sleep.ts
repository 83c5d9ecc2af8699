import { setTimeout as delay } from 'node:timers/promises';

/** Waits `ms`; if `signal` aborts first, rejects with the signal's own reason (not a generic AbortError). */
export async function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  signal?.throwIfAborted();
  try {
    await delay(ms, undefined, { signal });
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    throw error;
  }
}
