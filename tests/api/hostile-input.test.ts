// Hostile input never takes the server down or answers 500: bodies far over the limit are refused while they arrive,
// deeply nested and malformed-Unicode bodies are refused with a message on every operation, ids beyond the database's
// integers are refused, concurrent demotions of the last administrators are serialised, and the operator endpoints
// are rate-limited.
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../server/src/app';
import { createUser } from '../../server/src/modules/business-account';
import { workerHeartbeat } from '../../server/src/operations/health';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, PASSWORD, type BusinessFixture } from './support/fixtures';
import { sampleFor } from './support/samples';

const MiB = 1024 * 1024;

let t: TestApp;
let acme: BusinessFixture;
let baseUrl: string;

beforeAll(async () => {
  t = await startTestApp();
  acme = await createBusinessFixture(t, 'acme');
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}, 60_000);
afterAll(() => t?.close());

interface ChunkedResult { status: number; body: { message?: string }; sentBeforeAnswer: number; sent: number; closedByServer: boolean }

/**
 * Streams `total` bytes of JSON whitespace as a chunked body, keeping on after the answer until the server closes
 * the connection, everything is sent, or nothing moves for 5 s: how much was sent says whether the server stopped
 * reading, and closedByServer whether it let the connection go instead of leaving it open.
 */
function sendChunked(method: string, path: string, total: number): Promise<ChunkedResult> {
  return new Promise((resolve, reject) => {
    const chunk = Buffer.alloc(64 * 1024, ' ');
    let sent = 0;
    let sentBeforeAnswer = -1;
    let answer: { status: number; text: string } | null = null;
    let finished = false;
    let stall: NodeJS.Timeout | undefined;
    const finish = (closedByServer: boolean) => {
      if (finished) return;
      finished = true;
      clearTimeout(stall);
      if (!closedByServer) outgoing.destroy();
      if (!answer) { reject(new Error(`no answer after sending ${sent} bytes`)); return; }
      let body: { message?: string } = {};
      try { body = JSON.parse(answer.text); } catch { /* not JSON: the expectations say so */ }
      resolve({ status: answer.status, body, sentBeforeAnswer, sent, closedByServer });
    };
    const watch = () => { clearTimeout(stall); stall = setTimeout(() => finish(false), 5_000); };
    const outgoing = httpRequest(`${baseUrl}${path}`, { method, headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } });
    outgoing.on('response', (incoming) => {
      sentBeforeAnswer = sent;
      let text = '';
      incoming.setEncoding('utf8');
      incoming.on('data', (part: string) => { text += part; });
      incoming.on('end', () => { answer = { status: incoming.statusCode ?? 0, text }; });
    });
    // The server closing the connection mid-body shows up as an error of the request (EPIPE, ECONNRESET).
    outgoing.on('error', () => setTimeout(() => finish(true), 50));
    outgoing.on('close', () => setTimeout(() => finish(sent < total), 50));
    const pump = () => {
      watch();
      while (sent < total && !outgoing.destroyed) {
        sent += chunk.length;
        if (!outgoing.write(chunk)) { outgoing.once('drain', pump); return; }
      }
      if (sent >= total && !outgoing.destroyed) outgoing.end();
    };
    pump();
  });
}

describe('bodies over the 1 MiB limit', () => {
  const TOTAL = 64 * MiB;

  it.each([
    ['the Stripe webhook (kept as sent for its signature)', 'POST', '/api/billing/stripe/webhook'],
    ['login (parsed as JSON)', 'POST', '/api/auth/login'],
    ['a call that takes no body', 'GET', '/healthz'],
  ])('are refused while they arrive on %s: the server stops reading long before the end', async (_name, method, path) => {
    const result = await sendChunked(method, path, TOTAL);
    if (method === 'POST') {
      expect(result.status).toBe(413);
      expect(result.body.message).toMatch(/too large/);
    }
    // The answer came after about the limit, not the whole body, and the connection was closed rather than kept.
    expect(result.sentBeforeAnswer).toBeLessThan(TOTAL / 4);
    expect(result.sent).toBeLessThan(TOTAL / 2);
    expect(result.closedByServer).toBe(true);
  }, 60_000);

  it('the server still answers afterwards', async () => {
    expect((await fetch(`${baseUrl}/healthz`)).status).toBe(200);
  });
});

type Operation = { operationId: string; security?: unknown[]; 'x-roles'?: string[]; requestBody?: { content: Record<string, { schema: any }> } };
const contract = loadContract() as unknown as { paths: Record<string, Record<string, Operation>>; components: Record<string, Record<string, any>> };
const resolve = (ref: string) => ref.replace('#/components/', '').split('/').reduce((node: any, key) => node[key], contract.components);
/** Every operation of the contract that takes a JSON body, with a schema-valid sample of it. */
const withBody = Object.entries(contract.paths).flatMap(([path, item]) => Object.entries(item)
  .filter(([, operation]) => operation.requestBody?.content['application/json'])
  .map(([method, operation]) => ({
    name: `${method.toUpperCase()} ${path}`, method: method.toUpperCase(), url: `/api${path.replace('{id}', '1')}`, operation,
    sample: sampleFor(operation.requestBody!.content['application/json'].schema, resolve),
  })));

function tokenFor(operation: Operation): string | undefined {
  if (Array.isArray(operation.security) && operation.security.length === 0) return undefined;
  const allowed = operation['x-roles'] ?? ['ADMIN'];
  return allowed.includes('ADMIN') ? acme.tokens.admin : allowed.includes('REGULAR_USER') ? acme.tokens.staff : acme.tokens.practitioner;
}

/** The sample with every string (keys aside) given a lone high surrogate at its end. */
function withLoneSurrogates(value: unknown): unknown {
  if (typeof value === 'string') return `${value}\ud800`;
  if (Array.isArray(value)) return value.map(withLoneSurrogates);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withLoneSurrogates(item)]));
  return value;
}

const DEPTH = 100_000;
const nested = `${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`;

describe('deeply nested and malformed-Unicode bodies', () => {
  it('covers the contract: every operation with a JSON body', () => {
    expect(withBody.length).toBeGreaterThan(30);
    expect(withBody.map(({ operation }) => operation.operationId)).toContain('login');
  });

  it('login refuses 100,000 nested arrays (200 KB) with a message, not a 500', async () => {
    const response = await t.request('POST', '/api/auth/login', { rawBody: nested });
    expect(response.status).toBe(422);
    expect(response.body.message).toMatch(/too deeply nested/);
  });

  it.each(withBody)('$name answers a nested body, and a lone surrogate in every string, with a 4xx and a message', async ({ method, url, operation, sample }) => {
    const token = tokenFor(operation);
    const deep = await t.request(method, url, { token, rawBody: nested });
    expect([deep.status, deep.body?.message]).toEqual([expect.toSatisfy((status: number) => status >= 400 && status < 500), expect.any(String)]);
    // A sample without strings (every field optional) may succeed; one with them is refused with a message.
    const surrogate = await t.request(method, url, { token, body: withLoneSurrogates(sample) });
    expect(surrogate.status, JSON.stringify(surrogate.body)).toBeLessThan(500);
    if (JSON.stringify(withLoneSurrogates(sample)).includes('\\ud800')) {
      expect(surrogate.status, JSON.stringify(surrogate.body)).toBeGreaterThanOrEqual(400);
      expect(surrogate.body.message).toEqual(expect.any(String));
    }
  });

  it.each([
    ['the business name', 'PATCH', '/api/business_account', { name: 'Acme \ud800 Care' }, 'name'],
    ['a custom location', 'POST', '/api/custom_locations', { name: 'Depot \udc00', address: '1 Road', lat: -27.4, lng: 153 }, 'name'],
    ['a practitioner\'s home address', 'PATCH', '/api/practitioners/{id}', { home: { address: '5 Lane \ud83d', lat: -27.4, lng: 153 } }, 'home.address'],
  ])('%s with a lone surrogate is refused with 422 naming the field, and nothing is saved', async (_what, method, path, body, field) => {
    const url = path.replace('{id}', String(acme.practitionerIds[0]));
    const response = await t.request(method, url, { token: acme.tokens.admin, body });
    expect(response.status).toBe(422);
    expect(response.body.message).toContain(field);
    expect(response.body.message).toMatch(/surrogate|Unicode/);
  });

  it('a well-formed pair (an emoji) is still accepted', async () => {
    const response = await t.request('PATCH', '/api/business_account', { token: acme.tokens.admin, body: { name: 'Acme Care \ud83d\ude91' } });
    expect(response.status).toBe(200);
    expect(response.body.business_account.name).toBe('Acme Care 🚑');
  });
});

describe('ids beyond the database\'s integers', () => {
  it.each([
    ['/api/reports/practitioner-travel/legs', 'practitioner_id'],
    ['/api/reports/client-travel/visits', 'client_id'],
  ])('%s?%s=2147483648 answers 422 naming the parameter', async (path, name) => {
    const response = await t.request('GET', `${path}?start_date=2026-11-01&end_date=2026-11-30&${name}=2147483648`, { token: acme.tokens.admin });
    expect(response.status).toBe(422);
    expect(response.body.message).toContain(name);
  });

  it('every integer query or path parameter of the contract has a maximum', () => {
    const deref = (node: any): any => (node?.$ref ? deref(resolve(node.$ref)) : node);
    const unbounded: string[] = [];
    for (const [path, item] of Object.entries(contract.paths)) {
      for (const [method, operation] of Object.entries(item) as [string, Operation & { parameters?: unknown[] }][]) {
        for (const parameter of (operation.parameters ?? []).map(deref)) {
          const schema = deref(parameter.schema);
          const integer = schema.type === 'array' ? deref(schema.items) : schema;
          if (integer.type === 'integer' && integer.maximum === undefined && !integer.enum) unbounded.push(`${method} ${path} ${parameter.name}`);
          if (schema.type === 'array' && schema.maxItems === undefined) unbounded.push(`${method} ${path} ${parameter.name} (maxItems)`);
        }
      }
    }
    expect(unbounded).toEqual([]);
  });
});

describe('two administrators demoting each other at once', () => {
  it('one succeeds and the other is told the business must keep an administrator: never a 500 (deadlock)', async () => {
    const business = await createBusinessFixture(t, 'duel');
    for (let round = 0; round < 8; round++) {
      const email = `second-${round}@duel.test`;
      const second = await createUser(t.ctx.db, { businessAccountId: business.businessAccountId, email, password: PASSWORD, first_name: 'Bo', role: 'ADMIN' });
      const login = await t.request('POST', '/api/auth/login', { body: { email, password: PASSWORD } });
      // The fixture's admin and the second one: each demotes the other.
      const [first, other] = await Promise.all([
        t.request('PATCH', `/api/users/${second.id}`, { token: business.tokens.admin, body: { role: 'REGULAR_USER' } }),
        t.request('PATCH', `/api/users/${business.userIds.admin}`, { token: login.body.token, body: { role: 'REGULAR_USER' } }),
      ]);
      // The one that loses is refused in words: 409 when both were administrators as the requests were checked, or 403
      // when the other's demotion was done before its own request was (it is no longer an administrator).
      const statuses = [first.status, other.status].sort();
      expect([[200, 403], [200, 409]], `round ${round}: ${JSON.stringify([first.body, other.body])}`).toContainEqual(statuses);
      const refused = first.status === 200 ? other : first;
      expect(refused.body.message).toMatch(refused.status === 409 ? /last active administrator/ : /Your role does not allow this action/);
      // Back to the fixture's admin alone, for the next round.
      if (first.status !== 200) {
        await t.request('PATCH', `/api/users/${business.userIds.admin}`, { token: login.body.token, body: { role: 'ADMIN' } });
        const again = await t.request('POST', '/api/auth/login', { body: { email: business.emails.admin, password: PASSWORD } });
        business.tokens.admin = again.body.token;
      }
      await t.request('POST', `/api/users/${second.id}/deactivate`, { token: business.tokens.admin });
    }
  });
});

describe('sync filters', () => {
  it.each([
    ['PUT', '/api/sync_settings', (ids: number[]) => ({ enable_auto_import: false, enable_auto_export: false, ahead_days: 7, filters: { practitioner_ids: ids, appointment_type_ids: [], business_location_ids: [] } })],
    ['POST', '/api/imports', (ids: number[]) => ({ start_date: '2026-11-24', end_date: '2026-11-24', practitioner_ids: ids })],
  ])('%s %s refuses 140,000 ids in a filter with 422 naming it', async (method, url, bodyOf) => {
    const ids = new Array<number>(140_000).fill(acme.practitionerIds[0]);
    const response = await t.request(method, url, { token: acme.tokens.admin, body: bodyOf(ids) });
    expect(response.status).toBe(422);
    expect(response.body.message).toMatch(/practitioner_ids must NOT have more than 500 items/);
  });
});

describe('the operator endpoints', () => {
  const probe = (url: string, remoteAddress: string) => t.app.inject({ method: 'GET', url, remoteAddress });

  it.each(['/healthz', '/readyz', '/metrics'])('%s answers an address 60 times a minute, then 429 with a message; other addresses go on', async (url) => {
    const address = `10.20.30.${['/healthz', '/readyz', '/metrics'].indexOf(url) + 1}`;
    const answers = await Promise.all(Array.from({ length: 60 }, () => probe(url, address)));
    expect(answers.every((answer) => answer.statusCode !== 429)).toBe(true);
    const refused = await probe(url, address);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toMatch(/Too many requests/);
    expect((await probe(url, '10.20.31.1')).statusCode).not.toBe(429);
  });

  it('/readyz asks the database at most once a second, whoever asks', async () => {
    expect((await probe('/readyz', '10.20.40.1')).statusCode).toBe(503); // no job worker in this test
    await workerHeartbeat(t.ctx.db, 'hostile-input-worker');
    try {
      // The answer of a moment ago is given again, then the database is asked afresh.
      expect((await probe('/readyz', '10.20.40.2')).statusCode).toBe(503);
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      expect((await probe('/readyz', '10.20.40.3')).statusCode).toBe(200);
    } finally {
      await workerHeartbeat(t.ctx.db, 'hostile-input-worker', true);
    }
  });
});
