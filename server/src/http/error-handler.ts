// One place that turns every failure into `{ message, errors?, code? }` and hides the details of 5xx.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from '../db/unavailable';
import { HttpError, unsupportedMediaType } from './errors';

interface ValidationIssue { instancePath?: string; message?: string; params?: Record<string, unknown>; keyword?: string }

/** `body/availability/0/dow` → `availability[0].dow` */
function fieldName(context: string | undefined, instancePath: string | undefined, params: Record<string, unknown> = {}): string {
  const parts = (instancePath ?? '').split('/').filter(Boolean);
  if (typeof params.missingProperty === 'string') parts.push(params.missingProperty);
  if (typeof params.additionalProperty === 'string') parts.push(params.additionalProperty);
  const path = parts.reduce((name, part) => (/^\d+$/.test(part) ? `${name}[${part}]` : name ? `${name}.${part}` : part), '');
  return path || (context === 'params' ? 'path' : context ?? 'request');
}

function describe(context: string | undefined, issue: ValidationIssue): string {
  const field = fieldName(context, issue.instancePath, issue.params);
  if (issue.keyword === 'required') return `${field} is required`;
  if (issue.keyword === 'additionalProperties') return `${field} is not an allowed field`;
  if (issue.keyword === 'enum' && Array.isArray(issue.params?.allowedValues)) {
    return `${field} must be one of ${(issue.params.allowedValues as unknown[]).join(', ')}`;
  }
  return `${field} ${issue.message ?? 'is invalid'}`;
}

export function errorHandler(error: FastifyError | HttpError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof HttpError) {
    return reply.code(error.statusCode).send({ message: error.message, code: error.code, errors: error.errors });
  }
  const fastifyError = error as FastifyError & { validation?: ValidationIssue[] };
  if (fastifyError.validation) {
    const errors = fastifyError.validation.map((issue) => describe(fastifyError.validationContext, issue));
    return reply.code(422).send({ message: `Invalid request: ${errors[0]}.`, errors, code: 'VALIDATION_FAILED' });
  }
  const status = fastifyError.statusCode ?? 500;
  if (status === 415) {
    const refused = unsupportedMediaType();
    return reply.code(415).send({ message: refused.message, code: refused.code });
  }
  if (status === 413) return reply.code(413).send({ message: 'The request body is too large.', code: 'PAYLOAD_TOO_LARGE' });
  if (status === 429) return reply.code(429).send({ message: 'Too many requests. Please slow down and try again shortly.', code: 'RATE_LIMITED' });
  if (fastifyError.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError || fastifyError.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
    return reply.code(400).send({ message: 'The request body is not valid JSON.', code: 'MALFORMED_JSON' });
  }
  if (status >= 400 && status < 500) {
    return reply.code(status).send({ message: fastifyError.message, code: fastifyError.code });
  }
  if (isDatabaseUnavailable(error)) {
    // A restart or an outage of the database, not a fault of this request: the pool reconnects by itself, so the
    // caller is told to try again shortly (and a load balancer may retry elsewhere).
    request.log.warn({ err: error }, 'database unavailable');
    return reply.code(503).header('retry-after', '5').send({ message: DATABASE_UNAVAILABLE_MESSAGE, code: 'DATABASE_UNAVAILABLE' });
  }
  request.log.error({ err: error }, 'request failed');
  // The reference finds the request's log lines when the user reports it.
  return reply.code(500).send({
    message: `Something went wrong on our side. Please try again; if it keeps happening, tell support the reference ${request.id}.`,
    code: 'INTERNAL', request_id: request.id,
  });
}
