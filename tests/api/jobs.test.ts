// The job queue and worker: distinct claims under concurrency, a worker that starts and stops cleanly, cancelling
// a running import between pages, a refused API key turning the provider account to CONNECTION_ERROR, and a
// clean shutdown handing the running job back.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { providerAccounts } from '../../server/src/db/schema';
import { cancelJob, claimJob, enqueueJob, getJob } from '../../server/src/jobs/queue';
import { NO_FAULTS, startSandbox, type SandboxHandle } from '../../server/src/pms/sandbox';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';
import { drainJobs, RECONNECT_MESSAGE, startWorker, waitForJob } from './support/jobs';

let t: TestApp;
let sandbox: SandboxHandle;
let acme: BusinessFixture;

const RANGE = { start_date: '2026-11-23', end_date: '2026-11-29' };
const FAST = { maxAttempts: 3, backoffBaseMs: 5, backoffMaxMs: 20, requestTimeoutMs: 3_000 };

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 5, startDate: '2026-11-23', weeks: 1, patients: 50, practitioners: 4, inactivePractitioners: 0 });
  t = await startTestApp({ clinikoBaseUrl: sandbox.url });
  acme = await createBusinessFixture(t, 'acme');
  expect((await t.request('POST', '/api/provider_account', { token: acme.tokens.admin, body: { api_key: sandbox.apiKey } })).status).toBe(201);
  await drainJobs(t.ctx, { tuning: FAST });
});
afterAll(async () => {
  await t?.close();
  await sandbox?.close();
});

describe('claiming', () => {
  it('hands each job to exactly one claimer, oldest first', async () => {
    const jobs = [];
    // Reminders runs: a business may have several running at once (imports and exports run one at a time per business).
    for (let i = 0; i < 5; i++) {
      jobs.push(await enqueueJob(t.ctx.db, { businessAccountId: acme.businessAccountId, kind: 'REMINDERS', startDate: '2026-11-23', endDate: '2026-11-23' }));
    }
    const claims = await Promise.all(Array.from({ length: 7 }, (_, i) => claimJob(t.ctx.db, `claimer-${i}`, 60_000)));
    const claimed = claims.filter((job) => job !== null).map((job) => job!.id).sort((a, b) => a - b);
    expect(claimed).toEqual(jobs.map((job) => job.id));
    expect(claims.filter((job) => job === null)).toHaveLength(2);
    for (const job of jobs) await cancelJob(t.ctx.db, job.id);
  });
});

describe('the worker loop', () => {
  it('runs jobs as they are enqueued and stops cleanly on close', async () => {
    const worker = startWorker(t.ctx, { pollMs: 20, tuning: FAST });
    const created = await t.request('POST', '/api/imports', { token: acme.tokens.admin, body: RANGE });
    const done = await waitForJob(t.ctx, created.body.import.id, 30_000);
    expect(done.status).toBe('COMPLETE');
    await worker.close();
    const later = await t.request('POST', '/api/imports', { token: acme.tokens.admin, body: RANGE });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await getJob(t.ctx.db, later.body.import.id))!.status).toBe('PENDING');
    await t.request('POST', `/api/imports/${later.body.import.id}/cancel`, { token: acme.tokens.admin });
  });

  it('notices a cancellation between pages and leaves the job CANCELLED', async () => {
    sandbox.setFaults({ latencyMs: 120 });
    const worker = startWorker(t.ctx, { pollMs: 20, tuning: { ...FAST, perPage: 5 } });
    try {
      const created = await t.request('POST', '/api/imports', { token: acme.tokens.staff, body: RANGE });
      const id = created.body.import.id;
      for (let i = 0; i < 200 && (await getJob(t.ctx.db, id))!.status !== 'INPROGRESS'; i++) await new Promise((r) => setTimeout(r, 20));
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const cancelled = await t.request('POST', `/api/imports/${id}/cancel`, { token: acme.tokens.staff });
      expect(cancelled.status).toBe(200);
      expect(cancelled.body.import.status).toBe('CANCELLED');
      const requests = sandbox.requestLog.length;
      await new Promise((resolve) => setTimeout(resolve, 600));
      // At most the page in flight finishes; nothing more is fetched and the status stays CANCELLED.
      expect(sandbox.requestLog.length - requests).toBeLessThanOrEqual(2);
      expect((await getJob(t.ctx.db, id))!.status).toBe('CANCELLED');
      // The worker is free for the next job.
      sandbox.setFaults(NO_FAULTS);
      const next = await t.request('POST', '/api/imports', { token: acme.tokens.staff, body: RANGE });
      expect((await waitForJob(t.ctx, next.body.import.id, 30_000)).status).toBe('COMPLETE');
    } finally {
      sandbox.setFaults(NO_FAULTS);
      await worker.close();
    }
  }, 60_000); // the next import alone may take the 30 s it is given on a busy machine, after the cancelled one

  it('hands a running job back to the queue when the worker shuts down, without counting the attempt', async () => {
    sandbox.setFaults({ latencyMs: 150 });
    const worker = startWorker(t.ctx, { pollMs: 20, tuning: { ...FAST, perPage: 5 } });
    const created = await t.request('POST', '/api/imports', { token: acme.tokens.admin, body: RANGE });
    const id = created.body.import.id;
    for (let i = 0; i < 200 && (await getJob(t.ctx.db, id))!.status !== 'INPROGRESS'; i++) await new Promise((r) => setTimeout(r, 20));
    await new Promise((resolve) => setTimeout(resolve, 400));
    const closing = Date.now();
    await worker.close();
    expect(Date.now() - closing).toBeLessThan(2_000);
    expect(await getJob(t.ctx.db, id)).toMatchObject({ status: 'PENDING', attempts: 0, locked_by: null });
    sandbox.setFaults(NO_FAULTS);
    await drainJobs(t.ctx, { tuning: FAST });
    expect(await getJob(t.ctx.db, id)).toMatchObject({ status: 'COMPLETE', attempts: 1 });
  });
});

describe('a key the PMS refuses later', () => {
  it('ends the job in ERROR, sets the provider account to CONNECTION_ERROR with what to do, and reconnecting fixes it', async () => {
    await t.ctx.db.update(providerAccounts).set({ api_key_encrypted: t.ctx.secrets.seal('revoked-key-0000-au1') })
      .where(eq(providerAccounts.business_account_id, acme.businessAccountId));
    const created = await t.request('POST', '/api/imports', { token: acme.tokens.admin, body: RANGE });
    await drainJobs(t.ctx, { tuning: FAST });
    const job = await t.request('GET', `/api/imports/${created.body.import.id}`, { token: acme.tokens.admin });
    expect(job.body.import).toMatchObject({ status: 'ERROR', error_message: RECONNECT_MESSAGE });
    const account = await t.request('GET', '/api/provider_account/current', { token: acme.tokens.staff });
    expect(account.body.provider_account).toMatchObject({ status: 'CONNECTION_ERROR', last_error: RECONNECT_MESSAGE });
    const refused = await t.request('POST', '/api/imports', { token: acme.tokens.admin, body: RANGE });
    expect(refused.body.code).toBe('PROVIDER_ACCOUNT_NOT_ACTIVE');

    expect((await t.request('POST', '/api/provider_account', { token: acme.tokens.admin, body: { api_key: sandbox.apiKey } })).status).toBe(201);
    await drainJobs(t.ctx, { tuning: FAST });
    const fixed = await t.request('GET', '/api/provider_account/current', { token: acme.tokens.admin });
    expect(fixed.body.provider_account).toMatchObject({ status: 'ACTIVE', last_error: null });
  });
});
