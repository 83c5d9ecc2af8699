// `npm run bench:fairness`: one business's queued imports against another business's 1-day import and ETA message
// (issue 34). Business B queues BENCH_IMPORTS (default 20) imports of 62 days; business A then queues a 1-day import
// and an ETA message. Measured from A's enqueue to each of its jobs done:
//   alone — A's import with nothing else queued (the reference),
//   FIFO  — every job through one slot, oldest first (the queue before issue 34: one slot for every job but searches),
//   fair  — the worker as it is (a slot for messages, a slot for imports and exports taken in turns by business).
// Embedded PGlite, or PostgreSQL with DATABASE_URL (a database the bench migrates and writes businesses into). The
// sandbox serves the PMS in-process; BENCH_RUNS (default 3) runs of alone and fair, medians; FIFO runs once.
import pino from 'pino';
import { loadConfig } from '../server/src/config';
import { createContext } from '../server/src/context';
import { openDatabase } from '../server/src/db/client';
import { migrate } from '../server/src/db/migrate';
import { providerAccounts } from '../server/src/db/schema';
import type { AppContext } from '../server/src/http/context';
import { assertJobHeld, cancelUnfinishedJobs, claimJob, completeJob, enqueueJob, getJob } from '../server/src/jobs/queue';
import { startWorker } from '../server/src/jobs/worker';
import { jobHandlers } from '../server/src/modules/job-handlers';
import { createBusinessAccount } from '../server/src/modules/business-account';
import { startSandbox } from '../server/src/pms/sandbox';

const IMPORTS = Number(process.env.BENCH_IMPORTS ?? 20);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const LONG = { start: '2026-11-23', end: '2027-01-23' };
const DAY = { start: '2026-11-24', end: '2026-11-24' };

const sandbox = await startSandbox({
  seed: 34, startDate: '2026-11-23', weeks: 9, patients: 400, practitioners: 12, inactivePractitioners: 0, visitsPerDay: [8, 8],
});
const config = { ...loadConfig({ APP_SECRET: 'bench-secret-bench-secret-bench-secret' }), clinikoBaseUrl: sandbox.url };
const database = await openDatabase({ url: process.env.DATABASE_URL });
await migrate(database);
const ctx = createContext(config, database, pino({ level: process.env.LOG_LEVEL ?? 'silent' }));

let businesses = 0;
async function connectedBusiness(): Promise<number> {
  const label = `${Date.now()}-${++businesses}`;
  const { business } = await createBusinessAccount(ctx.db, {
    name: `Fairness ${label}`, admin: { email: `fair-${label}@bench.test`, password: 'benchmark password', first_name: 'Ben' },
  });
  await ctx.db.insert(providerAccounts).values({
    business_account_id: business.id, status: 'ACTIVE', connected_at: new Date(),
    api_key_encrypted: ctx.secrets.seal(sandbox.apiKey), api_key_last4: sandbox.apiKey.slice(-4),
  });
  return business.id;
}

const importOf = (business: number, range: { start: string; end: string }) =>
  enqueueJob(ctx.db, { businessAccountId: business, kind: 'IMPORT', startDate: range.start, endDate: range.end });
// A message whose visit is gone: the job reads, finds nothing to send and completes; what is measured is its wait.
const etaOf = (business: number) => enqueueJob(ctx.db, {
  businessAccountId: business, kind: 'ETA_MESSAGE', maxAttempts: 1, startDate: DAY.start, endDate: DAY.start,
  params: { appointment_id: 2_000_000_000, visit_step_id: null },
});

/** Seconds from `start` until each job is done, polling the queue. */
async function doneAfter(start: number, ids: number[]): Promise<number[]> {
  const at = new Map<number, number>();
  while (at.size < ids.length) {
    for (const id of ids) {
      if (at.has(id)) continue;
      const job = (await getJob(ctx.db, id))!;
      if (['COMPLETE', 'ERROR', 'CANCELLED'].includes(job.status)) {
        if (job.status !== 'COMPLETE') throw new Error(`job ${id} ended ${job.status}: ${job.error_message}`);
        at.set(id, (performance.now() - start) / 1000);
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return ids.map((id) => at.get(id)!);
}

/** The jobs `ids` run one at a time in id order, as one slot took them oldest first before issue 34. */
async function runOldestFirst(context: AppContext, ids: number[]): Promise<void> {
  const never = new AbortController().signal;
  for (const id of ids) {
    const job = (await claimJob(context.db, 'fifo', 600_000, id))!;
    const result = await jobHandlers[job.kind].run({
      ctx: context, job, workerId: 'fifo', signal: never, tuning: {},
      guard: (tx) => assertJobHeld(tx, job.id, 'fifo'), giveWayIfOthersWait: async () => undefined,
    });
    await completeJob(context.db, job.id, 'fifo', result);
  }
}

async function scenario(kind: 'alone' | 'FIFO' | 'fair'): Promise<{ importSeconds: number; etaSeconds: number | null }> {
  const [a, b] = [await connectedBusiness(), await connectedBusiness()];
  const queued = kind === 'alone' ? [] : await Promise.all(Array.from({ length: IMPORTS }, () => importOf(b, LONG)));
  const start = performance.now();
  const mine = await importOf(a, DAY);
  const eta = kind === 'alone' ? null : await etaOf(a);
  const ids = [mine.id, ...(eta ? [eta.id] : [])];
  if (kind === 'FIFO') {
    const running = runOldestFirst(ctx, [...queued.map((job) => job.id), ...ids]);
    const [importSeconds, etaSeconds] = await doneAfter(start, ids);
    await running;
    return { importSeconds, etaSeconds };
  }
  const worker = startWorker(ctx, jobHandlers, { pollMs: 20 });
  try {
    const [importSeconds, etaSeconds] = await doneAfter(start, ids);
    return { importSeconds, etaSeconds: etaSeconds ?? null };
  } finally {
    await cancelUnfinishedJobs(ctx.db, b, 'Benchmark over.');
    await worker.close();
  }
}

const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];
const rows: { scenario: string; importSeconds: number; etaSeconds: number | null }[] = [];
for (const kind of ['alone', 'fair', 'FIFO'] as const) {
  const runs = [];
  for (let run = 0; run < (kind === 'FIFO' ? 1 : RUNS); run++) runs.push(await scenario(kind));
  rows.push({
    scenario: kind,
    importSeconds: median(runs.map((run) => run.importSeconds)),
    etaSeconds: runs[0].etaSeconds === null ? null : median(runs.map((run) => run.etaSeconds!)),
  });
}
const alone = rows[0].importSeconds;
console.log(`${database.kind}: business B's ${IMPORTS} queued imports of 62 days; business A's 1-day import and ETA message (median of ${RUNS}, FIFO once)`);
console.log('| queue | A\'s import | × alone | A\'s ETA message |');
console.log('|---|---|---|---|');
for (const row of rows) {
  console.log(`| ${row.scenario} | ${row.importSeconds.toFixed(2)} s | ${(row.importSeconds / alone).toFixed(1)} | ${row.etaSeconds === null ? '—' : `${row.etaSeconds.toFixed(2)} s`} |`);
}
await database.close();
await sandbox.close();
