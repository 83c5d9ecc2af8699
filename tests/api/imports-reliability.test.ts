// Reliability of imports against the sandbox with faults switched on: 429 bursts, 5xx, dropped connections,
// timeouts, and a worker that dies in the middle of an import. Afterwards the product's active appointments match
// the sandbox's exactly (none lost, none duplicated) and the job ended COMPLETE or ERROR with a message.
import { and, eq, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/src/db/client';
import { appointments, resourceMaps } from '../../server/src/db/schema';
import { jobs } from '../../server/src/db/schema-jobs';
import { claimJob, enqueueJob, getJob, assertJobHeld } from '../../server/src/jobs/queue';
import { runImport } from '../../server/src/modules/sync';
import { NO_FAULTS, startSandbox, type SandboxHandle } from '../../server/src/pms/sandbox';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';
import { drainJobs } from './support/jobs';

let t: TestApp;
let sandbox: SandboxHandle;
let acme: BusinessFixture;

const RANGE = { start_date: '2026-11-23', end_date: '2026-12-06' };
const FROM = '2026-11-22T14:00:00Z';
const TO = '2026-12-06T14:00:00Z';
// Small pages so that an import spans many requests (and many transactions).
const TUNING = { perPage: 20, maxAttempts: 6, backoffBaseMs: 5, backoffMaxMs: 40, requestTimeoutMs: 400, maxRateLimitWaits: 50 };

function sandboxActiveIds() {
  return sandbox.dataset.appointments
    .filter((a) => a.starts_at >= FROM && a.starts_at < TO && !a.cancelled_at && !a.archived_at && !a.deleted_at)
    .map((a) => a.id).sort();
}

/** Active local copies by external id; duplicates would show up as repeated ids. */
async function localActiveIds() {
  const rows = await t.ctx.db.select({ external_id: resourceMaps.external_id, starts_at: appointments.starts_at }).from(appointments)
    .innerJoin(resourceMaps, and(eq(resourceMaps.resource_type, 'Appointment'), eq(resourceMaps.resource_id, appointments.id)))
    .where(and(eq(appointments.business_account_id, acme.businessAccountId), isNull(appointments.cancelled_at)));
  return rows.filter((r) => r.starts_at.getTime() >= Date.parse(FROM) && r.starts_at.getTime() < Date.parse(TO)).map((r) => r.external_id).sort();
}

async function expectExactMatch() {
  expect(await localActiveIds()).toEqual(sandboxActiveIds());
  const [{ copies }] = await queryRows<{ copies: number }>(t.ctx.db, sql`
    SELECT count(*)::int AS copies FROM appointments WHERE business_account_id = ${acme.businessAccountId}
      AND id NOT IN (SELECT resource_id FROM resource_maps WHERE resource_type = 'Appointment')`);
  expect(copies).toBe(4); // only the fixture's own, never imported
}

async function startImport() {
  const response = await t.request('POST', '/api/imports', { token: acme.tokens.admin, body: RANGE });
  expect(response.status).toBe(201);
  return response.body.import.id as number;
}

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 99, startDate: '2026-11-23', weeks: 2, patients: 120, practitioners: 6, inactivePractitioners: 1 });
  t = await startTestApp({ clinikoBaseUrl: sandbox.url });
  acme = await createBusinessFixture(t, 'acme');
  expect((await t.request('POST', '/api/provider_account', { token: acme.tokens.admin, body: { api_key: sandbox.apiKey } })).status).toBe(201);
  await drainJobs(t.ctx, { tuning: TUNING });
});
beforeEach(() => { sandbox.setFaults(NO_FAULTS); });
afterAll(async () => {
  await t?.close();
  await sandbox?.close();
});

describe('imports with faults', () => {
  it('survives 429 bursts, 5xx and dropped connections, and matches the sandbox exactly', async () => {
    // The first two requests are certain to meet a 429 (however slow the machine); the window limit adds more bursts.
    sandbox.setFaults({ rateLimitNext: 2, rateLimitPerMinute: 8, rateLimitWindowMs: 1_000, errorRate: 0.15, dropConnectionRate: 0.05 });
    const id = await startImport();
    await drainJobs(t.ctx, { tuning: { ...TUNING, requestsPerMinute: 1_000 }, retryDelayMs: 0 });
    const job = (await getJob(t.ctx.db, id))!;
    expect(job.status, job.error_message ?? '').toBe('COMPLETE');
    const log = sandbox.requestLog;
    expect(log.some((r) => r.status === 429)).toBe(true);
    expect(log.some((r) => typeof r.status === 'number' && r.status >= 500)).toBe(true);
    expect(log.some((r) => r.status === 'dropped')).toBe(true);
    sandbox.setFaults(NO_FAULTS);
    await expectExactMatch();
  });

  it('retries requests that time out, then still matches after changes in the PMS', async () => {
    // Cancel two and delete one in the sandbox; then slow every response past the client's timeout for a while.
    const ids = sandboxActiveIds();
    const stamp = '2026-11-21T10:00:00Z';
    Object.assign(sandbox.dataset.appointments.find((a) => a.id === ids[0])!, { cancelled_at: stamp, updated_at: stamp });
    Object.assign(sandbox.dataset.appointments.find((a) => a.id === ids[5])!, { cancelled_at: stamp, updated_at: stamp });
    Object.assign(sandbox.dataset.appointments.find((a) => a.id === ids[9])!, { deleted_at: stamp, updated_at: stamp });
    sandbox.setFaults({ latencyMs: 600 });
    setTimeout(() => sandbox.setFaults({ latencyMs: 0 }), 1_000);
    const id = await startImport();
    const retries: string[] = [];
    await drainJobs(t.ctx, { tuning: { ...TUNING, onEvent: (event) => { if (event.type === 'retry') retries.push(event.reason); } }, retryDelayMs: 0 });
    const job = (await getJob(t.ctx.db, id))!;
    expect(job.status, job.error_message ?? '').toBe('COMPLETE');
    expect(retries.some((reason) => /timed out/.test(reason))).toBe(true);
    expect(job.result).toMatchObject({ appointments_cancelled: 3, appointments_created: 0 });
    await expectExactMatch();
  });

  it('ends in ERROR with a message when the PMS stays down, and a later import recovers', async () => {
    sandbox.setFaults({ errorRate: 1 });
    const id = await startImport();
    await t.ctx.db.update(jobs).set({ max_attempts: 2 }).where(eq(jobs.id, id));
    await drainJobs(t.ctx, { tuning: { ...TUNING, maxAttempts: 2 }, retryDelayMs: 0 });
    const job = (await getJob(t.ctx.db, id))!;
    expect(job.status).toBe('ERROR');
    expect(job.error_message).toMatch(/practice management system is unavailable.*tried 2 times/);
    sandbox.setFaults(NO_FAULTS);
    const retry = await startImport();
    await drainJobs(t.ctx, { tuning: TUNING, retryDelayMs: 0 });
    expect((await getJob(t.ctx.db, retry))!.status).toBe('COMPLETE');
    await expectExactMatch();
  });
});

describe('a worker that dies in the middle of an import', () => {
  it('leaves the job to be picked up again after its lease expires; the result is complete and exact', async () => {
    // New appointments appear in the PMS so the import has real work to do.
    const template = sandbox.dataset.appointments.find((a) => a.starts_at >= FROM && !a.cancelled_at && !a.archived_at && !a.deleted_at)!;
    for (let i = 1; i <= 30; i++) {
      const starts = new Date(Date.parse('2026-11-30T22:00:00Z') + i * 60_000);
      sandbox.dataset.appointments.push({
        ...template, id: String(BigInt(template.id) + 900_000n + BigInt(i)), starts_at: starts.toISOString().replace('.000', ''),
        ends_at: new Date(starts.getTime() + 30 * 60_000).toISOString().replace('.000', ''), updated_at: '2026-11-21T11:00:00Z',
      });
    }
    const job = await enqueueJob(t.ctx.db, {
      businessAccountId: acme.businessAccountId, kind: 'IMPORT', startDate: RANGE.start_date, endDate: RANGE.end_date, createdByName: 'Ada acme',
    });
    // The doomed worker claims it with a short lease, applies a few pages, then "dies": no cleanup, no more heartbeats.
    const claimed = (await claimJob(t.ctx.db, 'doomed-worker', 300, job.id))!;
    let pages = 0;
    const died = await runImport({
      ctx: t.ctx, job: claimed, workerId: 'doomed-worker', signal: new AbortController().signal, tuning: TUNING,
      giveWayIfOthersWait: async () => undefined,
      guard: async (tx) => {
        await assertJobHeld(tx, job.id, 'doomed-worker');
        if (++pages > 6) throw new Error('SIGKILL');
      },
    }).then(() => 'finished', (error: Error) => error.message);
    expect(died).toBe('SIGKILL');
    const abandoned = (await getJob(t.ctx.db, job.id))!;
    expect(abandoned).toMatchObject({ status: 'INPROGRESS', locked_by: 'doomed-worker', attempts: 1 });

    await new Promise((resolve) => setTimeout(resolve, 400));
    await drainJobs(t.ctx, { tuning: TUNING, workerId: 'rescuer' });
    const finished = (await getJob(t.ctx.db, job.id))!;
    expect(finished.status, finished.error_message ?? '').toBe('COMPLETE');
    expect(finished.attempts).toBe(2);
    expect((finished.result as { appointments_created: number }).appointments_created).toBe(30);
    await expectExactMatch();
  });

  it('gives up with ERROR and a message once the attempts are used up, never staying INPROGRESS', async () => {
    const job = await enqueueJob(t.ctx.db, {
      businessAccountId: acme.businessAccountId, kind: 'IMPORT', startDate: RANGE.start_date, endDate: RANGE.end_date, maxAttempts: 1,
    });
    expect(await claimJob(t.ctx.db, 'doomed-worker', 50, job.id)).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 100));
    await drainJobs(t.ctx, { tuning: TUNING });
    const ended = (await getJob(t.ctx.db, job.id))!;
    expect(ended.status).toBe('ERROR');
    expect(ended.error_message).toMatch(/stopped responding 1 time\(s\)/);
  });
});
