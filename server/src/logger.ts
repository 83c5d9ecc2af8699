import type { FastifyRequest } from 'fastify';
import pino, { type DestinationStream, type Logger } from 'pino';

/** The product's log, to stdout unless given a destination (tests capture it). */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.api_key'], censor: '[redacted]' },
  };
  return destination ? pino(options, destination) : pino(options);
}

const REDACTED = '[redacted]';
/** A path segment that looks like a one-time token (ours are 43 url-safe base64 characters). */
const TOKEN_SEGMENT = /^[A-Za-z0-9_~.%-]{32,}$/;
/** Query parameters that carry credentials. */
const SECRET_PARAMS = /^(token|access_token|api_key|key|password|secret|signature)$/i;

/** The URL as the log may keep it: credentials in the query and token-like path segments replaced. */
export function redactUrl(url: string): string {
  const queryAt = url.indexOf('?');
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  const safePath = path.split('/').map((segment) => (TOKEN_SEGMENT.test(segment) ? REDACTED : segment)).join('/');
  if (queryAt === -1) return safePath;
  const query = url.slice(queryAt + 1).split('&').map((pair) => {
    const [name, ...value] = pair.split('=');
    let decoded = name;
    try {
      decoded = decodeURIComponent(name);
    } catch { /* keep as sent */ }
    return value.length && (SECRET_PARAMS.test(decoded) || TOKEN_SEGMENT.test(value.join('='))) ? `${name}=${REDACTED}` : pair;
  }).join('&');
  return `${safePath}?${query}`;
}

/** Fastify's request log entry, with the URL's tokens removed and the address Fastify resolved (see TRUST_PROXY). */
export function requestSerializer(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
