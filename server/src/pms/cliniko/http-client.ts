import {
  PmsAuthError,
  PmsNotFoundError,
  PmsRateLimitError,
  PmsResponseError,
  PmsUnavailableError,
  PmsUnclearWriteError,
  PmsValidationError,
} from '../errors';
import type { SlidingWindowRateLimiter } from './rate-limiter';
import { sleep } from './sleep';
import { countRateLimitWait } from '../../operations/metrics';

export type ClinikoHttpEvent =
  | { type: 'retry'; method: string; url: string; attempt: number; delayMs: number; reason: string }
  | { type: 'rate_limited'; method: string; url: string; waitMs: number; resetAt: Date | null };

export interface ClinikoHttpOptions {
  apiKey: string;
  /** API root including /v1, no trailing slash. */
  baseUrl: string;
  userAgent: string;
  rateLimiter: SlidingWindowRateLimiter;
  requestTimeoutMs: number;
  /** Attempts for 5xx and network failures (timeouts included), first try included. */
  maxAttempts: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** How many 429s one request may wait out before PmsRateLimitError. */
  maxRateLimitWaits: number;
  /** A reset further away than this fails at once with PmsRateLimitError instead of waiting. */
  maxRateLimitWaitMs: number;
  onEvent?: (event: ClinikoHttpEvent) => void;
}

export type QueryValue = string | number | string[] | undefined;

export interface RequestOptions {
  query?: Record<string, QueryValue>;
  body?: unknown;
  signal?: AbortSignal;
  /**
   * Whether sending the request twice does no harm. Default: true for GET, false for POST and PATCH. A request that
   * is not idempotent is never resent once it may have reached the PMS: an unclear answer (5xx, timeout, dropped
   * connection) throws PmsUnclearWriteError. A PATCH that sets absolute values may pass true.
   */
  idempotent?: boolean;
}

/** Wait margin after X-RateLimit-Reset: the header has whole seconds and clocks differ slightly. */
const RESET_MARGIN_MS = 50;

/**
 * Authenticated JSON over HTTP for one Cliniko account: rate limiting, 429 waits, retries with jittered
 * exponential backoff for 5xx and network failures, a timeout per attempt, and typed errors.
 * Only idempotent requests (reads, PATCHes that set absolute values) are retried after an unclear answer; a create
 * or cancel is resent only when it certainly did not reach Cliniko (429, connection refused).
 */
export class ClinikoHttpClient {
  private readonly authorization: string;
  private readonly baseOrigin: string;
  private readonly basePath: string;

  constructor(private readonly options: ClinikoHttpOptions) {
    this.authorization = `Basic ${Buffer.from(`${options.apiKey}:`).toString('base64')}`;
    const base = new URL(options.baseUrl);
    this.baseOrigin = base.origin;
    this.basePath = base.pathname.replace(/\/+$/, '');
  }

  /** Builds a URL under the API root; `q[]` arrays become repeated parameters. */
  url(path: string, query: Record<string, QueryValue> = {}): string {
    const url = new URL(`${this.options.baseUrl}${path}`);
    for (const [name, value] of Object.entries(query)) {
      if (value === undefined) continue;
      if (Array.isArray(value)) for (const item of value) url.searchParams.append(name, item);
      else url.searchParams.set(name, String(value));
    }
    return url.toString();
  }

  /**
   * Follows only URLs on the configured API root, so a link in a response can never send the key elsewhere.
   */
  assertOwnUrl(url: string): string {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new PmsResponseError(`links.next is not a URL: ${JSON.stringify(url)}`);
    }
    if (parsed.origin !== this.baseOrigin || !parsed.pathname.startsWith(`${this.basePath}/`)) {
      throw new PmsResponseError(`refusing to follow a link outside ${this.options.baseUrl}: ${url}`);
    }
    return parsed.toString();
  }

  async request(method: string, pathOrUrl: string, options: RequestOptions = {}): Promise<unknown> {
    const url = /^https?:\/\//.test(pathOrUrl) ? this.assertOwnUrl(pathOrUrl) : this.url(pathOrUrl, options.query);
    const { signal } = options;
    const idempotent = options.idempotent ?? method === 'GET';
    const headers: Record<string, string> = {
      Accept: 'application/json',
      Authorization: this.authorization,
      'User-Agent': this.options.userAgent,
    };
    let body: string | undefined;
    if (options.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.body);
    }

    let failures = 0;
    let rateLimitWaits = 0;
    for (;;) {
      await this.options.rateLimiter.acquire(signal);
      let status: number;
      let responseHeaders: Headers;
      let text: string;
      try {
        const timeout = AbortSignal.timeout(this.options.requestTimeoutMs);
        const response = await fetch(url, {
          method,
          headers,
          body,
          redirect: 'error',
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        });
        status = response.status;
        responseHeaders = response.headers;
        text = await response.text();
      } catch (error) {
        if (signal?.aborted) throw signal.reason ?? error;
        failures += 1;
        const reason = describeNetworkError(error, this.options.requestTimeoutMs);
        if (!idempotent && !neverConnected(error)) throw unclearWrite(method, url, reason, { cause: error });
        if (failures >= this.options.maxAttempts) {
          throw new PmsUnavailableError(`${method} ${url} failed after ${failures} attempts: ${reason}`, {
            attempts: failures,
            cause: error,
          });
        }
        await this.backoff(method, url, failures, reason, signal);
        continue;
      }

      if (status === 429) {
        rateLimitWaits += 1;
        const resetAt = parseRateLimitReset(responseHeaders.get('x-ratelimit-reset'));
        const waitMs = resetAt
          ? Math.max(0, resetAt.getTime() - Date.now()) + RESET_MARGIN_MS
          : this.backoffDelay(rateLimitWaits);
        if (rateLimitWaits > this.options.maxRateLimitWaits || waitMs > this.options.maxRateLimitWaitMs) {
          throw new PmsRateLimitError(`${method} ${url}: rate limited by Cliniko (429)`, { resetAt, status });
        }
        this.options.rateLimiter.pauseUntil(Date.now() + waitMs);
        this.options.onEvent?.({ type: 'rate_limited', method, url, waitMs, resetAt });
        countRateLimitWait(waitMs);
        await sleep(waitMs, signal);
        continue;
      }

      if (status >= 500) {
        failures += 1;
        const reason = `HTTP ${status}`;
        if (!idempotent) throw unclearWrite(method, url, reason, { status });
        if (failures >= this.options.maxAttempts) {
          throw new PmsUnavailableError(`${method} ${url} failed after ${failures} attempts: ${reason}`, {
            attempts: failures,
            status,
          });
        }
        await this.backoff(method, url, failures, reason, signal);
        continue;
      }

      return this.interpret(method, url, status, text);
    }
  }

  private interpret(method: string, url: string, status: number, text: string): unknown {
    const parsed = parseJson(text);
    const message = serverMessage(parsed);
    if (status === 401 || status === 403) {
      throw new PmsAuthError(`Cliniko refused the API key (${status})${message ? `: ${message}` : ''}`, { status });
    }
    if (status === 404) throw new PmsNotFoundError(`${method} ${url}: not found`, { status });
    if (status === 422) {
      throw new PmsValidationError(message ?? 'Validation failed', { errors: validationErrors(parsed), status });
    }
    if (status < 200 || status >= 300) {
      throw new PmsResponseError(`${method} ${url}: unexpected HTTP ${status}${message ? `: ${message}` : ''}`, { status });
    }
    if (text.trim() === '') return null;
    if (parsed === undefined) {
      throw new PmsResponseError(`${method} ${url}: response body is not JSON`, { status });
    }
    return parsed;
  }

  private backoffDelay(attempt: number): number {
    const ceiling = Math.min(this.options.backoffMaxMs, this.options.backoffBaseMs * 2 ** (attempt - 1));
    // "Equal jitter": at least half the ceiling so retries never stampede at ~0 ms.
    return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
  }

  private async backoff(method: string, url: string, attempt: number, reason: string, signal?: AbortSignal) {
    const delayMs = this.backoffDelay(attempt);
    this.options.onEvent?.({ type: 'retry', method, url, attempt, delayMs, reason });
    await sleep(delayMs, signal);
  }
}

function unclearWrite(method: string, url: string, reason: string, options: { status?: number; cause?: unknown }) {
  return new PmsUnclearWriteError(
    `${method} ${url}: no clear answer from Cliniko (${reason}); it may or may not have been saved, so it was not sent again`,
    { reason, ...options },
  );
}

/** Failures that happen before a connection exists, so the request certainly did not reach the server. */
const CONNECT_FAILURES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']);

function neverConnected(error: unknown): boolean {
  const code = (error as { cause?: { code?: unknown } } | null)?.cause?.code;
  return typeof code === 'string' && CONNECT_FAILURES.has(code);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function serverMessage(body: unknown): string | null {
  if (body && typeof body === 'object' && typeof (body as { message?: unknown }).message === 'string') {
    return (body as { message: string }).message;
  }
  return null;
}

function validationErrors(body: unknown): Record<string, string> {
  const errors = body && typeof body === 'object' ? (body as { errors?: unknown }).errors : undefined;
  if (!errors || typeof errors !== 'object') return {};
  const result: Record<string, string> = {};
  for (const [field, value] of Object.entries(errors as Record<string, unknown>)) {
    result[field] = Array.isArray(value) ? value.map(String).join('; ') : String(value);
  }
  return result;
}

/** X-RateLimit-Reset is a UNIX timestamp in seconds (fractions accepted). */
export function parseRateLimitReset(header: string | null): Date | null {
  if (!header) return null;
  const seconds = Number(header);
  return Number.isFinite(seconds) && seconds > 0 ? new Date(seconds * 1000) : null;
}

function describeNetworkError(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && error.name === 'TimeoutError') return `timed out after ${timeoutMs} ms`;
  if (error instanceof Error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const detail = cause?.code ?? cause?.message;
    return detail ? `${error.message} (${detail})` : error.message;
  }
  return String(error);
}
