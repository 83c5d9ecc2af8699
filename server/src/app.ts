// Builds the HTTP application: plugins in a fixed order (security headers and rate limits, the contract-bound
// API, the SPA with history fallback), one error handler, and every /api route bound to an operationId.
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import fastifyHelmet from '@fastify/helmet';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyRequest, type onRequestHookHandler, type preValidationHookHandler } from 'fastify';
import openapiGlue from 'fastify-openapi-glue';
import type { Logger } from 'pino';
import { parse as parseYaml } from 'yaml';
import { assertRole } from './auth/access';
import type { TrustProxy } from './config';
import type { Role } from './db/schema';
import type { Handlers, OperationId } from './http/contract';
import type { AppContext } from './http/context';
import { errorHandler } from './http/error-handler';
import { contractValidatorCompiler } from './http/validation';
import { HttpError, forbidden, invalid, unauthenticated, unsupportedMediaType } from './http/errors';
import { requestSerializer } from './logger';
import { buildHandlers } from './modules';
import { httpRequestSeconds } from './operations/metrics';
import { registerOperations } from './operations/endpoints';
import { AuthService } from './modules/auth';
import { closeLiveDesk } from './modules/live';
import { PAYMENT_REQUIRED_CODE, PAYMENT_REQUIRED_MESSAGE } from './modules/subscriptions';
import { repoRoot } from './paths';

export const contractPath = join(repoRoot, 'openapi', 'openapi.yaml');

interface Operation {
  operationId: OperationId; security?: unknown[]; 'x-roles'?: Role[];
  /** Open while the business needs a payment method (the user's own calls, logout, the subscription and its billing). */
  'x-payment-exempt'?: boolean;
  /** The handler reads the body as sent (request.rawBody): a webhook's signature covers the exact bytes. */
  'x-raw-body'?: boolean;
  requestBody?: { required?: boolean; content: Record<string, unknown> };
}
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

/** What a caller's X-Request-Id may be to be kept: no spaces or control characters to forge log lines with. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * Browser features the app never uses, refused for it and anything it embeds; the location is the app's own only (the
 * run sheet's steps send the phone's position when the practitioner allows it).
 */
const PERMISSIONS_POLICY = 'accelerometer=(), autoplay=(), camera=(), display-capture=(), geolocation=(self), gyroscope=(), '
  + 'magnetometer=(), microphone=(), midi=(), payment=(), publickey-credentials-get=(), usb=()';

export async function buildApp({ ctx, logger, spaDir = join(repoRoot, 'dist') }: BuildOptions): Promise<FastifyInstance> {
  const app = Fastify({
    // The request log shows URLs with their one-time tokens removed.
    loggerInstance: logger.child({}, { serializers: { req: requestSerializer } }) as unknown as FastifyBaseLogger,
    bodyLimit: 1024 * 1024,
    // X-Forwarded-For is believed only from the proxies TRUST_PROXY names; otherwise request.ip (rate limits, login
    // throttles, the log) is the socket's address.
    trustProxy: trustedProxies(ctx.config.trustProxy),
    // Every request's log lines carry its id; a caller's X-Request-Id is kept when it is a plain token (a load
    // balancer's), else a new one is made. The answer says it back, and a 500's message shows it to the user.
    requestIdHeader: false,
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
  });
  app.setValidatorCompiler(contractValidatorCompiler());
  app.decorateRequest('auth', null);
  app.setErrorHandler(errorHandler);
  // Only JSON bodies are parsed; anything else is refused with 415 before a handler sees it. Fastify's own parser
  // refuses a body as soon as it passes bodyLimit; the operations marked x-raw-body also get the text as sent.
  app.removeContentTypeParser(['text/plain', 'application/json']);
  // The live desk's stream answers text/event-stream; a body of that type is refused like any other but JSON.
  app.addContentTypeParser('text/event-stream', (_request, _body, done) => done(unsupportedMediaType(), undefined));
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if ((request.routeOptions.config as { rawBody?: boolean }).rawBody) request.rawBody = body as string;
    parseJson(request, body as string, done);
  });
  app.addHook('onSend', async (request, reply) => {
    // A body left unread (a call that takes none, a refusal before parsing) is not drained: the connection is closed.
    if (!request.raw.complete) reply.header('connection', 'close');
    reply.header('x-request-id', request.id);
    reply.header('permissions-policy', PERMISSIONS_POLICY);
    // API answers carry tokens and personal data: never stored by the browser or a proxy.
    if (request.url.startsWith('/api/') || request.url === '/api') reply.header('cache-control', 'no-store');
  });

  const httpsOnly = ctx.config.publicUrl.startsWith('https://');
  await app.register(fastifyHelmet, {
    hsts: httpsOnly,
    contentSecurityPolicy: {
      directives: {
        'upgrade-insecure-requests': httpsOnly ? [] : null,
        'default-src': ["'self'"],
        'script-src': ["'self'", 'https://maps.googleapis.com'],
        'style-src': ["'self'", "'unsafe-inline'", 'https://fonts.googleapis.com'],
        // The MapLibre map fetches its style, tiles, glyphs and sprites (MAP_STYLE_URL's origin and MAP_ORIGINS); its
        // worker is a same-origin module script.
        'img-src': ["'self'", 'data:', 'blob:', 'https://*.googleapis.com', 'https://*.gstatic.com', 'https://*.google.com', ...ctx.config.mapOrigins],
        'font-src': ["'self'", 'data:', 'https://fonts.gstatic.com'],
        'connect-src': ["'self'", 'https://maps.googleapis.com', ...ctx.config.mapOrigins],
        'frame-ancestors': ["'none'"],
      },
    },
    // The same rule as frame-ancestors 'none', for browsers that only know X-Frame-Options.
    frameguard: { action: 'deny' },
  });
  app.addHook('onResponse', async (request, reply) => {
    // By route pattern (/api/clients/:id), so that ids never make a label each.
    const route = request.routeOptions.url ?? 'unmatched';
    httpRequestSeconds.observe({ method: request.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });
  // Closing lets the work requests left running after their answers finish (the reset emails), as requests in flight do.
  app.addHook('onClose', async () => { await ctx.background.settled(); });
  await app.register(fastifyRateLimit, { max: ctx.config.requestsPerMinute, timeWindow: '1 minute' });
  registerOperations(app, ctx);

  const auth = new AuthService(ctx);
  const handlers = buildHandlers(ctx, auth);
  // Open live desks' streams never end on their own: they are ended first, so closing waits only for real requests.
  app.addHook('preClose', async () => closeLiveDesk(ctx));
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
    // A business that needs a payment method can still sign in, sign out and fix it; everything else answers 40003.
    if (request.auth.paymentRequired && !operation['x-payment-exempt']) throw forbidden(PAYMENT_REQUIRED_MESSAGE, PAYMENT_REQUIRED_CODE);
  };

  // The interactive API reference at /api/docs, read from the same contract the routes are bound to.
  await app.register(fastifySwagger, { mode: 'static', specification: { document: contract as never } });
  await app.register(fastifySwaggerUi, {
    routePrefix: '/api/docs', staticCSP: true,
    // Its own policy (hashes for its inline scripts); over plain HTTP, requests must not be upgraded to HTTPS.
    transformStaticCSP: (header) => (httpsOnly ? header : header.replace(/\s*upgrade-insecure-requests;?/, '')),
    theme: { title: 'Rounds API reference' },
    uiConfig: { docExpansion: 'none', deepLinking: true, persistAuthorization: false },
  });

  await app.register(openapiGlue, {
    specification: contract,
    prefix: '/api',
    operationResolver: (operationId: string) => {
      const operation = operations.get(operationId)!;
      const handler = (handlers as Handlers)[operationId as OperationId] ?? (async () => {
        throw new HttpError(501, `${operationId} is not available yet.`, 'NOT_IMPLEMENTED');
      });
      return {
        onRequest: authenticate(operation), preValidation: requireContractBody(operation), handler,
        ...(operation['x-raw-body'] ? { config: { rawBody: true } } : {}),
      } as never;
    },
  });

  if (existsSync(join(spaDir, 'index.html'))) {
    const assets = join(spaDir, 'assets') + sep;
    await app.register(fastifyStatic, {
      root: spaDir, wildcard: false, index: false, maxAge: '1h', immutable: false,
      setHeaders: (reply, path) => {
        // The page names the current hashed bundles, so it is checked on every visit; the bundles never change.
        // The service worker too: a new version must reach the phones at their next visit.
        if (path.endsWith('.html') || path.endsWith('/sw.js')) reply.header('cache-control', 'no-cache');
        else if (path.startsWith(assets)) reply.header('cache-control', 'public, max-age=31536000, immutable');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const wantsPage = request.method === 'GET' && !request.url.startsWith('/api') && existsSync(join(spaDir, 'index.html'));
    if (wantsPage) return reply.sendFile('index.html', spaDir);
    return reply.code(404).send({ message: `No route for ${request.method} ${request.url.split('?')[0]}.`, code: 'NOT_FOUND' });
  });

  return app;
}

/** Fastify's trustProxy; a hop count as the function Fastify would make of it (its types omit numbers). */
function trustedProxies(setting: TrustProxy): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof setting === 'number' ? (_address, hop) => hop < setting : setting;
}

/**
 * Fastify validates a body only against the schema of its media type, so a body the contract has no schema for
 * would reach the handler unchecked: it is refused (415), and a missing required body is a 422.
 */
function requireContractBody(operation: Operation): preValidationHookHandler {
  return async (request) => {
    const contract = operation.requestBody;
    if (!contract) return;
    if (request.body === undefined || request.body === null) {
      if (contract.required) throw invalid('A request body is required: send JSON with Content-Type: application/json.');
      return;
    }
    if (!request.mediaType || !(request.mediaType in contract.content)) throw unsupportedMediaType();
  };
}
