// Builds the HTTP application: plugins in a fixed order (security headers and rate limits, the contract-bound
// API, the SPA with history fallback), one error handler, and every /api route bound to an operationId.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyHelmet from '@fastify/helmet';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyRequest, type onRequestHookHandler } from 'fastify';
import openapiGlue from 'fastify-openapi-glue';
import type { Logger } from 'pino';
import { parse as parseYaml } from 'yaml';
import { assertRole } from './auth/access';
import type { Role } from './db/schema';
import type { Handlers, OperationId } from './http/contract';
import type { AppContext } from './http/context';
import { errorHandler } from './http/error-handler';
import { contractValidatorCompiler } from './http/validation';
import { HttpError, unauthenticated } from './http/errors';
import { buildHandlers } from './modules';
import { AuthService } from './modules/auth/service';
import { repoRoot } from './paths';

export const contractPath = join(repoRoot, 'openapi', 'openapi.yaml');

interface Operation { operationId: OperationId; security?: unknown[]; 'x-roles'?: Role[] }
type Contract = { paths: Record<string, Record<string, Operation>>; security?: unknown[] };

export function loadContract(): Contract {
  return parseYaml(readFileSync(contractPath, 'utf8')) as Contract;
}

function operationsById(contract: Contract): Map<string, Operation> {
  const operations = new Map<string, Operation>();
  for (const item of Object.values(contract.paths)) {
    for (const operation of Object.values(item)) {
      if (operation && typeof operation === 'object' && 'operationId' in operation) operations.set(operation.operationId, operation);
    }
  }
  return operations;
}

export interface BuildOptions {
  ctx: AppContext;
  logger: Logger;
  /** Directory of the built SPA; served when it exists. */
  spaDir?: string;
}

export async function buildApp({ ctx, logger, spaDir = join(repoRoot, 'dist') }: BuildOptions): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: logger as unknown as FastifyBaseLogger,
    bodyLimit: 1024 * 1024,
    trustProxy: true,
  });
  app.setValidatorCompiler(contractValidatorCompiler());
  app.decorateRequest('auth', null);
  app.setErrorHandler(errorHandler);

  const httpsOnly = ctx.config.publicUrl.startsWith('https://');
  await app.register(fastifyHelmet, {
    hsts: httpsOnly,
    contentSecurityPolicy: {
      directives: {
        'upgrade-insecure-requests': httpsOnly ? [] : null,
        'default-src': ["'self'"],
        'script-src': ["'self'", 'https://maps.googleapis.com'],
        'style-src': ["'self'", "'unsafe-inline'", 'https://fonts.googleapis.com'],
        'img-src': ["'self'", 'data:', 'blob:', 'https://*.googleapis.com', 'https://*.gstatic.com', 'https://*.google.com'],
        'font-src': ["'self'", 'data:', 'https://fonts.gstatic.com'],
        'connect-src': ["'self'", 'https://maps.googleapis.com'],
        'frame-ancestors': ["'none'"],
      },
    },
  });
  await app.register(fastifyRateLimit, { max: ctx.config.requestsPerMinute, timeWindow: '1 minute' });

  const auth = new AuthService(ctx);
  const handlers = buildHandlers(ctx, auth);
  const contract = loadContract();
  const operations = operationsById(contract);

  const authenticate = (operation: Operation): onRequestHookHandler => async (request: FastifyRequest) => {
    const isPublic = Array.isArray(operation.security) && operation.security.length === 0;
    if (isPublic) return; // public calls never read a session, so none is looked up
    const header = request.headers.authorization;
    const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
    if (token) request.auth = await auth.authenticate(token);
    if (!request.auth) throw token ? unauthenticated('Your session has expired. Please log in again.') : unauthenticated();
    assertRole(request.auth, operation['x-roles']);
  };

  await app.register(openapiGlue, {
    specification: contract,
    prefix: '/api',
    operationResolver: (operationId: string) => {
      const operation = operations.get(operationId)!;
      const handler = (handlers as Handlers)[operationId as OperationId] ?? (async () => {
        throw new HttpError(501, `${operationId} is not available yet.`, 'NOT_IMPLEMENTED');
      });
      return { onRequest: authenticate(operation), handler } as never;
    },
  });

  if (existsSync(join(spaDir, 'index.html'))) {
    await app.register(fastifyStatic, { root: spaDir, wildcard: false, index: false, maxAge: '1h', immutable: false });
  }
  app.setNotFoundHandler((request, reply) => {
    const wantsPage = request.method === 'GET' && !request.url.startsWith('/api') && existsSync(join(spaDir, 'index.html'));
    if (wantsPage) return reply.header('cache-control', 'no-cache').sendFile('index.html', spaDir);
    return reply.code(404).send({ message: `No route for ${request.method} ${request.url.split('?')[0]}.`, code: 'NOT_FOUND' });
  });

  return app;
}
