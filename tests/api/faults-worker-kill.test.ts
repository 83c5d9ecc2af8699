// Fault: a worker process is killed with SIGKILL in the middle of an import (issue 15, "Load and faults"). An API
// process and two worker processes share one PostgreSQL and import over real HTTP from the Cliniko sandbox (slowed
// down, so that the import is under way for seconds). The worker holding the job's lease is killed: no cleanup, no
// more lease renewals. The lease expires (JOB_LEASE_SECONDS, short here), the other worker takes the job over and
// finishes it, and the local appointments and clients then equal the PMS's: none missing, none extra, none twice.
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/src/db/client';
import { appointments, clients, resourceMaps } from '../../server/src/db/schema';
import { getJob } from '../../server/src/jobs/queue';
import { NO_FAULTS, startSandbox, type SandboxHandle } from '../../server/src/pms/sandbox';
import { startProduct, type RunningProduct } from '../e2e/support/server';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';
import { startWorkerProcess, type WorkerProcess } from './support/processes';

const RANGE = { start_date: '2026-11-23', end_date: '2026-12-13' };
// The range's bounds in the business's time zone (Brisbane, UTC+10).
const FROM = '2026-11-22T14:00:00Z';
const TO = '2026-12-13T14:00:00Z';

describe.skipIf(!process.env.TEST_DATABASE_URL)('a worker killed with SIGKILL in the middle of an import', () => {
  let sandbox: SandboxHandle;
  let t: TestApp;
  let acme: BusinessFixture;
  let api: RunningProduct;
  let workers: WorkerProcess[] = [];

  beforeAll(async () => {
    sandbox = await startSandbox({ seed: 99, startDate: '2026-11-23', weeks: 3, patients: 300, practitioners: 8, inactivePractitioners: 1 });
    t = await startTestApp({ clinikoBaseUrl: sandbox.url });
    acme = await createBusinessFixture(t, 'acme');
    const env = { DATABASE_URL: t.databaseUrl!, APP_SECRET: t.ctx.config.appSecret, CLINIKO_BASE_URL: sandbox.url, JOB_LEASE_SECONDS: '3' };
    [api, ...workers] = await Promise.all([
      startProduct({ ...env, RUN_WORKER: 'false', START_SANDBOX: 'false', SEED_DEMO: 'false' }, { api: true }),
      startWorkerProcess(env),
      startWorkerProcess(env),
    ]) as [RunningProduct, WorkerProcess, WorkerProcess];
  }, 120_000);
  afterAll(async () => {
    await Promise.all([api, ...workers].map((running) => running?.stop()));
    await t?.close();
    await sandbox?.close();
  });

  const sandboxActive = () => sandbox.dataset.appointments
    .filter((a) => a.starts_at >= FROM && a.starts_at < TO && !a.cancelled_at && !a.archived_at && !a.deleted_at);

  /** The business's imported appointments (not cancelled, in the range), by their PMS id, with their PMS client's id. */
  const localActive = () => queryRows<{ external_id: string; starts_at: string | Date; patient_id: string | null }>(t.ctx.db, sql`
    SELECT am.external_id, a.starts_at, cm.external_id AS patient_id
    FROM ${appointments} a
    JOIN ${resourceMaps} am ON am.resource_type = 'Appointment' AND am.resource_id = a.id
    LEFT JOIN ${resourceMaps} cm ON cm.resource_type = 'Client' AND cm.resource_id = a.client_id
    WHERE a.business_account_id = ${acme.businessAccountId} AND a.cancelled_at IS NULL
      AND a.starts_at >= ${FROM}::timestamptz AND a.starts_at < ${TO}::timestamptz`);

  it('lets the lease expire, another worker finishes the import, and the local data equals the PMS', async () => {
    await expect.poll(() => fetch(`${api.url}/readyz`).then((answer) => answer.status, () => 0), { timeout: 30_000 }).toBe(200);
    const headers = { authorization: `Bearer ${acme.tokens.admin}`, 'content-type': 'application/json' };
    const call = async (method: string, path: string, body?: unknown) => {
      const answer = await fetch(`${api.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: answer.status, body: (await answer.json()) as Record<string, any> };
    };
    // Connect the PMS (a worker runs the setup job).
    const connected = await call('POST', '/api/provider_account', { api_key: sandbox.apiKey });
    expect(connected.status, JSON.stringify(connected.body)).toBe(201);
    await expect.poll(async () => (await call('GET', '/api/provider_account/current')).body.provider_account?.status, { timeout: 45_000 }).toBe('ACTIVE');

    // Every PMS answer is slow while the import is started and caught in the middle.
    sandbox.setFaults({ latencyMs: 400 });
    const started = await call('POST', '/api/imports', RANGE);
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const jobId = started.body.import.id as number;
    await expect.poll(async () => {
      const job = await getJob(t.ctx.db, jobId);
      return job?.status === 'INPROGRESS' && job.locked_by !== null && (await localActive()).length > 0;
    }, { timeout: 45_000, interval: 50 }).toBe(true);

    // Kill the worker that holds the lease, mid-import.
    const holder = (await getJob(t.ctx.db, jobId))!;
    expect(holder.status).toBe('INPROGRESS');
    const pid = Number(holder.locked_by!.split(':').at(-2));
    const doomed = workers.find((worker) => worker.child.pid === pid);
    const survivor = workers.find((worker) => worker !== doomed)!;
    expect(doomed, `the lease holder ${holder.locked_by} is one of the test's workers`).toBeDefined();
    const exited = new Promise((resolve) => doomed!.child.once('exit', resolve));
    doomed!.child.kill('SIGKILL');
    await exited;
    expect(doomed!.child.signalCode).toBe('SIGKILL');
    const partial = (await localActive()).length;
    expect(partial).toBeLessThan(sandboxActive().length);
    expect((await getJob(t.ctx.db, jobId))!.status).toBe('INPROGRESS');
    sandbox.setFaults(NO_FAULTS);

    // The lease runs out and the other worker takes the job over and finishes it.
    await expect.poll(async () => (await getJob(t.ctx.db, jobId))?.status, { timeout: 60_000, interval: 250 }).not.toBe('INPROGRESS');
    const job = (await getJob(t.ctx.db, jobId))!;
    expect(job.status, job.error_message ?? '').toBe('COMPLETE');
    expect(job.attempts).toBe(2);
    expect(job.error_message).toBeNull();
    const survivorLog = survivor.logs();
    expect(survivorLog).toMatch(new RegExp(`"jobId":${jobId}[^\\n]*"attempt":2[^\\n]*"job started"`));
    expect(survivorLog).toMatch(new RegExp(`"jobId":${jobId}[^\\n]*"job complete"`));
    const shown = await call('GET', `/api/imports/${jobId}`);
    expect(shown.status).toBe(200);

    // Appointments: the same ones as the PMS's, each once, at the PMS's time, for the PMS's client.
    const local = await localActive();
    const pms = sandboxActive();
    expect(local.length).toBe(pms.length);
    expect(local.map((row) => row.external_id).sort()).toEqual(pms.map((a) => a.id).sort());
    const byId = new Map(pms.map((a) => [a.id, a]));
    for (const row of local) {
      expect(new Date(row.starts_at).getTime()).toBe(Date.parse(byId.get(row.external_id)!.starts_at));
      expect(row.patient_id).toBe(byId.get(row.external_id)!.patient_id);
    }
    const [{ unmapped }] = await queryRows<{ unmapped: number }>(t.ctx.db, sql`
      SELECT count(*)::int AS unmapped FROM appointments WHERE business_account_id = ${acme.businessAccountId}
        AND id NOT IN (SELECT resource_id FROM resource_maps WHERE resource_type = 'Appointment')`);
    expect(unmapped).toBe(acme.appointmentIds.length); // only the fixture's own

    // Clients: every PMS client with a visit in the range is here once, under the PMS's name; none is made up.
    const localClients = await t.ctx.db.select({ external_id: resourceMaps.external_id, first_name: clients.first_name, last_name: clients.last_name })
      .from(clients).innerJoin(resourceMaps, and(eq(resourceMaps.resource_type, 'Client'), eq(resourceMaps.resource_id, clients.id)))
      .where(eq(clients.business_account_id, acme.businessAccountId));
    const ids = localClients.map((row) => row.external_id);
    expect(new Set(ids).size).toBe(ids.length);
    const patients = new Map(sandbox.dataset.patients.map((patient) => [patient.id, patient]));
    for (const id of new Set(pms.map((a) => a.patient_id))) expect(ids).toContain(id);
    for (const row of localClients) {
      const patient = patients.get(row.external_id);
      expect(patient, `client ${row.external_id} is in the PMS`).toBeDefined();
      expect([row.first_name, row.last_name]).toEqual([patient!.first_name, patient!.last_name]);
    }
  }, 120_000);
});
