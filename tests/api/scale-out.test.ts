// Scale-out on PostgreSQL: two API processes, each with its job worker, on one database. Every job is started by
// exactly one worker, and each process's list cache answers what the other process just wrote.
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueJob, getJob } from '../../server/src/jobs/queue';
import { repoRoot } from '../../server/src/paths';
import { freePort } from '../e2e/support/server';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';

const JOBS = 24;

interface ApiProcess { url: string; child: ChildProcess; log: () => string }

async function startApiProcess(databaseUrl: string, appSecret: string): Promise<ApiProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: url, DATABASE_URL: databaseUrl, APP_SECRET: appSecret,
      RUN_WORKER: 'true', START_SANDBOX: 'false', SEED_DEMO: 'false', LOG_LEVEL: 'info', OPTIMIZER_MAX_SEARCH_MS: '100',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk) => { output += chunk; });
  child.stderr!.on('data', (chunk) => { output += chunk; });
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the API process exited early:\n${output}`);
    if (Date.now() > deadline) throw new Error(`the API process was not ready in time:\n${output}`);
    const ready = await fetch(`${url}/readyz`).then((response) => response.ok, () => false);
    if (ready) return { url, child, log: () => output };
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

async function stop({ child }: ApiProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

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
  let processes: ApiProcess[] = [];

  beforeAll(async () => {
    t = await startTestApp();
    acme = await createBusinessFixture(t, 'acme');
    processes = await Promise.all([0, 1].map(() => startApiProcess(t.databaseUrl!, t.ctx.config.appSecret)));
  }, 120_000);
  afterAll(async () => {
    await Promise.all(processes.map(stop));
    await t?.close();
  });

  it('starts every job in exactly one worker', async () => {
    const day = (index: number) => `2026-12-${String(1 + index).padStart(2, '0')}`;
    const jobs = await Promise.all(Array.from({ length: JOBS }, (_, index) => enqueueJob(t.ctx.db, {
      businessAccountId: acme.businessAccountId, kind: 'OPTIMIZE', startDate: day(index), endDate: day(index),
      filters: { practitioner_ids: acme.practitionerIds.slice(0, 1), appointment_type_ids: [], business_location_ids: [] },
      params: { mode: 'keep_practitioners' },
    })));
    const ids = jobs.map((job) => job.id).sort((a, b) => a - b);
    await expect.poll(async () => {
      const rows = await Promise.all(ids.map((id) => getJob(t.ctx.db, id)));
      return rows.filter((row) => row && ['COMPLETE', 'ERROR'].includes(row.status)).length;
    }, { timeout: 60_000, interval: 250 }).toBe(JOBS);

    const [first, second] = processes.map((running) => startedJobIds(running.log()).filter((id) => ids.includes(id)));
    expect([...first, ...second].sort((a, b) => a - b)).toEqual(ids);
    for (const id of ids) expect((await getJob(t.ctx.db, id))!.attempts).toBe(1);
  }, 90_000);

  it("answers in each process's list what the other process just wrote", async () => {
    const [a, b] = processes;
    const headers = { authorization: `Bearer ${acme.tokens.admin}`, 'content-type': 'application/json' };
    const clientsOf = async (running: ApiProcess) => {
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
