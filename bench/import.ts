// `npm run bench:import`: a first import of ~10,000 appointments and 2,000 patients from the PMS sandbox at
// Cliniko's rate limit (200 requests per minute, enforced by both the adapter and the sandbox), on embedded PGlite
// (or PostgreSQL when DATABASE_URL is set). Reports wall time against the rate-limit floor (requests needed ÷ rate)
// and peak memory.
//   BENCH_LIMIT / BENCH_WINDOW_MS change the limit (default 200 requests per 60 000 ms). Cliniko's window lets a
//   key burst 200 requests at once, so an import of fewer pages is bound by processing speed, not the limit; a
//   smaller burst at the same rate (BENCH_LIMIT=20 BENCH_WINDOW_MS=6000) makes the rate limit the binding
//   constraint, which is what the floor assumes.
import pino from 'pino';
import { loadConfig } from '../server/src/config';
import { createContext } from '../server/src/context';
import { openDatabase } from '../server/src/db/client';
import { migrate } from '../server/src/db/migrate';
import { providerAccounts } from '../server/src/db/schema';
import { enqueueJob, getJob } from '../server/src/jobs/queue';
import { drainJobs } from '../server/src/jobs/worker';
import { createBusinessAccount } from '../server/src/modules/accounts/service';
import { startSandbox } from '../server/src/pms/sandbox/server';

const RATE = Number(process.env.BENCH_LIMIT ?? 200);
const WINDOW_MS = Number(process.env.BENCH_WINDOW_MS ?? 60_000);
const PER_PAGE = 100;

const sandbox = await startSandbox({
  seed: 4242, startDate: '2026-11-23', weeks: 4, patients: 2000, practitioners: 76, inactivePractitioners: 0, businesses: 3,
  visitsPerDay: [10, 10], cancelledRate: 0.03, archivedRate: 0.01, deletedRate: 0,
  faults: { rateLimitPerMinute: RATE, rateLimitWindowMs: WINDOW_MS },
});
const { dataset } = sandbox;
const rangeStart = '2026-11-23';
const rangeEnd = '2026-12-20';

const config = { ...loadConfig({ APP_SECRET: 'bench-secret-bench-secret-bench-secret' }), clinikoBaseUrl: sandbox.url };
const database = await openDatabase({ url: process.env.DATABASE_URL });
await migrate(database);
const ctx = createContext(config, database, pino({ level: process.env.LOG_LEVEL ?? 'silent' }));
const { business, admin } = await createBusinessAccount(ctx.db, {
  name: `Bench Care ${Date.now()}`, admin: { email: `bench-${Date.now()}@bench.test`, password: 'benchmark password', first_name: 'Ben' },
});
await ctx.db.insert(providerAccounts).values({
  business_account_id: business.id, status: 'ACTIVE', connected_at: new Date(),
  api_key_encrypted: ctx.secrets.seal(sandbox.apiKey), api_key_last4: sandbox.apiKey.slice(-4),
});
const job = await enqueueJob(ctx.db, {
  businessAccountId: business.id, kind: 'IMPORT', startDate: rangeStart, endDate: rangeEnd, createdByUserId: admin.id, createdByName: 'Ben',
});

let peakRss = process.memoryUsage().rss;
let peakHeap = process.memoryUsage().heapUsed;
const sampler = setInterval(() => {
  const usage = process.memoryUsage();
  peakRss = Math.max(peakRss, usage.rss);
  peakHeap = Math.max(peakHeap, usage.heapUsed);
}, 100);
const requestsBefore = sandbox.requestLog.length;
const started = performance.now();
const cpuBefore = process.cpuUsage();
await drainJobs(ctx, { tuning: { requestsPerMinute: RATE, rateLimitWindowMs: WINDOW_MS } });
const seconds = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(cpuBefore);
clearInterval(sampler);

const done = (await getJob(ctx.db, job.id))!;
const requests = sandbox.requestLog.slice(requestsBefore);
const inRange = dataset.appointments.filter((a) => a.starts_at >= '2026-11-22T14:00:00Z' && a.starts_at < '2026-12-20T14:00:00Z');
const pagesNeeded = Math.ceil(inRange.length / PER_PAGE) + Math.ceil(dataset.patients.filter((p) => !p.archived_at && !p.deleted_at).length / PER_PAGE);
const floorSeconds = (pagesNeeded / RATE) * (WINDOW_MS / 1000);
const throttled = requests.filter((r) => r.status === 429).length;

console.log(JSON.stringify({
  database: database.kind,
  status: done.status,
  error: done.error_message,
  result: done.result,
  appointments_in_range: inRange.length,
  patients: dataset.patients.length,
  rate_limit: `${RATE} requests / ${WINDOW_MS / 1000} s`,
  pages_needed: pagesNeeded,
  requests_made: requests.length,
  responses_429: throttled,
  floor_seconds: Number(floorSeconds.toFixed(2)),
  wall_seconds: Number(seconds.toFixed(2)),
  vs_floor: `${(((seconds / floorSeconds) - 1) * 100).toFixed(1)} %`,
  cpu_seconds: Number(((cpu.user + cpu.system) / 1e6).toFixed(2)),
  peak_rss_mb: Math.round(peakRss / 1e6),
  peak_heap_mb: Math.round(peakHeap / 1e6),
  max_rss_mb_resource_usage: Math.round(process.resourceUsage().maxRSS / 1024),
}, null, 2));
await sandbox.close();
await database.close();
