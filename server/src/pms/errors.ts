/**
 * Typed failures of a practice-management system call. Callers branch on the class:
 * - PmsAuthError: the key was refused (401/403) → set the provider account to CONNECTION_ERROR.
 * - PmsRateLimitError: still rate limited after the allowed waits → retry the job later.
 * - PmsUnavailableError: 5xx, timeouts or network failures after the allowed retries → retry later.
 * - PmsUnclearWriteError: a create or cancel got no clear answer (timeout, dropped connection, 5xx); the PMS may or
 *   may not have committed it → look the record up before writing again (never resend blindly).
 * - PmsValidationError: the PMS rejected a write (422); `message` is the PMS's own message.
 * - PmsNotFoundError: the record does not exist (404).
 * - PmsConflictError: a guarded write found the record changed since the caller last saw it.
 * - PmsMalformedRecordError: a single-record read returned a record that fails normalisation.
 * - PmsResponseError: any other unexpected answer (other 4xx, a body that is not the expected JSON).
 */
export class PmsError extends Error {
  /** HTTP status of the final response, when there was one. */
  readonly status: number | undefined;

  constructor(message: string, options: { status?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.status = options.status;
  }
}

export class PmsAuthError extends PmsError {}

export class PmsRateLimitError extends PmsError {
  /** When the PMS said the limit resets (from X-RateLimit-Reset), if it said. */
  readonly resetAt: Date | null;

  constructor(message: string, options: { resetAt: Date | null; status?: number; cause?: unknown }) {
    super(message, options);
    this.resetAt = options.resetAt;
  }
}

export class PmsUnavailableError extends PmsError {
  /** How many attempts were made before giving up. */
  readonly attempts: number;

  constructor(message: string, options: { attempts: number; status?: number; cause?: unknown }) {
    super(message, options);
    this.attempts = options.attempts;
  }
}

/**
 * A write that must not be sent twice (a create, a cancel) got no clear answer: the per-attempt timeout passed, the
 * connection dropped, or the PMS answered 5xx. The PMS may or may not have committed it, so the adapter did not resend
 * it. Look it up (a create: list the practitioner's appointments around its start and match the reference put in its
 * notes; a cancel: read the appointment) before writing again. Deliberately not a PmsUnavailableError, whose meaning is
 * "safe to retry later": a caller (or the job worker) that retries those must not resend a create.
 */
export class PmsUnclearWriteError extends PmsError {
  /** What the adapter saw instead of an answer, e.g. "HTTP 500", "timed out after 30000 ms". */
  readonly reason: string;

  constructor(message: string, options: { reason: string; status?: number; cause?: unknown }) {
    super(message, options);
    this.reason = options.reason;
  }
}

export class PmsValidationError extends PmsError {
  /** Field → message, as the PMS reported them (may be empty). */
  readonly errors: Record<string, string>;

  constructor(message: string, options: { errors: Record<string, string>; status?: number }) {
    super(message, options);
    this.errors = options.errors;
  }
}

export class PmsNotFoundError extends PmsError {}

export class PmsConflictError extends PmsError {
  readonly expectedUpdatedAt: string;
  readonly actualUpdatedAt: string;

  constructor(message: string, options: { expectedUpdatedAt: string; actualUpdatedAt: string }) {
    super(message);
    this.expectedUpdatedAt = options.expectedUpdatedAt;
    this.actualUpdatedAt = options.actualUpdatedAt;
  }
}

export class PmsMalformedRecordError extends PmsError {
  readonly problems: string[];

  constructor(message: string, options: { problems: string[] }) {
    super(message);
    this.problems = options.problems;
  }
}

export class PmsResponseError extends PmsError {}

/**
 * Not an answer of the PMS: the business's connection to it cannot be used (never connected, disconnected, setup
 * not finished, or its stored key cannot be decrypted). A job that meets it fails at once with this message.
 */
export class ProviderAccountUnusableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}
