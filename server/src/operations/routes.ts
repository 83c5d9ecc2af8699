// The operator's endpoints, outside the API contract and its sessions: /healthz, /readyz and /metrics (Prometheus
// text; with METRICS_TOKEN set, only for `Authorization: Bearer <token>`).
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../http/context';
import { readiness } from './health';
import { registry, watchJobQueue } from './metrics';

const sameSecret = (given: string, expected: string) =>
  given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));

export function registerOperations(app: FastifyInstance, ctx: AppContext): void {
  watchJobQueue(ctx.db);
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    const answer = await readiness(ctx.db);
    return reply.code(answer.ready ? 200 : 503).send({ status: answer.ready ? 'ready' : 'not ready', checks: answer.checks });
  });
  app.get('/metrics', async (request, reply) => {
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
