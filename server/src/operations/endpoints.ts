// The operator's endpoints, outside the API contract and its sessions: /healthz, /readyz and /metrics (Prometheus
// text; with METRICS_TOKEN set, only for `Authorization: Bearer <token>`). Each is limited per address (registered
// after the rate-limit plugin), far above what load balancers and Prometheus ask.
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../http/context';
import { readiness, type Readiness } from './health';
import { registry, watchJobQueue } from './metrics';

const sameSecret = (given: string, expected: string) =>
  given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));

/** Calls an address may make to each operator endpoint a minute. */
export const OPERATIONS_PER_MINUTE = 60;
/** How long one readiness answer is reused, so that probes from any number of addresses ask the database once a second. */
const READINESS_REUSE_MS = 1_000;

/** The host's own probes (a container health check) are not counted: only the network's callers are. */
const isLoopback = (address: string) => address === '::1' || address === '127.0.0.1' || address === '::ffff:127.0.0.1';

export function registerOperations(app: FastifyInstance, ctx: AppContext): void {
  watchJobQueue(ctx.db);
  const config = { rateLimit: { max: OPERATIONS_PER_MINUTE, timeWindow: '1 minute', allowList: (request: { ip: string }) => isLoopback(request.ip) } };
  let latest: { at: number; answer: Promise<Readiness> } | null = null;
  const currentReadiness = () => {
    if (!latest || Date.now() - latest.at >= READINESS_REUSE_MS) latest = { at: Date.now(), answer: readiness(ctx.db) };
    return latest.answer;
  };

  app.get('/healthz', { config }, async () => ({ status: 'ok' }));
  app.get('/readyz', { config }, async (_request, reply) => {
    const answer = await currentReadiness();
    return reply.code(answer.ready ? 200 : 503).send({ status: answer.ready ? 'ready' : 'not ready', checks: answer.checks });
  });
  app.get('/metrics', { config }, async (request, reply) => {
    const token = ctx.config.metricsToken;
    if (token) {
      const header = request.headers.authorization ?? '';
      if (!header.startsWith('Bearer ') || !sameSecret(header.slice(7).trim(), token)) {
        return reply.code(401).header('www-authenticate', 'Bearer').send({ message: 'A metrics token is required.', code: 'UNAUTHENTICATED' });
      }
    }
    return reply.header('content-type', registry.contentType).send(await registry.metrics());
  });
}
