// Scale-out on PostgreSQL: two API processes, each with its job worker, on one database. Every job is started by
// exactly one worker, and each process's list cache answers what the other process just wrote.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getJob } from '../../server/src/jobs/queue';
import { queueOptimizationRun } from './support/jobs';
import { startProduct, type RunningProduct } from '../e2e/support/server';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';

const JOBS = 24;

/** An API process with its job worker on the database; logs at info, where each job's start is written. */
const startApiProcess = (databaseUrl: string, appSecret: string) => startProduct({
  DATABASE_URL: databaseUrl, APP_SECRET: appSecret, RUN_WORKER: 'true', START_SANDBOX: 'false', SEED_DEMO: 'false',
  LOG_LEVEL: 'info', OPTIMIZER_MAX_SEARCH_MS: '100',
}, { api: true });

/** The ids of the jobs whose start a process logged. */
const startedJobIds = (log: string) => log.split('\n').flatMap((line) => {
  if (!line.startsWith('{')) return [];
  const entry = JSON.parse(line) as { msg?: string; jobId?: number };
  return entry.msg === 'job started' && typeof entry.jobId === 'number' ? [entry.jobId] : [];
});

// PGlite is one process's database: scale-out is a PostgreSQL matter.
describe.skipIf(!process.env.TEST_DATABASE_URL)('two API processes and two workers on one PostgreSQL', () => {
  let t: TestApp;
  let acme: BusinessFixture;
  let processes: RunningProduct[] = [];

  beforeAll(async () => {
    t = await startTestApp();
    acme = await createBusinessFixture(t, 'acme');
    processes = await Promise.all([0, 1].map(() => startApiProcess(t.databaseUrl!, t.ctx.config.appSecret)));
  }, 120_000);
  afterAll(async () => {
    await Promise.all(processes.map((running) => running.stop()));
    await t?.close();
  });

  it('starts every job in exactly one worker', async () => {
    // Each process is ready once its own worker has reported.
    for (const running of processes) await expect.poll(() => fetch(`${running.url}/readyz`).then((answer) => answer.status), { timeout: 30_000 }).toBe(200);
    const day = (index: number) => `2026-12-${String(1 + index).padStart(2, '0')}`;
    const jobs = await Promise.all(Array.from({ length: JOBS }, (_, index) =>
      queueOptimizationRun(t.ctx.db, acme.businessAccountId, day(index), acme.practitionerIds.slice(0, 1))));
    const ids = jobs.map((job) => job.id).sort((a, b) => a - b);
    await expect.poll(async () => {
      const rows = await Promise.all(ids.map((id) => getJob(t.ctx.db, id)));
      return rows.filter((row) => row && ['COMPLETE', 'ERROR'].includes(row.status)).length;
    }, { timeout: 60_000, interval: 250 }).toBe(JOBS);

    const [first, second] = processes.map((running) => startedJobIds(running.logs()).filter((id) => ids.includes(id)));
    expect([...first, ...second].sort((a, b) => a - b)).toEqual(ids);
    for (const id of ids) expect((await getJob(t.ctx.db, id))!.attempts).toBe(1);
  }, 90_000);

  it("answers in each process's list what the other process just wrote", async () => {
    const [a, b] = processes;
    const headers = { authorization: `Bearer ${acme.tokens.admin}`, 'content-type': 'application/json' };
    const clientsOf = async (running: RunningProduct) => {
      const response = await fetch(`${running.url}/api/clients?per_page=50`, { headers });
      expect(response.status).toBe(200);
      return ((await response.json()) as { clients: { id: number; tags: { id: number }[] }[] }).clients;
    };
    const tagsOf = (list: { id: number; tags: { id: number }[] }[], id: number) => list.find((client) => client.id === id)!.tags.map((tag) => tag.id);
    const [client] = acme.clientIds;

    // Both caches hold the list without the tag.
    expect(tagsOf(await clientsOf(a), client)).toEqual([]);
    expect(tagsOf(await clientsOf(b), client)).toEqual([]);
    const tagged = await fetch(`${b.url}/api/clients/${client}/update_tags`, { method: 'PUT', headers, body: JSON.stringify({ tag_ids: acme.tagIds }) });
    expect(tagged.status).toBe(200);
    expect(tagsOf(await clientsOf(a), client)).toEqual(acme.tagIds);
    expect(tagsOf(await clientsOf(b), client)).toEqual(acme.tagIds);
  });
});
