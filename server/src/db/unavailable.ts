// Whether an error means the database cannot be reached right now (stopped, restarting, refusing connections, a
// connection cut mid-query) rather than a fault in the query: such a request is answered 503 "try again shortly",
// and the pool reconnects on its own once the server is back.

/** SQLSTATE classes and codes of an unreachable or restarting server. */
const UNAVAILABLE_STATES = new Set([
  '57P01', // admin_shutdown (pg_ctl stop, a restart)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (the server is starting up or recovering)
  '53300', // too_many_connections
]);

/** Socket errors of a server that is down or went away. */
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/** node-postgres's own words for a connection that ended or never came. */
const UNAVAILABLE_MESSAGES = [
  /^Connection terminated/,
  /^Client has encountered a connection error and is not queryable/,
  /^timeout exceeded when trying to connect/,
  /^Client was closed and is not queryable/,
];

export function isDatabaseUnavailable(error: unknown): boolean {
  // Drizzle wraps a failed query (DrizzleQueryError) with the driver's error as its cause; an AggregateError (every
  // address of a host refused) holds the socket errors.
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length) {
    const current = queue.shift();
    if (!current || typeof current !== 'object' || seen.has(current)) continue;
    seen.add(current);
    const { code, message, cause, errors } = current as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
    if (typeof code === 'string' && (UNAVAILABLE_STATES.has(code) || (code.startsWith('08') && code !== '08P01') || UNAVAILABLE_CODES.has(code))) return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(message))) return true;
    queue.push(cause);
    if (Array.isArray(errors)) queue.push(...errors);
  }
  return false;
}

export const DATABASE_UNAVAILABLE_MESSAGE = 'The database is not reachable at the moment. Please try again in a few seconds.';
