// Each business's fair share of the job workers: one business's optimisation runs never hold up another business's
// imports (a worker searches in a slot of its own), a business never has two runs searching at once (whatever the
// number of workers), the business that waited longest is served first, and a business can queue at most three runs.
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { appointments, clients, optimizationSettings, practitioners } from '../../server/src/db/schema';
import { jobs } from '../../server/src/db/schema-jobs';
import { claimJob, completeJob, getJob } from '../../server/src/jobs/queue';
import { startSandbox, type SandboxHandle } from '../../server/src/pms/sandbox';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';
import { drainJobs, queueOptimizationRun, startWorker, waitForJob } from './support/jobs';
import { brisbaneAt, workingEveryDay } from './support/routing';

let t: TestApp;
let sandbox: SandboxHandle;
let acme: BusinessFixture;
let bravo: BusinessFixture;
let pat: number;

const FAST = { maxAttempts: 3, backoffBaseMs: 5, backoffMaxMs: 20, requestTimeoutMs: 3_000 };
const RANGE = { start_date: '2029-11-19', end_date: '2029-11-25' };
// Four weekdays; acme's Pat has a zig-zag of visits on each.
const DAYS = ['2029-11-19', '2029-11-20', '2029-11-21', '2029-11-22'];

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 7, startDate: '2029-11-19', weeks: 1, patients: 20, practitioners: 2, inactivePractitioners: 0 });
  t = await startTestApp({ clinikoBaseUrl: sandbox.url, optimizerMaxSearchMs: 300 });
  acme = await createBusinessFixture(t, 'acme');
  bravo = await createBusinessFixture(t, 'bravo');
  expect((await t.request('POST', '/api/provider_account', { token: bravo.tokens.admin, body: { api_key: sandbox.apiKey } })).status).toBe(201);
  await drainJobs(t.ctx, { tuning: FAST });

  [pat] = acme.practitionerIds;
  await t.ctx.db.update(practitioners).set({
    start_place_kind: 'home', home_address: '1 West St', home_lat: -27.47, home_lng: 152.93, working_hours: workingEveryDay('08:00', '17:00'),
  }).where(inArray(practitioners.id, [pat, bravo.practitionerIds[0]]));
  for (const date of DAYS) {
    for (const [index, lng] of [153.07, 152.97, 153.05, 152.99, 153.03, 153.01].entries()) {
      const [client] = await t.ctx.db.insert(clients).values({
        business_account_id: acme.businessAccountId, first_name: `Zig${date}${index}`, last_name: 'Client', lat: -27.47, lng, time_zone: 'Australia/Brisbane',
      }).returning({ id: clients.id });
      const startsAt = brisbaneAt(date, `${String(9 + index).padStart(2, '0')}:00`);
      await t.ctx.db.insert(appointments).values({
        business_account_id: acme.businessAccountId, client_id: client.id, practitioner_id: pat, appointment_type_id: acme.appointmentTypeIds[0],
        starts_at: startsAt, ends_at: new Date(startsAt.getTime() + 30 * 60_000), arrive_at: startsAt, lat: -27.47, lng,
      });
    }
  }
  // A search may take a minute by the business's setting; the server's cap (set per test) decides.
  await t.ctx.db.insert(optimizationSettings).values({ business_account_id: acme.businessAccountId, search_seconds: 60 })
    .onConflictDoUpdate({ target: optimizationSettings.business_account_id, set: { search_seconds: 60 } });
}, 120_000);
afterEach(async () => {
  t.ctx.config.optimizerMaxSearchMs = 300;
  await t.ctx.db.update(jobs).set({ status: 'CANCELLED', locked_by: null, locked_until: null, finished_at: new Date() })
    .where(inArray(jobs.status, ['PENDING', 'INPROGRESS']));
});
afterAll(async () => {
  await t?.close();
  await sandbox?.close();
});

const startRun = (date: string, token = acme.tokens.staff) =>
  t.request('POST', '/api/optimizations', { token, body: { date, practitioner_ids: [pat] } });

const queueRun = (business: BusinessFixture, date: string) =>
  queueOptimizationRun(t.ctx.db, business.businessAccountId, date, business.practitionerIds.slice(0, 1));

async function statusOf(id: number) {
  return (await getJob(t.ctx.db, id))!.status;
}

describe("one business's optimisation runs and another business's imports", () => {
  it("runs another business's import at once while a worker is searching and more runs wait", async () => {
    t.ctx.config.optimizerMaxSearchMs = 60_000;
    const worker = startWorker(t.ctx, { pollMs: 20, tuning: FAST });
    try {
      const searching = await startRun(DAYS[0]);
      expect(searching.status, JSON.stringify(searching.body)).toBe(201);
      const searchingId = searching.body.optimization.id;
      await expect.poll(async () => (await getJob(t.ctx.db, searchingId))!.progress, { timeout: 15_000, interval: 50 }).not.toBeNull();
      const waiting: number[] = [];
      for (const date of DAYS.slice(1)) {
        const queued = await startRun(date);
        expect(queued.status, JSON.stringify(queued.body)).toBe(201);
        waiting.push(queued.body.optimization.id);
      }

      const imported = await t.request('POST', '/api/imports', { token: bravo.tokens.admin, body: RANGE });
      expect(imported.status).toBe(201);
      const done = await waitForJob(t.ctx, imported.body.import.id, 20_000);
      expect(done.status).toBe('COMPLETE');
      // Acme's search is still going (a minute of it) and its other runs still wait: the import did not queue behind them.
      expect(await statusOf(searchingId)).toBe('INPROGRESS');
      for (const id of waiting) expect(await statusOf(id)).toBe('PENDING');
    } finally {
      await worker.close();
    }
  }, 60_000);
});

describe('claiming optimisation runs', () => {
  it('claims one run per business at a time, however many claimers ask at once', async () => {
    const acmeRuns = [await queueRun(acme, DAYS[0]), await queueRun(acme, DAYS[1]), await queueRun(acme, DAYS[2])];
    const bravoRun = await queueRun(bravo, DAYS[0]);
    // Every claimer on a connection of its own already open (PostgreSQL), so that the claims do overlap.
    await Promise.all(Array.from({ length: 5 }, () => t.ctx.db.execute(sql`SELECT pg_sleep(0.05)`)));
    const claims = await Promise.all(Array.from({ length: 6 }, (_, index) => claimJob(t.ctx.db, `claimer-${index}`, 60_000)));
    const claimed = claims.flatMap((job) => (job ? [job.id] : [])).sort((a, b) => a - b);
    expect(claimed).toEqual([acmeRuns[0].id, bravoRun.id]);

    // Once acme's run has finished, its next one is claimed.
    await completeJob(t.ctx.db, acmeRuns[0].id, claims.find((job) => job?.id === acmeRuns[0].id)!.locked_by!, null);
    expect((await claimJob(t.ctx.db, 'claimer-next', 60_000))?.id).toBe(acmeRuns[1].id);
    expect(await claimJob(t.ctx.db, 'claimer-last', 60_000)).toBeNull();
  });

  it('takes over a run whose worker stopped renewing its lease, without a second run of the business starting meanwhile', async () => {
    const [first, second] = [await queueRun(acme, DAYS[0]), await queueRun(acme, DAYS[1])];
    expect((await claimJob(t.ctx.db, 'dies', 1))?.id).toBe(first.id);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await claimJob(t.ctx.db, 'survivor', 60_000))?.id).toBe(first.id);
    expect(await claimJob(t.ctx.db, 'another', 60_000)).toBeNull();
    expect(await statusOf(second.id)).toBe('PENDING');
  });

  it('serves the business whose last run started longest ago first', async () => {
    const [first, second] = [await queueRun(acme, DAYS[0]), await queueRun(acme, DAYS[1])];
    expect((await claimJob(t.ctx.db, 'solo', 60_000))?.id).toBe(first.id);
    const bravoRun = await queueRun(bravo, DAYS[0]);
    await completeJob(t.ctx.db, first.id, 'solo', null);
    // Acme's second run is older, but acme has just had a turn and bravo has not.
    expect((await claimJob(t.ctx.db, 'solo', 60_000))?.id).toBe(bravoRun.id);
    expect((await claimJob(t.ctx.db, 'solo-2', 60_000))?.id).toBe(second.id);
  });

  it('never runs two of a business\'s runs at once with two workers, and the other business gets the second worker', async () => {
    t.ctx.config.optimizerMaxSearchMs = 800;
    const acmeRuns: number[] = [];
    for (const date of DAYS.slice(0, 3)) {
      const created = await startRun(date);
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      acmeRuns.push(created.body.optimization.id);
    }
    const bravoRun = (await queueRun(bravo, DAYS[0])).id;
    const ids = [...acmeRuns, bravoRun];
    const workers = [startWorker(t.ctx, { pollMs: 20 }), startWorker(t.ctx, { pollMs: 20 })];
    const samples: { acme: number; bravo: number }[] = [];
    try {
      for (let i = 0; i < 600; i++) {
        const running = await t.ctx.db.select({ id: jobs.id }).from(jobs).where(and(inArray(jobs.id, ids), eq(jobs.status, 'INPROGRESS')));
        samples.push({ acme: running.filter((row) => acmeRuns.includes(row.id)).length, bravo: running.filter((row) => row.id === bravoRun).length });
        const finished = await t.ctx.db.select({ id: jobs.id }).from(jobs)
          .where(and(inArray(jobs.id, ids), inArray(jobs.status, ['COMPLETE', 'ERROR'])));
        if (finished.length === ids.length) break;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    } finally {
      await Promise.all(workers.map((worker) => worker.close()));
    }
    for (const id of ids) expect(await statusOf(id)).toBe('COMPLETE');
    expect(Math.max(...samples.map((sample) => sample.acme))).toBe(1);
    // Bravo's run went while acme's first was still searching, not after all of them.
    const bravoStarted = (await getJob(t.ctx.db, bravoRun))!.started_at!;
    expect(bravoStarted.getTime()).toBeLessThan((await getJob(t.ctx.db, acmeRuns[0]))!.finished_at!.getTime());
  }, 60_000);
});

describe('the number of runs a business can queue', () => {
  it('refuses a fourth waiting run with 429 and a message saying what to do, queueing nothing', async () => {
    const queued = [];
    for (const date of DAYS.slice(0, 3)) {
      const created = await startRun(date);
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      queued.push(created.body.optimization.id as number);
    }
    const countRuns = async () => (await t.ctx.db.select({ id: jobs.id }).from(jobs)
      .where(and(eq(jobs.business_account_id, acme.businessAccountId), eq(jobs.kind, 'OPTIMIZE')))).length;
    const before = await countRuns();
    const refused = await startRun(DAYS[3], acme.tokens.admin);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({
      code: 'OPTIMIZATIONS_QUEUED',
      message: '3 optimisations of this business are already waiting to start. Wait for one to finish, or cancel one, before starting another.',
    });
    expect(await countRuns()).toBe(before);

    // Another business is not held to acme's queue.
    const bravoRun = await t.request('POST', '/api/optimizations', { token: bravo.tokens.admin, body: { date: DAYS[1], practitioner_ids: [bravo.practitionerIds[0]] } });
    expect(bravoRun.status, JSON.stringify(bravoRun.body)).toBe(201);

    // Cancelling one frees a place; two asking at once for it cannot both have it.
    expect((await t.request('POST', `/api/optimizations/${queued[0]}/cancel`, { token: acme.tokens.staff })).status).toBe(200);
    const racing = await Promise.all(['2029-11-26', '2029-11-27'].map((date) => startRun(date)));
    expect(racing.map((response) => response.status).sort()).toEqual([201, 429]);
  });
});
