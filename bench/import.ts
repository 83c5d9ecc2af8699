// `npm run bench:import`: a first import of ~10,000 appointments and 2,000 patients from the PMS sandbox at
// Cliniko's rate limit (200 requests per minute, enforced by both the adapter and the sandbox), on embedded PGlite
// (or PostgreSQL when DATABASE_URL is set). Reports wall time against the rate-limit floor (pages needed ÷ rate),
// CPU time and peak memory. The sandbox runs in a child process, like a real PMS on another machine, so its work
// is not counted against the import.
//   BENCH_LIMIT / BENCH_WINDOW_MS change the limit (default 200 requests per 60 000 ms). Cliniko's window lets a
//   key burst 200 requests at once, so an import of fewer pages is bound by processing speed, not the limit; a
//   smaller burst at the same rate (BENCH_LIMIT=20 BENCH_WINDOW_MS=6000) makes the rate limit the binding
//   constraint, which is what the floor assumes.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { loadConfig } from '../server/src/config';
import { createContext } from '../server/src/context';
import { openDatabase } from '../server/src/db/client';
import { migrate } from '../server/src/db/migrate';
import { providerAccounts } from '../server/src/db/schema';
import { enqueueJob, getJob } from '../server/src/jobs/queue';
import { drainJobs } from '../server/src/jobs/worker';
import { jobHandlers } from '../server/src/modules/job-handlers';
import { createBusinessAccount } from '../server/src/modules/business-account';
import { createSandboxDataset, startSandbox, type SandboxDatasetOptions } from '../server/src/pms/sandbox';

const RATE = Number(process.env.BENCH_LIMIT ?? 200);
const WINDOW_MS = Number(process.env.BENCH_WINDOW_MS ?? 60_000);
const PER_PAGE = 100;
const DATASET: SandboxDatasetOptions = {
  seed: 4242, startDate: '2026-11-23', weeks: 4, patients: 2000, practitioners: 76, inactivePractitioners: 0, businesses: 3,
  visitsPerDay: [10, 10], cancelledRate: 0.03, archivedRate: 0.01, deletedRate: 0,
};
const RANGE = { start: '2026-11-23', end: '2026-12-20', fromUtc: '2026-11-22T14:00:00Z', toUtc: '2026-12-20T14:00:00Z' };

/** Child mode: serve the sandbox, print its address, answer "stats" with request counts. */
async function serveSandbox() {
  const sandbox = await startSandbox({ ...DATASET, faults: { rateLimitPerMinute: RATE, rateLimitWindowMs: WINDOW_MS } });
  console.log(JSON.stringify({ url: sandbox.url, apiKey: sandbox.apiKey }));
  for await (const line of createInterface({ input: process.stdin })) {
    if (line === 'stats') {
      const log = sandbox.requestLog;
      console.log(JSON.stringify({ requests: log.length, throttled: log.filter((r) => r.status === 429).length }));
    }
  }
  await sandbox.close();
}

async function bench() {
  const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--serve-sandbox'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const nextLine = async () => JSON.parse((await lines.next()).value as string);
  const sandbox = await nextLine() as { url: string; apiKey: string };
  const stats = async () => { child.stdin!.write('stats\n'); return nextLine() as Promise<{ requests: number; throttled: number }>; };

  const dataset = createSandboxDataset(DATASET);
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
    businessAccountId: business.id, kind: 'IMPORT', startDate: RANGE.start, endDate: RANGE.end, createdByUserId: admin.id, createdByName: 'Ben',
  });

  let peakRss = process.memoryUsage().rss;
  let peakHeap = process.memoryUsage().heapUsed;
  const sampler = setInterval(() => {
    const usage = process.memoryUsage();
    peakRss = Math.max(peakRss, usage.rss);
    peakHeap = Math.max(peakHeap, usage.heapUsed);
  }, 100);
  const before = await stats();
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  await drainJobs(ctx, jobHandlers, { tuning: { requestsPerMinute: RATE, rateLimitWindowMs: WINDOW_MS } });
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  clearInterval(sampler);
  const after = await stats();

  const done = (await getJob(ctx.db, job.id))!;
  const inRange = dataset.appointments.filter((a) => a.starts_at >= RANGE.fromUtc && a.starts_at < RANGE.toUtc);
  const livePatients = dataset.patients.filter((p) => !p.archived_at && !p.deleted_at).length;
  const pagesNeeded = Math.ceil(inRange.length / PER_PAGE) + Math.ceil(livePatients / PER_PAGE);
  const floorSeconds = (pagesNeeded / RATE) * (WINDOW_MS / 1000);
  console.log(JSON.stringify({
    database: database.kind,
    status: done.status,
    error: done.error_message,
    result: done.result,
    appointments_in_range: inRange.length,
    patients: dataset.patients.length,
    rate_limit: `${RATE} requests / ${WINDOW_MS / 1000} s`,
    pages_needed: pagesNeeded,
    requests_made: after.requests - before.requests,
    responses_429: after.throttled - before.throttled,
    floor_seconds: Number(floorSeconds.toFixed(2)),
    wall_seconds: Number(seconds.toFixed(2)),
    vs_floor: `${(((seconds / floorSeconds) - 1) * 100).toFixed(1)} %`,
    cpu_seconds: Number(((cpu.user + cpu.system) / 1e6).toFixed(2)),
    peak_rss_mb: Math.round(peakRss / 1e6),
    peak_heap_mb: Math.round(peakHeap / 1e6),
    max_rss_mb_resource_usage: Math.round(process.resourceUsage().maxRSS / 1024),
  }, null, 2));
  child.stdin!.end();
  await database.close();
}

await (process.argv[2] === '--serve-sandbox' ? serveSandbox() : bench());
