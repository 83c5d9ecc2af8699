// Fault: an API process is sent SIGTERM (a deploy, a scale-in) with a request in flight (issue 15, "Load and faults").
// Two API processes and a worker process share one PostgreSQL. One API process gets SIGTERM while a client is still
// sending a write's body to it: it stops taking new connections at once, the write still gets its normal answer and
// is stored, and the process exits with code 0 — an open live desk stream on it does not hold it (it is ended first).
// The other API process and the worker go on serving as before, and a step written elsewhere reaches a desk open on it
// (PostgreSQL NOTIFY reaches every process).
import { request as httpRequest } from 'node:http';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appointments, clientTags } from '../../server/src/db/schema';
import { getJob } from '../../server/src/jobs/queue';
import { queueOptimizationRun } from './support/jobs';
import { startProduct, type RunningProduct } from '../e2e/support/server';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';
import { startWorkerProcess, type WorkerProcess } from './support/processes';

interface Answer { status: number; body: unknown }

/** Opens a live desk stream on a process; `text()` is what it has received, `ended` settles when the server ends it. */
async function openDesk(url: string, token: string) {
  const ticket = await fetch(`${url}/api/live/tickets`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
  const { ticket: value } = (await ticket.json()) as { ticket: string };
  const answer = await fetch(`${url}/api/live/events?ticket=${value}`);
  expect(answer.status).toBe(200);
  let text = '';
  const reader = answer.body!.pipeThrough(new TextDecoderStream()).getReader();
  const ended = (async () => {
    for (;;) {
      const { done, value: chunk } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) return;
      text += chunk;
    }
  })();
  return { text: () => text, ended, close: () => reader.cancel().catch(() => {}) };
}

/** How a fetch to a process ended: its status, or the network error's code (ECONNREFUSED once nothing listens). */
const probe = (url: string) => fetch(url, { signal: AbortSignal.timeout(10_000) }).then(
  (answer) => String(answer.status),
  (error: { cause?: { code?: string } }) => error.cause?.code ?? 'failed',
);

describe.skipIf(!process.env.TEST_DATABASE_URL)('an API process sent SIGTERM with a request in flight', () => {
  let t: TestApp;
  let acme: BusinessFixture;
  let leaving: RunningProduct;
  let staying: RunningProduct;
  let worker: WorkerProcess;

  beforeAll(async () => {
    t = await startTestApp();
    acme = await createBusinessFixture(t, 'acme');
    const env = { DATABASE_URL: t.databaseUrl!, APP_SECRET: t.ctx.config.appSecret, START_SANDBOX: 'false', SEED_DEMO: 'false', OPTIMIZER_MAX_SEARCH_MS: '100' };
    // The leaving process runs a worker of its own too, which its shutdown stops.
    [leaving, staying, worker] = await Promise.all([
      startProduct({ ...env, RUN_WORKER: 'true' }, { api: true }),
      startProduct({ ...env, RUN_WORKER: 'false' }, { api: true }),
      startWorkerProcess(env),
    ]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([leaving, staying, worker].map((running) => running?.stop()));
    await t?.close();
  });

  it('finishes the request in flight, refuses new connections and exits 0; the rest carries on', async () => {
    for (const running of [leaving, staying]) await expect.poll(() => probe(`${running.url}/readyz`), { timeout: 30_000 }).toBe('200');
    const [clientId] = acme.clientIds;
    const path = `/api/clients/${clientId}/update_tags`;

    // A write whose headers have arrived but whose body is still on its way.
    const body = JSON.stringify({ tag_ids: acme.tagIds });
    const inFlight = httpRequest(`${leaving.url}${path}`, {
      method: 'PUT', agent: false,
      headers: { authorization: `Bearer ${acme.tokens.admin}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    const answered = new Promise<Answer>((resolve, reject) => {
      inFlight.on('response', (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => { text += chunk; });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }));
      });
      inFlight.on('error', reject);
    });
    inFlight.write(body.slice(0, 4));
    const leavingDesk = await openDesk(leaving.url, acme.tokens.staff);
    const stayingDesk = await openDesk(staying.url, acme.tokens.staff);
    await expect.poll(() => leaving.logs().split('\n').some((line) => line.includes('incoming request') && line.includes(path)), { timeout: 15_000 }).toBe(true);

    leaving.child.kill('SIGTERM');
    await expect.poll(() => leaving.logs().includes('"shutting down"'), { timeout: 15_000 }).toBe(true);
    // New connections are refused while the request in flight keeps the process alive.
    await expect.poll(() => probe(`${leaving.url}/healthz`), { timeout: 15_000, interval: 100 }).toBe('ECONNREFUSED');
    expect(leaving.child.exitCode).toBeNull();

    inFlight.end(body.slice(4));
    const answer = await answered;
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect((answer.body as { tags: { id: number }[] }).tags.map((tag) => tag.id)).toEqual(acme.tagIds);

    // It exits cleanly, on its own, its open desk ended.
    await expect.poll(() => leaving.child.exitCode, { timeout: 15_000 }).toBe(0);
    await leavingDesk.ended;
    expect(leaving.child.signalCode).toBeNull();
    expect(leaving.logs()).toContain('"stopped"');

    // The write is stored, the other API process serves it, and the worker runs jobs as before.
    const stored = await t.ctx.db.select().from(clientTags).where(eq(clientTags.client_id, clientId));
    expect(stored.map((row) => row.tag_id).sort((a, b) => a - b)).toEqual([...acme.tagIds].sort((a, b) => a - b));
    const list = await fetch(`${staying.url}/api/clients?per_page=50`, { headers: { authorization: `Bearer ${acme.tokens.admin}` } });
    expect(list.status).toBe(200);
    const listed = ((await list.json()) as { clients: { id: number; tags: { id: number }[] }[] }).clients.find((client) => client.id === clientId)!;
    expect(listed.tags.map((tag) => tag.id)).toEqual(acme.tagIds);
    await expect.poll(() => probe(`${staying.url}/readyz`), { timeout: 30_000 }).toBe('200');
    const job = await queueOptimizationRun(t.ctx.db, acme.businessAccountId, '2026-11-24', acme.practitionerIds.slice(0, 1));
    await expect.poll(async () => (await getJob(t.ctx.db, job.id))?.finished_at, { timeout: 30_000, interval: 250 }).toBeTruthy();
    expect(worker.logs()).toContain(`"jobId":${job.id}`);
    expect(worker.child.exitCode).toBeNull();

    // A step recorded through another process reaches the desk open on the staying one within 2 s of its answer.
    const starts = new Date();
    const [visit] = await t.ctx.db.insert(appointments).values({
      business_account_id: acme.businessAccountId, client_id: acme.clientIds[0], practitioner_id: acme.practitionerIds[0],
      appointment_type_id: acme.appointmentTypeIds[0], starts_at: starts, ends_at: new Date(starts.getTime() + 45 * 60_000), arrive_at: starts,
    }).returning({ id: appointments.id });
    const recorded = await t.request('POST', `/api/appointments/${visit.id}/steps`, { token: acme.tokens.staff, body: { idempotency_key: `sigterm-${visit.id}`, step: 'on_my_way' } });
    expect(recorded.status).toBe(201);
    await expect.poll(() => stayingDesk.text(), { timeout: 2_000, interval: 50 }).toContain(`"appointment_id":${visit.id}`);
    await stayingDesk.close();
  }, 90_000);
});
