// Secrets never reach the log (issue 15, "Operating it"): a realistic run — logins (one wrong), Authorization headers,
// a password reset link, a password change, an invitation, an availability link, a login-as link, the PMS API key
// set up and used by an import, the metrics token — with the product's own logger captured at its most talkative
// level, then the log searched for every secret, raw and in the forms it travels in (URL-encoded, Basic auth).
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, outboxEmails } from '../../server/src/db/schema';
import { AuthService } from '../../server/src/modules/auth';
import { startSandbox, type SandboxHandle } from '../../server/src/pms/sandbox';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, PASSWORD, type BusinessFixture } from './support/fixtures';
import { drainJobs } from './support/jobs';

const APP_SECRET = 'test-secret-test-secret-test-secret-123';
const METRICS_TOKEN = 'metrics-token-0f3c9a7e5b21d84c';
const lines: string[] = [];
let t: TestApp;
let sandbox: SandboxHandle;
let acme: BusinessFixture;
/** Every secret the run handled, by what it is. */
const secrets = new Map<string, string>();

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 7, startDate: '2026-11-23', weeks: 1, patients: 20, practitioners: 2, inactivePractitioners: 0 });
  t = await startTestApp(
    { clinikoBaseUrl: sandbox.url, metricsToken: METRICS_TOKEN, appSecret: APP_SECRET },
    { logStream: { write: (line: string) => { lines.push(line); } }, logLevel: 'trace' },
  );
  acme = await createBusinessFixture(t, 'acme');
}, 60_000);
afterAll(async () => {
  await t?.close();
  await sandbox?.close();
});

async function latestEmailTo(address: string) {
  const [email] = await t.ctx.db.select().from(outboxEmails).where(eq(outboxEmails.to_address, address)).orderBy(desc(outboxEmails.id)).limit(1);
  return email.text_body;
}
const tokenInLink = (text: string, page: string) => new URL(new RegExp(`https?://\\S+/${page}\\?token=\\S+`).exec(text)![0]).searchParams.get('token')!;

describe('the server log of a realistic run', () => {
  it('holds none of the passwords, tokens, links, API keys or Authorization headers it handled', async () => {
    secrets.set('fixture password', PASSWORD);
    secrets.set('app secret', APP_SECRET);

    // Logins: one wrong, then the right one; the token then travels in Authorization headers.
    const wrong = 'a wrong guess 8271';
    secrets.set('wrong password', wrong);
    expect((await t.request('POST', '/api/auth/login', { body: { email: acme.emails.staff, password: wrong } })).status).toBe(401);
    const login = await t.request('POST', '/api/auth/login', { body: { email: acme.emails.staff, password: PASSWORD } });
    expect(login.status).toBe(200);
    secrets.set('session token', login.body.token);
    expect((await t.request('GET', '/api/auth/user', { token: login.body.token })).status).toBe(200);
    expect((await t.request('GET', '/api/practitioners/all', { token: login.body.token })).status).toBe(200);
    const forged = 'forged-session-token-5d1e0b7c9a4f';
    secrets.set('unknown bearer token', forged);
    expect((await t.request('GET', '/api/auth/user', { token: forged })).status).toBe(401);

    // A password change in My account: current and new passwords, and the new session.
    const changedPassword = 'staff changed pass 4410';
    secrets.set('changed password', changedPassword);
    const changed = await t.request('PUT', '/api/auth/user', { token: login.body.token, body: { current_password: PASSWORD, new_password: changedPassword } });
    expect(changed.status).toBe(200);
    secrets.set('rotated session token', changed.body.session.token);
    const refused = await t.request('PUT', '/api/auth/user', { token: changed.body.session.token, body: { current_password: 'not it at all 33', new_password: 'whatever long 99' } });
    expect(refused.status).toBe(422);
    secrets.set('refused new password', 'whatever long 99');

    // A password reset link, used once, then again; the new password.
    expect((await t.request('POST', '/api/auth/password_reset', { body: { email: acme.emails.practitioner } })).status).toBe(202);
    const resetToken = tokenInLink(await latestEmailTo(acme.emails.practitioner), 'reset-password');
    secrets.set('reset token', resetToken);
    const resetPassword = 'practitioner reset 5512';
    secrets.set('reset password', resetPassword);
    expect((await t.request('POST', '/api/auth/password_reset/confirm', { body: { token: resetToken, password: resetPassword } })).status).toBe(200);
    expect((await t.request('POST', '/api/auth/password_reset/confirm', { body: { token: resetToken, password: resetPassword } })).status).toBe(422);

    // An invitation: checked, accepted with a password, then logged in.
    expect((await t.request('POST', '/api/users', { token: acme.tokens.admin, body: { email: 'ivy@acme.test', first_name: 'Ivy', role: 'REGULAR_USER' } })).status).toBe(201);
    const invitationToken = tokenInLink(await latestEmailTo('ivy@acme.test'), 'accept-invitation');
    secrets.set('invitation token', invitationToken);
    const invitePassword = 'ivy chose this 7730';
    secrets.set('invitee password', invitePassword);
    expect((await t.request('POST', '/api/auth/invitation', { body: { token: invitationToken } })).status).toBe(200);
    expect((await t.request('POST', '/api/auth/invitation/accept', { body: { token: invitationToken, password: invitePassword } })).status).toBe(200);
    const ivy = await t.request('POST', '/api/auth/login', { body: { email: 'ivy@acme.test', password: invitePassword } });
    secrets.set('invitee session token', ivy.body.token);

    // An availability link: read (token in the query), saved (token in the body), read again (used).
    await t.ctx.db.update(clients).set({ email: 'cora@acme.example' }).where(eq(clients.id, acme.clientIds[0]));
    expect((await t.request('POST', `/api/clients/${acme.clientIds[0]}/send_availability_request`, { token: acme.tokens.admin })).status).toBe(202);
    const availabilityToken = tokenInLink(await latestEmailTo('cora@acme.example'), 'client/update-availability');
    secrets.set('availability token', availabilityToken);
    expect((await t.request('GET', `/api/public/availability?token=${encodeURIComponent(availabilityToken)}`)).status).toBe(200);
    expect((await t.request('PUT', '/api/public/availability', { body: { token: availabilityToken, availability: [{ dow: 2, hours: ['09:00-12:00'] }] } })).status).toBe(200);
    expect((await t.request('GET', `/api/public/availability?token=${encodeURIComponent(availabilityToken)}`)).status).toBe(410);

    // A login-as link from the operator CLI's service.
    const loginAsToken = new URL(await new AuthService(t.ctx).createLoginAsLink(acme.userIds.admin)).searchParams.get('token')!;
    secrets.set('login-as token', loginAsToken);
    const loggedInAs = await t.request('POST', '/api/auth/login_as', { body: { token: loginAsToken } });
    expect(loggedInAs.status).toBe(200);
    secrets.set('login-as session token', loggedInAs.body.token);

    // The PMS API key: refused once, then set up and used by the set-up job and an import (Basic auth to the PMS).
    const wrongKey = 'not-the-key-1234567890-au1';
    secrets.set('refused API key', wrongKey);
    expect((await t.request('POST', '/api/provider_account', { token: acme.tokens.admin, body: { api_key: wrongKey } })).status).toBe(422);
    secrets.set('PMS API key', sandbox.apiKey);
    secrets.set('PMS Basic credentials', Buffer.from(`${sandbox.apiKey}:`).toString('base64'));
    expect((await t.request('POST', '/api/provider_account', { token: acme.tokens.admin, body: { api_key: sandbox.apiKey } })).status).toBe(201);
    const tuning = { maxAttempts: 2, backoffBaseMs: 5, backoffMaxMs: 20, requestTimeoutMs: 5_000 };
    await drainJobs(t.ctx, { tuning });
    const started = await t.request('POST', '/api/imports', { token: acme.tokens.admin, body: { start_date: '2026-11-23', end_date: '2026-11-24' } });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    await drainJobs(t.ctx, { tuning });

    // The metrics endpoint with its token, and with a wrong one.
    secrets.set('metrics token', METRICS_TOKEN);
    expect((await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer wrong-metrics-token-abc123' } })).statusCode).toBe(401);
    secrets.set('wrong metrics token', 'wrong-metrics-token-abc123');

    for (const token of Object.values(acme.tokens)) secrets.set(`fixture session ${token.slice(0, 4)}`, token);

    const log = lines.join('');
    // The run was logged (so an empty log cannot pass), at the level that says the most.
    expect(lines.length).toBeGreaterThan(50);
    expect(t.ctx.log.isLevelEnabled('trace')).toBe(true);
    expect(log).toContain('/api/public/availability?token=[redacted]');
    for (const [what, secret] of secrets) {
      expect(secret.length, what).toBeGreaterThanOrEqual(10);
      for (const form of new Set([secret, encodeURIComponent(secret)])) expect(log.includes(form), `${what} appears in the log`).toBe(false);
    }
    expect(log).not.toMatch(/Bearer [A-Za-z0-9_-]{8,}/);
    expect(log).not.toMatch(/Basic [A-Za-z0-9+/=]{8,}/);
    expect(log).not.toMatch(/(reset-password|accept-invitation|update-availability|login-as)\?token=(?!\[redacted\])/);
  }, 120_000);
});
