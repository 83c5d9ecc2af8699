// One GET to an online geocoder with a timeout, answering its JSON or a GeocoderUnavailableError. Messages name the
// status, never the URL (it carries the address, and Google's carries the key).
import { GeocoderUnavailableError, type GeoSource } from './types';

export interface FetchJsonOptions {
  source: GeoSource;
  headers?: Record<string, string>;
  timeoutMs: number;
  signal?: AbortSignal;
  fetch?: typeof fetch;
}

export async function fetchJson(url: URL, options: FetchJsonOptions): Promise<unknown> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(url, { headers: { Accept: 'application/json', ...options.headers }, signal });
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    const message = timeout.aborted ? `no answer within ${options.timeoutMs} ms` : `request failed (${(error as Error).message})`;
    throw new GeocoderUnavailableError(options.source, message, { cause: error });
  }
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    throw new GeocoderUnavailableError(options.source, timeout.aborted ? `no answer within ${options.timeoutMs} ms` : 'the answer was cut off', { cause: error });
  }
  if (!response.ok) throw new GeocoderUnavailableError(options.source, `answered HTTP ${response.status}`);
  try {
    return JSON.parse(text);
  } catch {
    throw new GeocoderUnavailableError(options.source, 'answered something other than JSON');
  }
}

/** Waits until `at` (epoch ms), or rejects when the signal aborts. */
export function sleepUntil(at: number, signal?: AbortSignal): Promise<void> {
  const wait = at - Date.now();
  if (wait <= 0) return signal?.aborted ? Promise.reject(signal.reason) : Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, wait);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
}
