// What an attacker meets: forged client addresses, old reset links, secrets in the log, hostile bodies (no body,
// NUL bytes, huge ids, absurd dates, non-JSON), reset-request flooding, and the security headers of every answer.
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../server/src/app';
import { loadConfig } from '../../server/src/config';
import { clients, outboxEmails } from '../../server/src/db/schema';
import { createUser } from '../../server/src/modules/business-account';
import { enqueueJob } from '../../server/src/jobs/queue';
import { startSandbox, type SandboxHandle } from '../../server/src/pms/sandbox';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, PASSWORD, type BusinessFixture } from './support/fixtures';
import { sampleFor } from './support/samples';
import { drainJobs } from './support/jobs';

type Operation = { operationId: string; security?: unknown[]; requestBody?: { required?: boolean; content: Record<string, { schema: any }> } };
const contract = loadContract() as unknown as { paths: Record<string, Record<string, Operation>>; components: Record<string, Record<string, any>> };
const resolve = (ref: string) => ref.replace('#/components/', '').split('/').reduce((node: any, key) => node[key], contract.components);
const withBody = Object.entries(contract.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, operation]) => ({ path, method: method.toUpperCase(), operation })))
  .filter(({ operation }) => operation.requestBody);
/** Those whose body the contract requires (an optional one, e.g. a care-plan allocation's weeks, may be left out). */
const withRequiredBody = withBody.filter(({ operation }) => operation.requestBody!.required === true);

/** Collects the log lines a test app writes. */
function logCapture() {
  const lines: string[] = [];
  return { lines, stream: { write: (line: string) => { lines.push(line); } }, text: () => lines.join('') };
}

const RESET_USER = 'rhea@acme.test';
let t: TestApp;
let acme: BusinessFixture;
const log = logCapture();

beforeAll(async () => {
  t = await startTestApp({ loginMaxFailures: 3, loginAccountMaxFailures: 6 }, { logStream: log.stream });
  acme = await createBusinessFixture(t, 'acme');
  await createUser(t.ctx.db, { businessAccountId: acme.businessAccountId, email: RESET_USER, password: PASSWORD, first_name: 'Rhea', role: 'REGULAR_USER' });
}, 60_000);
afterAll(() => t.close());

async function emailsTo(address: string) {
  return t.ctx.db.select().from(outboxEmails).where(eq(outboxEmails.to_address, address)).orderBy(desc(outboxEmails.id));
}
const resetTokenOf = (text: string) => decodeURIComponent(text.match(/reset-password\?token=([^\s]+)/)![1]);

describe('client addresses', () => {
  it('ignores a forged X-Forwarded-For: rotating it does not escape the failed-login limit', async () => {
    const email = acme.emails.staff;
    for (let attempt = 0; attempt < 3; attempt++) {
      const response = await t.request('POST', '/api/auth/login', {
        body: { email, password: 'wrong' }, headers: { 'x-forwarded-for': `203.0.113.${attempt}` }, remoteAddress: '198.51.100.7',
      });
      expect(response.status).toBe(401);
    }
    const blocked = await t.request('POST', '/api/auth/login', {
      body: { email, password: PASSWORD }, headers: { 'x-forwarded-for': '203.0.113.99' }, remoteAddress: '198.51.100.7',
    });
    expect(blocked.status).toBe(429);
  });

  it('blocks an account after too many failures from any mix of addresses, whatever the password', async () => {
    const email = acme.emails.practitioner;
    for (let attempt = 0; attempt < 6; attempt++) {
      const response = await t.request('POST', '/api/auth/login', { body: { email, password: 'wrong' }, remoteAddress: `192.0.2.${attempt + 1}` });
      expect(response.status, `attempt ${attempt + 1}`).toBe(401);
    }
    const fresh = await t.request('POST', '/api/auth/login', { body: { email, password: PASSWORD }, remoteAddress: '192.0.2.200' });
    expect(fresh.status).toBe(429);
    expect(fresh.body.message).toMatch(/Too many failed login attempts/);
    // other accounts are not affected
    const other = await t.request('POST', '/api/auth/login', { body: { email: acme.emails.admin, password: PASSWORD }, remoteAddress: '192.0.2.1' });
    expect(other.status).toBe(200);
  });

  it('logs the real socket address, not the forged one', async () => {
    await t.request('GET', '/api/config', { headers: { 'x-forwarded-for': '203.0.113.250' }, remoteAddress: '198.51.100.42' });
    const entry = log.lines.map((line) => JSON.parse(line)).find((line) => line.msg === 'incoming request' && line.req?.url === '/api/config');
    expect(entry.req.remoteAddress).toBe('198.51.100.42');
    expect(log.text()).not.toContain('203.0.113.250');
  });

  it('does not let a rotating X-Forwarded-For escape the per-address request limit; a configured proxy is believed', async () => {
    const limited = await startTestApp({ requestsPerMinute: 10, trustProxy: loadConfig({ TRUST_PROXY: '198.51.100.1' }).trustProxy });
    try {
      const statuses: number[] = [];
      for (let index = 0; index < 12; index++) {
        statuses.push((await limited.request('GET', '/api/config', { headers: { 'x-forwarded-for': `203.0.113.${index}` } })).status);
      }
      expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
      expect(statuses.slice(10)).toEqual([429, 429]);
      const viaProxy = await limited.request('GET', '/api/config', { headers: { 'x-forwarded-for': '203.0.113.77' }, remoteAddress: '198.51.100.1' });
      expect(viaProxy.status).toBe(200);
    } finally {
      await limited.close();
    }
  }, 60_000);
});

describe('TRUST_PROXY', () => {
  it('accepts what Fastify accepts and explains anything else', () => {
    const trust = (value?: string) => loadConfig({ NODE_ENV: 'test', ...(value === undefined ? {} : { TRUST_PROXY: value }) }).trustProxy;
    expect(trust()).toBe(false);
    expect(trust('false')).toBe(false);
    expect(trust('true')).toBe(true);
    expect(trust('2')).toBe(2);
    expect(trust('10.0.0.0/8, 127.0.0.1,::1,loopback')).toEqual(['10.0.0.0/8', '127.0.0.1', '::1', 'loopback']);
    expect(() => trust('10.0.0.0/33')).toThrow(/TRUST_PROXY must be true, false, a number of proxy hops/);
    expect(() => trust('proxy.example.com')).toThrow(/TRUST_PROXY/);
  });
});

describe('password reset links', () => {
  it('a used link makes every older link of the user useless', async () => {
    const email = RESET_USER;
    for (let index = 0; index < 2; index++) {
      expect((await t.request('POST', '/api/auth/password_reset', { body: { email }, remoteAddress: '198.51.100.60' })).status).toBe(202);
    }
    const [newer, older] = (await emailsTo(email)).map((row) => resetTokenOf(row.text_body));
    expect(newer).not.toBe(older);
    expect((await t.request('POST', '/api/auth/password_reset/confirm', { body: { token: newer, password: 'a brand new password' } })).status).toBe(200);
    const stale = await t.request('POST', '/api/auth/password_reset/confirm', { body: { token: older, password: 'the attacker password' } });
    expect(stale.status).toBe(422);
    expect((await t.request('POST', '/api/auth/login', { body: { email, password: 'a brand new password' }, remoteAddress: '198.51.100.61' })).status).toBe(200);
  });

  it('changing the password in My account makes outstanding links useless', async () => {
    const email = RESET_USER;
    expect((await t.request('POST', '/api/auth/password_reset', { body: { email }, remoteAddress: '198.51.100.62' })).status).toBe(202);
    const token = resetTokenOf((await emailsTo(email))[0].text_body);
    const login = await t.request('POST', '/api/auth/login', { body: { email, password: 'a brand new password' }, remoteAddress: '198.51.100.62' });
    const changed = await t.request('PUT', '/api/auth/user', {
      token: login.body.token, body: { current_password: 'a brand new password', new_password: 'my own new password' },
    });
    expect(changed.status).toBe(200);
    const stale = await t.request('POST', '/api/auth/password_reset/confirm', { body: { token, password: 'the attacker password' } });
    expect(stale.status).toBe(422);
  });
});

describe('reset-request flooding', () => {
  it('cannot lock a user out of resetting, and caps the emails an attacker can cause', async () => {
    const email = acme.emails.staff;
    const before = (await emailsTo(email)).length;
    for (let index = 0; index < 12; index++) {
      const response = await t.request('POST', '/api/auth/password_reset', { body: { email }, remoteAddress: `203.0.113.${100 + (index % 4)}` });
      expect(response.status).toBeLessThan(500);
    }
    const sent = (await emailsTo(email)).length - before;
    expect(sent).toBeGreaterThan(0);
    expect(sent).toBeLessThanOrEqual(3);
    // the user, from their own address, is answered as usual and holds a working link
    const own = await t.request('POST', '/api/auth/password_reset', { body: { email }, remoteAddress: '198.51.100.80' });
    expect(own.status).toBe(202);
    const token = resetTokenOf((await emailsTo(email))[0].text_body);
    expect((await t.request('POST', '/api/auth/password_reset/confirm', { body: { token, password: 'staff new password' } })).status).toBe(200);
  });

  it('answers an unknown email exactly as a known one', async () => {
    const known = await t.request('POST', '/api/auth/password_reset', { body: { email: acme.emails.practitioner }, remoteAddress: '198.51.100.90' });
    const unknown = await t.request('POST', '/api/auth/password_reset', { body: { email: 'nobody@acme.test' }, remoteAddress: '198.51.100.90' });
    expect(unknown.status).toBe(known.status);
    expect(unknown.body).toEqual(known.body);
  });
});

describe('limits under simultaneous attempts', () => {
  const newUser = (email: string) =>
    createUser(t.ctx.db, { businessAccountId: acme.businessAccountId, email, password: PASSWORD, first_name: 'Sim', role: 'REGULAR_USER' });
  const statuses = (responses: Array<{ status: number }>) => responses.map((response) => response.status);

  it('40 simultaneous logins from one address, the right password last, get no more tries than the limit (3)', async () => {
    const email = 'burst@acme.test';
    await newUser(email);
    const attempts = Array.from({ length: 40 }, (_, index) => t.request('POST', '/api/auth/login', {
      body: { email, password: index === 39 ? PASSWORD : `wrong ${index}` }, remoteAddress: '198.51.100.140',
    }));
    const answered = statuses(await Promise.all(attempts));
    expect(answered.filter((status) => status !== 429).length, answered.join(' ')).toBeLessThanOrEqual(3);
    expect(answered.filter((status) => status === 429).length).toBeGreaterThanOrEqual(37);
  });

  it('simultaneous wrong logins from many addresses get no more tries than the account’s limit (6)', async () => {
    const email = 'spread@acme.test';
    await newUser(email);
    const attempts = Array.from({ length: 30 }, (_, index) => t.request('POST', '/api/auth/login', {
      body: { email, password: `wrong ${index}` }, remoteAddress: `198.51.100.${150 + (index % 15)}`,
    }));
    const answered = statuses(await Promise.all(attempts));
    expect(answered.filter((status) => status === 401).length, answered.join(' ')).toBeLessThanOrEqual(6);
    // Locked for every address now, the right password too.
    expect((await t.request('POST', '/api/auth/login', { body: { email, password: PASSWORD }, remoteAddress: '198.51.100.199' })).status).toBe(429);
  });

  it('30 simultaneous reset requests send at most 3 emails', async () => {
    const email = 'resets@acme.test';
    await newUser(email);
    const requests = Array.from({ length: 30 }, (_, index) => t.request('POST', '/api/auth/password_reset', {
      body: { email }, remoteAddress: `198.51.100.${200 + (index % 10)}`,
    }));
    expect(statuses(await Promise.all(requests)).every((status) => status === 202 || status === 429)).toBe(true);
    expect((await emailsTo(email)).length).toBe(3);
  });
});

describe('the server log', () => {
  it('keeps no email body, recipient or one-time link, and no token of a request URL', async () => {
    const email = acme.emails.practitioner;
    await t.request('POST', '/api/auth/password_reset', { body: { email }, remoteAddress: '198.51.100.91' });
    const token = resetTokenOf((await emailsTo(email))[0].text_body);
    await t.request('GET', `/api/public/availability?token=${encodeURIComponent('SeCrEtToKeN0123456789abcdefghijklmnopqrstu')}`);
    const [client] = await t.ctx.db.update(clients).set({ email: 'cora.private@example.com' }).where(eq(clients.id, acme.clientIds[0])).returning();
    const request = await t.request('POST', `/api/clients/${client.id}/send_availability_request`, { token: acme.tokens.admin, remoteAddress: '198.51.100.92' });
    expect(request.status).toBeLessThan(300);
    const availabilityToken = new URL(/https?:\/\/\S+update-availability\?token=\S+/.exec((await emailsTo(client.email!))[0].text_body)![0]).searchParams.get('token')!;
    const text = log.text();
    expect(text).toContain('availability request sent');
    expect(text).not.toContain(client.last_name);
    expect(text).not.toContain(client.email);
    expect(text).not.toContain(availabilityToken);
    expect(text).toContain('outbox');
    expect(text).not.toContain(token);
    expect(text).not.toContain(encodeURIComponent(token));
    expect(text).not.toContain('reset-password?token');
    expect(text).not.toContain(email);
    expect(text).not.toContain('SeCrEtToKeN');
  });
});

describe('hostile bodies never answer 5xx', () => {
  const tokenFor = (operation: Operation) => (Array.isArray(operation.security) && operation.security.length === 0 ? undefined : acme.tokens.admin);
  const urlOf = (path: string) => `/api${path.replace('{id}', String(acme.clientIds[0]))}`;

  it.each(withRequiredBody)('$method $path without a body answers 4xx with a message', async ({ method, path, operation }) => {
    const response = await t.request(method, urlOf(path), { token: tokenFor(operation), remoteAddress: '198.51.100.150' });
    expect(response.status, JSON.stringify(response.body)).toBeGreaterThanOrEqual(400);
    expect(response.status, JSON.stringify(response.body)).toBeLessThan(500);
    expect(response.body.message).toBeTruthy();
  });

  it.each(withBody)('$method $path refuses a NUL byte in any string with 422', async ({ method, path, operation }) => {
    const schema = operation.requestBody!.content['application/json'].schema;
    const body = withNulStrings(sampleFor(schema, resolve));
    if (!JSON.stringify(body).includes('\\u0000')) return; // no string in the body
    const response = await t.request(method, urlOf(path), { token: tokenFor(operation), body, remoteAddress: '198.51.100.151' });
    expect(response.status, JSON.stringify(response.body)).toBe(422);
    expect(response.body.message).toMatch(/NUL|null character/i);
  });

  it('refuses a NUL byte in a login email, a client search and a name with 422', async () => {
    const login = await t.request('POST', '/api/auth/login', { body: { email: 'a\u0000@b.c', password: 'x' }, remoteAddress: '198.51.100.152' });
    expect(login.status).toBe(422);
    const search = await t.request('GET', `/api/clients?q=${encodeURIComponent('Co\u0000ra')}`, { token: acme.tokens.admin });
    expect(search.status).toBe(422);
    expect(search.body.message).toMatch(/q must not contain/);
    const name = await t.request('POST', '/api/tags', { token: acme.tokens.admin, body: { name: 'Hi\u0000gh', color: '#ef4444' } });
    expect(name.status).toBe(422);
  });

  it('refuses ids beyond 2^31-1 inside body arrays with 422', async () => {
    const huge = 2 ** 31;
    const tags = await t.request('PUT', `/api/clients/${acme.clientIds[0]}/update_tags`, { token: acme.tokens.admin, body: { tag_ids: [huge] } });
    expect(tags.status).toBe(422);
    const range = { start_date: '2026-11-24', end_date: '2026-11-24' };
    for (const field of ['practitioner_ids', 'appointment_type_ids', 'business_location_ids']) {
      for (const path of ['/api/imports', '/api/exports']) {
        const response = await t.request('POST', path, { token: acme.tokens.admin, body: { ...range, [field]: [huge] } });
        expect(response.status, `${path} ${field}`).toBe(422);
      }
    }
    const current = await t.request('GET', '/api/sync_settings', { token: acme.tokens.admin });
    const settings = await t.request('PUT', '/api/sync_settings', {
      token: acme.tokens.admin,
      body: { ...current.body.sync_settings, filters: { practitioner_ids: [huge], appointment_type_ids: [], business_location_ids: [] } },
    });
    expect(settings.status).toBe(422);
  });

  it('refuses an implausible year in an import or export range with a clear 422', async () => {
    for (const path of ['/api/imports', '/api/exports']) {
      const response = await t.request('POST', path, { token: acme.tokens.admin, body: { start_date: '0001-01-01', end_date: '0001-01-02' } });
      expect(response.status).toBe(422);
      expect(response.body.message).toMatch(/start_date must be between/);
    }
  });
});

describe('non-JSON bodies', () => {
  it.each([
    ['text/plain', 'tag_ids=1'],
    ['application/x-www-form-urlencoded', 'tag_ids='],
    [undefined, '{"tag_ids":[]}'],
  ])('%s on a JSON operation answers 415 and changes nothing', async (contentType, payload) => {
    const url = `/api/clients/${acme.clientIds[0]}/update_tags`;
    const set = await t.request('PUT', url, { token: acme.tokens.admin, body: { tag_ids: acme.tagIds } });
    expect(set.status).toBe(200);
    const response = await t.app.inject({
      method: 'PUT', url, payload,
      headers: { authorization: `Bearer ${acme.tokens.admin}`, ...(contentType ? { 'content-type': contentType } : {}) },
    });
    expect(response.statusCode).toBe(415);
    expect(response.json().message).toMatch(/JSON/);
    const client = await t.request('GET', `/api/clients/${acme.clientIds[0]}`, { token: acme.tokens.admin });
    expect(JSON.stringify(client.body)).toContain('High needs');
  });
});

describe('headers', () => {
  it('every API answer says no-store, one frame policy, and a Permissions-Policy', async () => {
    for (const response of [
      await t.request('GET', '/api/config'),
      await t.request('GET', '/api/auth/user'),
      await t.request('POST', '/api/auth/login', { body: { email: acme.emails.admin, password: 'wrong' }, remoteAddress: '198.51.100.200' }),
    ]) {
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers['x-frame-options'] ?? 'DENY').toBe('DENY');
      expect(String(response.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
      for (const feature of ['camera', 'microphone', 'payment']) expect(String(response.headers['permissions-policy'])).toContain(`${feature}=()`);
      // The location for the app itself only (the run sheet), never for anything it embeds.
      expect(String(response.headers['permissions-policy'])).toContain('geolocation=(self)');
    }
  });

  it('the app page is never cached, on any path, while hashed assets are cached for a year', async () => {
    const spaDir = mkdtempSync(join(tmpdir(), 'rounds-spa-'));
    mkdirSync(join(spaDir, 'assets'));
    writeFileSync(join(spaDir, 'index.html'), '<!doctype html><title>Rounds</title>');
    writeFileSync(join(spaDir, 'assets', 'index-AbC123.js'), 'console.log(1)');
    const spa = await startTestApp({}, { spaDir });
    try {
      for (const path of ['/', '/index.html', '/clients', '/appointments?date=2026-11-24']) {
        const page = await spa.app.inject({ method: 'GET', url: path });
        expect(page.statusCode, path).toBe(200);
        expect(page.body).toContain('<title>Rounds</title>');
        expect(page.headers['cache-control'], path).toBe('no-cache');
        expect(page.headers['permissions-policy'], path).toBeTruthy();
      }
      const asset = await spa.app.inject({ method: 'GET', url: '/assets/index-AbC123.js' });
      expect(asset.statusCode).toBe(200);
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    } finally {
      await spa.close();
    }
  }, 60_000);
});

describe('security headers on the real server', () => {
  /** `default-src 'self'; img-src ...` → { 'default-src': ["'self'"], ... } */
  const directivesOf = (policy: string) => Object.fromEntries(policy.split(';').map((part) => part.trim()).filter(Boolean)
    .map((part) => { const [name, ...sources] = part.split(/\s+/); return [name.toLowerCase(), sources]; }));

  async function listening(overrides: Parameters<typeof startTestApp>[0] = {}) {
    const spaDir = mkdtempSync(join(tmpdir(), 'rounds-spa-'));
    mkdirSync(join(spaDir, 'assets'));
    writeFileSync(join(spaDir, 'index.html'), '<!doctype html><title>Rounds</title><div id="root"></div><script type="module" src="/assets/index-AbC123.js"></script>');
    writeFileSync(join(spaDir, 'assets', 'index-AbC123.js'), 'console.log(1)');
    const app = await startTestApp(overrides, { spaDir });
    const address = await app.app.listen({ port: 0, host: '127.0.0.1' });
    return { app, address };
  }

  it('every answer over HTTP carries a CSP without inline or eval scripts, and the other protective headers', async () => {
    const { app, address } = await listening();
    try {
      const answers = await Promise.all(['/', '/clients?x=1', '/assets/index-AbC123.js', '/api/config', '/api/auth/user', '/api/nowhere']
        .map(async (path) => ({ path, response: await fetch(`${address}${path}`) })));
      const login = await fetch(`${address}/api/auth/login`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'nobody@acme.test', password: 'wrong password' }),
      });
      for (const { path, response } of [...answers, { path: 'POST /api/auth/login', response: login }]) {
        const headers = response.headers;
        const policy = headers.get('content-security-policy');
        expect(policy, path).toBeTruthy();
        const csp = directivesOf(policy!);
        expect(csp['default-src'], path).toEqual(["'self'"]);
        const scripts = csp['script-src'] ?? csp['default-src'];
        expect(scripts, path).toContain("'self'");
        for (const unsafe of ["'unsafe-inline'", "'unsafe-eval'", "'unsafe-hashes'", 'data:', '*', 'http:', 'https:']) expect(scripts, `${path} script-src`).not.toContain(unsafe);
        expect(csp['script-src-attr'], path).toEqual(["'none'"]);
        expect(csp['object-src'], path).toEqual(["'none'"]);
        expect(csp['base-uri'], path).toEqual(["'self'"]);
        expect(csp['form-action'], path).toEqual(["'self'"]);
        expect(csp['frame-ancestors'], path).toEqual(["'none'"]);
        expect(csp['upgrade-insecure-requests'], `${path}: plain-HTTP PUBLIC_URL`).toBeUndefined();
        expect(headers.get('x-frame-options'), path).toBe('DENY');
        expect(headers.get('x-content-type-options'), path).toBe('nosniff');
        expect(headers.get('referrer-policy'), path).toBe('no-referrer');
        expect(headers.get('cross-origin-opener-policy'), path).toBe('same-origin');
        expect(headers.get('permissions-policy'), path).toContain('geolocation=(self)');
        expect(headers.get('strict-transport-security'), `${path}: no HSTS over plain HTTP`).toBeNull();
        expect(headers.get('x-powered-by'), path).toBeNull();
        expect(headers.get('x-request-id'), path).toBeTruthy();
      }
      const page = answers[0].response;
      expect(page.status).toBe(200);
      // The page the CSP protects must itself work under it: no inline script, no inline handler.
      const html = await page.text();
      for (const script of html.match(/<script\b[^>]*>/g) ?? []) expect(script).toMatch(/\ssrc="\/assets\//);
      expect(html).not.toMatch(/\son[a-z]+=/i);
    } finally {
      await app.close();
    }
  }, 60_000);

  it('with an https PUBLIC_URL it adds HSTS and upgrade-insecure-requests', async () => {
    const { app, address } = await listening({ publicUrl: 'https://rounds.example.com' });
    try {
      for (const path of ['/', '/api/config']) {
        const response = await fetch(`${address}${path}`);
        expect(response.headers.get('strict-transport-security'), path).toMatch(/max-age=\d{8,}/);
        expect(directivesOf(response.headers.get('content-security-policy')!)['upgrade-insecure-requests'], path).toEqual([]);
      }
    } finally {
      await app.close();
    }
  }, 60_000);
});

describe('failed jobs', () => {
  let sandbox: SandboxHandle;
  beforeAll(async () => {
    sandbox = await startSandbox({ seed: 3, startDate: '2026-11-23', weeks: 1, patients: 10, practitioners: 2, inactivePractitioners: 0 });
  });
  afterAll(() => sandbox?.close());

  it('store a message for the user, never raw SQL or driver text, and log the details', async () => {
    const jobLog = logCapture();
    const jobs = await startTestApp({ clinikoBaseUrl: sandbox.url }, { logStream: jobLog.stream });
    try {
      const zeta = await createBusinessFixture(jobs, 'zeta');
      expect((await jobs.request('POST', '/api/provider_account', { token: zeta.tokens.admin, body: { api_key: sandbox.apiKey } })).status).toBe(201);
      await drainJobs(jobs.ctx, { retryDelayMs: 0 });
      // a job from before ranges were checked, or written by hand
      const job = await enqueueJob(jobs.ctx.db, { businessAccountId: zeta.businessAccountId, kind: 'IMPORT', startDate: '0001-01-01', endDate: '0001-01-01' });
      await drainJobs(jobs.ctx, { retryDelayMs: 0 });
      const done = await jobs.request('GET', `/api/imports/${job.id}`, { token: zeta.tokens.admin });
      expect(done.body.import.status).toBe('ERROR');
      expect(done.body.import.error_message).toMatch(/^The import failed/);
      expect(done.body.import.error_message).not.toMatch(/select|insert|update|where|\$1|params|query/i);
      const logged = jobLog.lines.map((line) => JSON.parse(line)).find((line) => line.msg === 'job failed' && line.jobId === job.id);
      expect(logged.err.message).toBeTruthy();
    } finally {
      await jobs.close();
    }
  }, 60_000);
});

/** The body with every string replaced by one containing a NUL byte. */
function withNulStrings(value: unknown): unknown {
  if (typeof value === 'string') return `a\u0000${value}`;
  if (Array.isArray(value)) return value.map(withNulStrings);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withNulStrings(item)]));
  return value;
}
