// Each business's fair share of the job workers: one business's optimisation runs never hold up another business's
// imports (a worker searches in a slot of its own), a business never has two runs searching at once (whatever the
// number of workers), the business that waited longest is served first, and a business can queue at most three runs.
// The same for imports and exports (issue 34): messages never wait behind them, businesses take turns, one business
// has at most three waiting; a week's run gives the search slot to another business's run between its days, and a
// waiting run says its place in the queue.
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { appointments, clients, optimizationSettings, practitioners } from '../../server/src/db/schema';
import { jobs } from '../../server/src/db/schema-jobs';
import { claimJob, completeJob, enqueueJob, getJob, type JobRow } from '../../server/src/jobs/queue';
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
  for (const business of [acme, bravo]) {
    expect((await t.request('POST', '/api/provider_account', { token: business.tokens.admin, body: { api_key: sandbox.apiKey } })).status).toBe(201);
  }
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

describe("one business's queued imports and another business's import and messages", () => {
  it("runs another business's import next and its ETA message at once, while 20 imports of one business wait", async () => {
    const bravoImports: number[] = [];
    for (let i = 0; i < 20; i++) {
      bravoImports.push((await enqueueJob(t.ctx.db, {
        businessAccountId: bravo.businessAccountId, kind: 'IMPORT', startDate: RANGE.start_date, endDate: RANGE.end_date, createdByName: 'Ada bravo',
      })).id);
    }
    const [visit] = await t.ctx.db.select({ id: appointments.id }).from(appointments).where(eq(appointments.business_account_id, acme.businessAccountId)).limit(1);
    const message = await enqueueJob(t.ctx.db, {
      businessAccountId: acme.businessAccountId, kind: 'ETA_MESSAGE', maxAttempts: 1, startDate: DAYS[0], endDate: DAYS[0],
      params: { appointment_id: visit.id, visit_step_id: null },
    });
    const worker = startWorker(t.ctx, { pollMs: 20, tuning: FAST });
    try {
      const sent = await waitForJob(t.ctx, message.id, 20_000);
      expect(sent.status).toBe('COMPLETE');
      const waitingWhenSent = await t.ctx.db.select({ id: jobs.id }).from(jobs).where(and(inArray(jobs.id, bravoImports), eq(jobs.status, 'PENDING')));
      // The message did not queue behind bravo's imports (it ran in a slot of its own).
      expect(waitingWhenSent.length).toBeGreaterThanOrEqual(18);

      const imported = await t.request('POST', '/api/imports', { token: acme.tokens.staff, body: RANGE });
      expect(imported.status, JSON.stringify(imported.body)).toBe(201);
      const done = await waitForJob(t.ctx, imported.body.import.id, 30_000);
      expect(done.status).toBe('COMPLETE');
      // Acme's import went at bravo's next turn, not after bravo's 20.
      const bravoRows = await t.ctx.db.select({ started_at: jobs.started_at }).from(jobs).where(inArray(jobs.id, bravoImports));
      const startedBefore = bravoRows.filter((row) => row.started_at && row.started_at < done.started_at!).length;
      expect(startedBefore).toBeLessThanOrEqual(2);
      const stillWaiting = await t.ctx.db.select({ id: jobs.id }).from(jobs).where(and(inArray(jobs.id, bravoImports), eq(jobs.status, 'PENDING')));
      expect(stillWaiting.length).toBeGreaterThanOrEqual(15);
    } finally {
      await worker.close();
    }
  }, 90_000);

  it('never runs two imports or exports of one business at once, and serves the business that waited longest first', async () => {
    const bravoJobs: JobRow[] = [];
    for (const kind of ['IMPORT', 'EXPORT', 'IMPORT'] as const) {
      bravoJobs.push(await enqueueJob(t.ctx.db, { businessAccountId: bravo.businessAccountId, kind, startDate: RANGE.start_date, endDate: RANGE.end_date }));
    }
    const acmeImport = await enqueueJob(t.ctx.db, { businessAccountId: acme.businessAccountId, kind: 'IMPORT', startDate: RANGE.start_date, endDate: RANGE.end_date });
    await Promise.all(Array.from({ length: 3 }, () => t.ctx.db.execute(sql`SELECT pg_sleep(0.05)`)));
    const claims = await Promise.all(Array.from({ length: 4 }, (_, index) => claimJob(t.ctx.db, `syncer-${index}`, 60_000, undefined, 'sync')));
    const claimed = claims.flatMap((job) => (job ? [job.id] : [])).sort((a, b) => a - b);
    expect(claimed).toEqual([bravoJobs[0].id, acmeImport.id].sort((a, b) => a - b));
    // Bravo's export waits for its import; once that is done, bravo's next job is claimed.
    await completeJob(t.ctx.db, bravoJobs[0].id, claims.find((job) => job?.id === bravoJobs[0].id)!.locked_by!, null);
    expect((await claimJob(t.ctx.db, 'syncer-next', 60_000, undefined, 'sync'))?.id).toBe(bravoJobs[1].id);
    expect(await claimJob(t.ctx.db, 'syncer-last', 60_000, undefined, 'sync')).toBeNull();
  });
});

describe('the number of imports and exports a business can queue', () => {
  it('refuses a fourth waiting import or export with 429 and a message saying what to do, queueing nothing', async () => {
    await t.ctx.db.update(jobs).set({ status: 'CANCELLED', finished_at: new Date() })
      .where(and(eq(jobs.business_account_id, acme.businessAccountId), inArray(jobs.status, ['PENDING', 'INPROGRESS'])));
    const queued: number[] = [];
    for (const path of ['imports', 'exports', 'imports']) {
      const created = await t.request('POST', `/api/${path}`, { token: acme.tokens.staff, body: RANGE });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      queued.push(created.body[path === 'imports' ? 'import' : 'export'].id);
    }
    const countJobs = async () => (await t.ctx.db.select({ id: jobs.id }).from(jobs).where(eq(jobs.business_account_id, acme.businessAccountId))).length;
    const before = await countJobs();
    for (const path of ['imports', 'exports']) {
      const refused = await t.request('POST', `/api/${path}`, { token: acme.tokens.admin, body: RANGE });
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({
        code: 'SYNC_JOBS_QUEUED',
        message: '3 imports and exports of this business are already waiting to start. Wait for one to finish, or cancel one, before starting another.',
      });
    }
    expect(await countJobs()).toBe(before);

    // Another business is not held to acme's queue.
    expect((await t.request('POST', '/api/imports', { token: bravo.tokens.admin, body: RANGE })).status).toBe(201);

    // Cancelling one frees a place; two asking at once for it cannot both have it.
    expect((await t.request('POST', `/api/imports/${queued[0]}/cancel`, { token: acme.tokens.staff })).status).toBe(200);
    const racing = await Promise.all(['imports', 'exports'].map((path) => t.request('POST', `/api/${path}`, { token: acme.tokens.staff, body: RANGE })));
    expect(racing.map((response) => response.status).sort()).toEqual([201, 429]);
  });

  it("refuses a practitioner's import and export (403): they are the office's", async () => {
    for (const path of ['imports', 'exports']) {
      const refused = await t.request('POST', `/api/${path}`, { token: acme.tokens.practitioner, body: { ...RANGE, practitioner_ids: [acme.ownPractitionerId] } });
      expect(refused.status).toBe(403);
    }
  });
});

describe("a week's optimisation run and another business's run", () => {
  it("starts the other business's run between the days of the week's run, which then goes on and completes", async () => {
    t.ctx.config.optimizerMaxSearchMs = 700;
    const week = await t.request('POST', '/api/optimizations', { token: acme.tokens.staff, body: { date: DAYS[0], end_date: DAYS[3], practitioner_ids: [pat] } });
    expect(week.status, JSON.stringify(week.body)).toBe(201);
    const weekId = week.body.optimization.id as number;
    const worker = startWorker(t.ctx, { pollMs: 20 });
    try {
      await expect.poll(async () => (await getJob(t.ctx.db, weekId))!.progress, { timeout: 15_000, interval: 20 }).not.toBeNull();
      const bravoRun = (await queueRun(bravo, DAYS[0])).id;
      const other = await waitForJob(t.ctx, bravoRun, 30_000);
      expect(other.status).toBe('COMPLETE');
      const weekNow = (await getJob(t.ctx.db, weekId))!;
      // Bravo's run did not wait for the whole week: acme's run had days left when bravo's finished.
      expect(weekNow.status).not.toBe('COMPLETE');
      const finished = await waitForJob(t.ctx, weekId, 30_000);
      expect(finished.status).toBe('COMPLETE');
      const read = await t.request('GET', `/api/optimizations/${weekId}`, { token: acme.tokens.staff });
      expect(read.body.optimization.days.map((day: { date: string }) => day.date)).toEqual(DAYS);
    } finally {
      await worker.close();
    }
  }, 90_000);

  it("shows a waiting run its place in the queue, the businesses taking turns", async () => {
    const charlie = await createBusinessFixture(t, 'charlie');
    const delta = await createBusinessFixture(t, 'delta');
    const [charlieFirst, charlieSecond] = [await queueRun(charlie, DAYS[0]), await queueRun(charlie, DAYS[1])];
    const deltaRun = await queueRun(delta, DAYS[0]);
    const placeOf = async (business: BusinessFixture, id: number) =>
      (await t.request('GET', `/api/optimizations/${id}`, { token: business.tokens.admin })).body.optimization.runs_ahead;
    expect(await placeOf(charlie, charlieFirst.id)).toBe(0);
    expect(await placeOf(delta, deltaRun.id)).toBe(1);
    expect(await placeOf(charlie, charlieSecond.id)).toBe(2);
    // Once charlie's first is searching, delta's is next; a run that is not waiting has no place.
    expect((await claimJob(t.ctx.db, 'placer', 60_000, undefined, 'search'))?.id).toBe(charlieFirst.id);
    expect(await placeOf(delta, deltaRun.id)).toBe(0);
    expect(await placeOf(charlie, charlieSecond.id)).toBe(1);
    expect(await placeOf(charlie, charlieFirst.id)).toBeNull();
  });
});
