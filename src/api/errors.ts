// Turning error bodies ({ message, errors?, code? }) into something a view can show.

/** The account codes an error body's `code` may carry, one name each (the server's OpenAPI lists them). */
export const ACCOUNT_CODES = {
  USER_NOT_ACTIVE: '40000',
  BUSINESS_ACCOUNT_NOT_ACTIVE: '40001',
  PAYMENT_METHOD_REQUIRED: '40003',
  PROVIDER_ACCOUNT_NOT_ACTIVE: 'PROVIDER_ACCOUNT_NOT_ACTIVE',
  PROVIDER_ACCOUNT_NOT_SETUP: 'PROVIDER_ACCOUNT_NOT_SETUP',
} as const;

export type AccountCode = (typeof ACCOUNT_CODES)[keyof typeof ACCOUNT_CODES];

/** The numeric spellings of the provider-account codes, read as the named code they stand for. */
const NUMERIC_ALIASES: Readonly<Record<string, AccountCode>> = {
  '40002': ACCOUNT_CODES.PROVIDER_ACCOUNT_NOT_ACTIVE,
  '40004': ACCOUNT_CODES.PROVIDER_ACCOUNT_NOT_SETUP,
};

function accountCodeOf(code: string | undefined): string | undefined {
  return code === undefined ? undefined : (NUMERIC_ALIASES[code] ?? code);
}

export function isNotSetUpCode(code: string | undefined): boolean {
  return accountCodeOf(code) === ACCOUNT_CODES.PROVIDER_ACCOUNT_NOT_SETUP;
}

export function isPaymentRequiredCode(code: string | undefined): boolean {
  return code === ACCOUNT_CODES.PAYMENT_METHOD_REQUIRED;
}

export function isNotActiveCode(code: string | undefined): boolean {
  return accountCodeOf(code) === ACCOUNT_CODES.PROVIDER_ACCOUNT_NOT_ACTIVE;
}

const GENERIC_ERROR_MESSAGE = 'An error has occurred';

interface ErrorBodyShape {
  message?: unknown;
  errors?: unknown;
  code?: unknown;
}

function asErrorBody(body: unknown): ErrorBodyShape {
  return typeof body === 'object' && body !== null ? (body as ErrorBodyShape) : {};
}

/** The server's message, else the first of its errors, else the fallback. */
export function errorMessageFrom(body: unknown, fallback: string = GENERIC_ERROR_MESSAGE): string {
  const { message, errors } = asErrorBody(body);
  if (typeof message === 'string' && message.trim() !== '') return message;
  if (Array.isArray(errors)) {
    const first = errors.find((entry): entry is string => typeof entry === 'string' && entry.trim() !== '');
    if (first) return first;
  }
  return fallback;
}

const sameWords = (text: string) => text.trim().replace(/[.\s]+$/, '').toLowerCase();

/**
 * Every line to show for an error body, each once: the server's message, then its first error when that says
 * something more (a 422 shows its message, then its first entry in errors; the server often repeats one in the
 * other, as `{ message: 'X', errors: ['X'] }` or `{ message: 'Invalid request: X.', errors: ['X'] }`).
 */
export function errorLinesFrom(body: unknown, fallback: string = GENERIC_ERROR_MESSAGE): string[] {
  const { message, errors } = asErrorBody(body);
  const lines: string[] = [];
  if (typeof message === 'string' && message.trim() !== '') lines.push(message.trim());
  const first = Array.isArray(errors) ? errors.find((entry): entry is string => typeof entry === 'string' && entry.trim() !== '') : undefined;
  if (first && !lines.some((line) => sameWords(line).includes(sameWords(first)))) lines.push(first.trim());
  return lines.length > 0 ? lines : [fallback];
}

export function errorCodeFrom(body: unknown): string | undefined {
  const { code } = asErrorBody(body);
  return typeof code === 'string' ? code : undefined;
}

/** A failed API call: what to show the user plus what the caller may branch on. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly body: unknown;

  constructor(status: number, body: unknown, fallback: string) {
    super(errorMessageFrom(body, fallback));
    this.name = 'ApiError';
    this.status = status;
    this.code = errorCodeFrom(body);
    this.body = body;
  }
}

/** The message to show for anything thrown by an API call or an actor. */
export function messageOfError(error: unknown, fallback: string = GENERIC_ERROR_MESSAGE): string {
  // Only the server's own words are shown; network and programming errors get the fallback.
  return error instanceof ApiError ? error.message : fallback;
}

/** Every line to show for anything thrown by an API call, each once (see errorLinesFrom). */
export function messagesOfError(error: unknown, fallback: string = GENERIC_ERROR_MESSAGE): string[] {
  return error instanceof ApiError ? errorLinesFrom(error.body, error.message) : [fallback];
}

export interface CallResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The data of an openapi-fetch call, or an ApiError carrying the server's answer and the fallback message. */
export function unwrap<T>(result: CallResult<T>, fallback: string): T {
  if (!result.response.ok || result.data === undefined) {
    throw new ApiError(result.response.status, result.error, fallback);
  }
  return result.data;
}

/** One of a 422's lines that names a field of the request: `field` is its path as the server spells it. */
/** For 202/204 answers whose body does not matter. */
export function ensureOk(result: CallResult<unknown>, fallback: string): void {
  if (!result.response.ok) throw new ApiError(result.response.status, result.error, fallback);
}

export interface FieldProblem {
  /** 'max_visits', 'working_hours[2]', 'start_place.id', … */
  field: string;
  /** What to show under the field, without the field's name: the server's sentence after "field: ", or its check in words. */
  text: string;
}

const FIELD_LINE = /^([a-z][a-z0-9_]*(?:\[\d+\]|\.[a-z][a-z0-9_]*)*)(:?)\s+(\S.*)$/;

/** The contract's own checks ("max_visits must be <= 100", AJV's words after the field) as a sentence for a person. */
const CHECKS: readonly [RegExp, (value: string) => string][] = [
  [/^is required$/, () => 'This field is required.'],
  [/^must NOT have more than (\d+) characters?$/, (n) => `Use at most ${n} characters.`],
  [/^must NOT have fewer than (\d+) characters?$/, (n) => (n === '1' ? 'This field is required.' : `Use at least ${n} characters.`)],
  [/^must match format "email"$/, () => 'Enter an email address such as name@example.com.'],
  [/^must be <= (\S+)$/, (n) => `Must be ${n} or less.`],
  [/^must be >= (\S+)$/, (n) => `Must be ${n} or more.`],
  [/^must be < (\S+)$/, (n) => `Must be less than ${n}.`],
  [/^must be > (\S+)$/, (n) => `Must be more than ${n}.`],
  [/^must be integer$/, () => 'Must be a whole number.'],
  [/^must be number$/, () => 'Must be a number.'],
];

function sentenceOfCheck(check: string): string {
  for (const [pattern, sentence] of CHECKS) {
    const match = pattern.exec(check);
    if (match) return sentence(match[1]);
  }
  return check.charAt(0).toUpperCase() + check.slice(1);
}

/**
 * The lines of a 422 (`{ message, errors }`, each line "field: sentence" or "field must …") or of a 409 with `errors`
 * (a value another record holds: "email: …") that name a field the form shows (`shown`), and the other lines.
 * Anything else names no field: its lines are all other lines. No error
 (null, undefined: a mutation that has not failed) has no lines.
 */
export function fieldProblemsOf(
  error: unknown, shown: (field: string) => boolean, fallback: string = GENERIC_ERROR_MESSAGE,
): { fields: FieldProblem[]; other: string[] } {
  if (error === null || error === undefined) return { fields: [], other: [] };
  if (!(error instanceof ApiError) || (error.status !== 422 && error.status !== 409)) return { fields: [], other: messagesOfError(error, fallback) };
  if (error.status === 409 && !Array.isArray(asErrorBody(error.body).errors)) return { fields: [], other: messagesOfError(error, fallback) };
  const { errors } = asErrorBody(error.body);
  const lines = Array.isArray(errors) && errors.some((entry) => typeof entry === 'string')
    ? errors.filter((entry): entry is string => typeof entry === 'string')
    : [error.message];
  const fields: FieldProblem[] = [];
  const other: string[] = [];
  for (const raw of lines) {
    const line = raw.trim().replace(/^Invalid request:\s*/, '');
    const match = FIELD_LINE.exec(line);
    if (!match || !shown(match[1])) {
      other.push(raw.trim());
      continue;
    }
    const [, field, colon, rest] = match;
    // "enter the name" starts a sentence; "sam@acme.test already …" keeps its address as written.
    const startsWithWord = /^[a-z]+(?:\s|$)/.test(rest);
    const text = colon ? (startsWithWord ? rest.charAt(0).toUpperCase() + rest.slice(1) : rest) : sentenceOfCheck(rest.replace(/\.$/, ''));
    fields.push({ field, text: /[.!?]$/.test(text) ? text : `${text}.` });
  }
  return { fields, other };
}
