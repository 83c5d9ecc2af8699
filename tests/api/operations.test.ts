// What an operator runs Rounds with: liveness and readiness, Prometheus metrics (behind METRICS_TOKEN when set), and a
// request id on every answer that a 500 shows the user.
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { parse as parseYaml } from 'yaml';
import { contractPath } from '../../server/src/app';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';
import { enqueueJob } from '../../server/src/jobs/queue';
import { startWorker } from './support/jobs';

let t: TestApp;
let acme: BusinessFixture;

beforeAll(async () => {
  t = await startTestApp({ metricsToken: 'scrape-secret' });
  acme = await createBusinessFixture(t, 'acme');
});
afterAll(() => t.close());

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

/** One sample of a metric from the Prometheus text, by its labels (all of them given). */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  const line = text.split('\n').find((entry) => {
    if (!entry.startsWith(`${name}{`)) return false;
    const given = entry.slice(name.length + 1, entry.indexOf('}')).split(',');
    return wanted.length === given.length && wanted.every((label) => given.includes(label));
  });
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('health', () => {
  it('/healthz says the process is up', async () => {
    const answer = await get('/healthz');
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ status: 'ok' });
  });

  it('/readyz is ready only while a job worker reports, and says what is missing', async () => {
    const before = await get('/readyz');
    expect(before.statusCode).toBe(503);
    expect(before.json()).toEqual({
      status: 'not ready',
      checks: { database: 'ok', migrations: 'ok', worker: 'no job worker has reported in the last 30 s' },
    });

    const worker = startWorker(t.ctx, { pollMs: 20 });
    try {
      // A readiness answer is reused for a second.
      await expect.poll(async () => (await get('/readyz')).statusCode, { timeout: 5_000 }).toBe(200);
      expect((await get('/readyz')).json()).toEqual({ status: 'ready', checks: { database: 'ok', migrations: 'ok', worker: 'ok' } });
    } finally {
      await worker.close();
    }
    await expect.poll(async () => (await get('/readyz')).statusCode, { timeout: 5_000 }).toBe(503);
  });
});

describe('metrics', () => {
  it('asks for the token when METRICS_TOKEN is set', async () => {
    expect((await get('/metrics')).statusCode).toBe(401);
    expect((await get('/metrics', { authorization: 'Bearer wrong-secret' })).statusCode).toBe(401);
    const answer = await get('/metrics', { authorization: 'Bearer scrape-secret' });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/plain/);
  });

  it('counts requests by route pattern, list-cache hits, and the job queue', async () => {
    const scrape = async () => (await get('/metrics', { authorization: 'Bearer scrape-secret' })).body;
    const route = { method: 'GET', route: '/api/clients', status: '200' };
    const hits = { result: 'hit' };
    const first = await scrape();
    const requestsBefore = sample(first, 'rounds_http_request_duration_seconds_count', route) ?? 0;
    const hitsBefore = sample(first, 'rounds_list_cache_lookups_total', hits) ?? 0;

    for (let i = 0; i < 3; i++) expect((await t.request('GET', '/api/clients', { token: acme.tokens.admin })).status).toBe(200);
    // A job waiting (no worker runs here).
    await enqueueJob(t.ctx.db, { businessAccountId: acme.businessAccountId, kind: 'IMPORT', startDate: '2026-11-23', endDate: '2026-11-29' });

    const after = await scrape();
    expect(sample(after, 'rounds_http_request_duration_seconds_count', route)).toBe(requestsBefore + 3);
    // The same list asked three times: two answers came from the cache.
    expect(sample(after, 'rounds_list_cache_lookups_total', hits)).toBe(hitsBefore + 2);
    expect(sample(after, 'rounds_job_queue_depth', { status: 'PENDING', kind: 'IMPORT' })).toBe(1);
    expect(after).toMatch(/^rounds_job_queue_oldest_age_seconds \d/m);
    expect(after).toMatch(/^rounds_nodejs_eventloop_lag_seconds /m);
    expect(after).toMatch(/^rounds_process_resident_memory_bytes /m);
  });
});

describe('the API reference', () => {
  it('serves the contract the routes are bound to, and the interactive page over it', async () => {
    const contract = parseYaml(readFileSync(contractPath, 'utf8')) as { paths: Record<string, unknown> };
    const json = await get('/api/docs/json');
    expect(json.statusCode).toBe(200);
    expect(Object.keys(json.json().paths)).toEqual(Object.keys(contract.paths));
    const page = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('<title>Rounds API reference</title>');
    expect(String(page.headers['content-security-policy'])).not.toContain('upgrade-insecure-requests');
  });
});

describe('request ids', () => {
  it('answers every request with an id, keeps a plain one given, and never a forged one', async () => {
    const mine = await get('/api/config', { 'x-request-id': 'lb-7f3a.42' });
    expect(mine.headers['x-request-id']).toBe('lb-7f3a.42');
    const forged = await get('/api/config', { 'x-request-id': 'x\nlevel=error forged' });
    expect(forged.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const refused = await t.request('GET', '/api/clients');
    expect(refused.status).toBe(401);
    expect(refused.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("puts the id in a 500's message, for the user to quote", async () => {
    // A table gone from under the server: the one way left to make it fail unexpectedly.
    await t.ctx.db.execute(sql`ALTER TABLE tags RENAME TO tags_away`);
    const answer = await t.app.inject({ method: 'GET', url: '/api/tags/all', headers: { authorization: `Bearer ${acme.tokens.admin}` } });
    await t.ctx.db.execute(sql`ALTER TABLE tags_away RENAME TO tags`);
    expect(answer.statusCode).toBe(500);
    const id = answer.headers['x-request-id'];
    expect(answer.json()).toEqual({
      message: `Something went wrong on our side. Please try again; if it keeps happening, tell support the reference ${id}.`,
      code: 'INTERNAL', request_id: id,
    });
  });
});
