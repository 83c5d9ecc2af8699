// What an operator's Prometheus reads at GET /metrics: the process (memory, CPU, event-loop delay), request latency by
// route, the job queue (depth and age of its oldest job, read from the database at each scrape), job durations and
// failures, optimiser runs, list-cache hits and PMS rate-limit waits. One registry per process; the modules that do
// the work count into the metrics below.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client';

export const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: 'rounds_' });

export const httpRequestSeconds = new Histogram({
  name: 'rounds_http_request_duration_seconds',
  help: 'Time to answer a request, by method, route pattern and status code.',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

export const jobSeconds = new Histogram({
  name: 'rounds_job_duration_seconds',
  help: 'Time a job ran in this worker, by kind and how it ended (complete, failed, interrupted).',
  labelNames: ['kind', 'outcome'] as const,
  buckets: [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900],
  registers: [registry],
});

export const jobFailures = new Counter({
  name: 'rounds_job_failures_total',
  help: 'Jobs that ended in ERROR in this worker, by kind.',
  labelNames: ['kind'] as const,
  registers: [registry],
});

export const optimiserRuns = new Counter({
  name: 'rounds_optimiser_runs_total',
  help: 'Optimisation runs solved in this process, by outcome (proposal, failed, interrupted).',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

export const listCacheLookups = new Counter({
  name: 'rounds_list_cache_lookups_total',
  help: 'Appointments and clients list lookups in this process\'s cache, by result (hit, miss).',
  labelNames: ['result'] as const,
  registers: [registry],
});

export const pmsRateLimitWaits = new Counter({
  name: 'rounds_pms_rate_limit_waits_total',
  help: 'Times a request to the practice management system waited for its rate limit.',
  registers: [registry],
});

export const pmsRateLimitWaitSeconds = new Counter({
  name: 'rounds_pms_rate_limit_wait_seconds_total',
  help: 'Seconds requests to the practice management system spent waiting for its rate limit.',
  registers: [registry],
});

/** A request to the practice management system waited `ms` for its rate limit (our own window, or a 429's reset). */
export function countRateLimitWait(ms: number): void {
  pmsRateLimitWaits.inc();
  pmsRateLimitWaitSeconds.inc(ms / 1000);
}

/** The queue as the database holds it, read at each scrape (every process sees every worker's jobs). */
export function watchJobQueue(db: Db): void {
  registry.removeSingleMetric('rounds_job_queue_depth');
  registry.removeSingleMetric('rounds_job_queue_oldest_age_seconds');
  // One read fills both: the depth is registered first, since the registry collects (and writes) in order.
  const oldestAge = new Gauge({
    name: 'rounds_job_queue_oldest_age_seconds',
    help: 'Age of the oldest job due to run and still waiting (0 when none waits).',
    registers: [],
  });
  new Gauge({
    name: 'rounds_job_queue_depth',
    help: 'Jobs waiting (PENDING) or running (INPROGRESS), by status and kind.',
    labelNames: ['status', 'kind'] as const,
    registers: [registry],
    async collect() {
      const rows = await queryRows<{ status: string; kind: string; jobs: number; oldest: number | null }>(db, sql`
        SELECT status, kind, count(*)::int AS jobs,
               extract(epoch FROM now() - min(created_at) FILTER (WHERE status = 'PENDING' AND run_after <= now()))::float8 AS oldest
        FROM jobs WHERE status IN ('PENDING', 'INPROGRESS') GROUP BY status, kind`);
      this.reset();
      for (const row of rows) this.set({ status: row.status, kind: row.kind }, row.jobs);
      oldestAge.set(Math.max(0, ...rows.map((row) => row.oldest ?? 0)));
    },
  });
  registry.registerMetric(oldestAge);
}
