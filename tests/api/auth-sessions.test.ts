// Sessions and one-time links (issue 15, "Security checks that can fail"): a login or a password change makes a new
// token; a password change (My account or a reset link) ends every session of the user; tokens carry at least 128
// random bits; reset and login-as links work once and expire. Deactivation ending sessions is in users.test.ts, the
// invitation link's use and expiry there too, the availability link's in public-availability.test.ts.
// And the password rules: at least 10 characters and not a common password, with a message that says why.
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, oneTimeTokens, outboxEmails, sessions } from '../../server/src/db/schema';
import { AccountError, createUser } from '../../server/src/modules/business-account';
import { AuthService } from '../../server/src/modules/auth';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, PASSWORD, type BusinessFixture } from './support/fixtures';

let t: TestApp;
let acme: BusinessFixture;
let address = 0;
/** Each call from its own address, so that the login throttle never interferes. */
const login = (email: string, password = PASSWORD) =>
  t.request('POST', '/api/auth/login', { body: { email, password }, remoteAddress: `203.0.113.${++address}` });
const me = (token: string) => t.request('GET', '/api/auth/user', { token });

beforeAll(async () => {
  t = await startTestApp();
  acme = await createBusinessFixture(t, 'acme');
}, 60_000);
afterAll(() => t?.close());

async function newUser(email: string) {
  const user = await createUser(t.ctx.db, { businessAccountId: acme.businessAccountId, email, password: PASSWORD, first_name: 'Sol', role: 'REGULAR_USER' });
  return user.id;
}

async function resetTokenFor(email: string): Promise<string> {
  expect((await t.request('POST', '/api/auth/password_reset', { body: { email }, remoteAddress: `203.0.113.${++address}` })).status).toBe(202);
  const [sent] = await t.ctx.db.select().from(outboxEmails).where(eq(outboxEmails.to_address, email)).orderBy(desc(outboxEmails.id)).limit(1);
  return decodeURIComponent(/reset-password\?token=(\S+)/.exec(sent.text_body)![1]);
}

/** Bits of a base64url token's random part (an availability token is `random.signature`). */
const randomBits = (token: string) => Buffer.from(token.split('.')[0], 'base64url').length * 8;

describe('session tokens', () => {
  it('every login makes a new token of at least 128 random bits; none repeats or is stored in plain', async () => {
    const email = 'tokens@acme.test';
    await newUser(email);
    const tokens: string[] = [];
    for (let index = 0; index < 20; index++) tokens.push((await login(email)).body.token);
    expect(new Set(tokens).size).toBe(tokens.length);
    for (const token of tokens) {
      expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(randomBits(token)).toBeGreaterThanOrEqual(128);
    }
    // Not a counter or a timestamp: no two tokens share a long prefix.
    const prefixes = new Set(tokens.map((token) => token.slice(0, 6)));
    expect(prefixes.size).toBe(tokens.length);
    const stored = await t.ctx.db.select({ hash: sessions.token_hash }).from(sessions);
    for (const token of tokens) expect(stored.map((row) => row.hash)).not.toContain(token);
    // All of them work until something ends them.
    for (const token of tokens) expect((await me(token)).status).toBe(200);
  });

  it('a password change in My account ends every session, the caller’s too, and answers the caller a new token', async () => {
    const email = 'changer@acme.test';
    await newUser(email);
    const [laptop, phone] = [(await login(email)).body.token, (await login(email)).body.token];
    const changed = await t.request('PUT', '/api/auth/user', { token: laptop, body: { current_password: PASSWORD, new_password: 'a fresh passphrase' } });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const rotated: string = changed.body.session.token;
    expect(rotated).not.toBe(laptop);
    expect(randomBits(rotated)).toBeGreaterThanOrEqual(128);
    expect(new Date(changed.body.session.expires_at).getTime()).toBeGreaterThan(Date.now());
    for (const token of [laptop, phone]) {
      const ended = await me(token);
      expect(ended.status).toBe(401);
      expect(ended.body.message).toMatch(/session has expired/);
    }
    expect((await me(rotated)).body.user.email).toBe(email);
    // Other changes keep the session and answer no new one.
    const renamed = await t.request('PUT', '/api/auth/user', { token: rotated, body: { first_name: 'Solange' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.session).toBeUndefined();
    expect((await me(rotated)).status).toBe(200);
    expect((await login(email, 'a fresh passphrase')).status).toBe(200);
    expect((await login(email)).status).toBe(401);
  });

  it('a password set through a reset link ends every session of the user', async () => {
    const email = 'resetter@acme.test';
    await newUser(email);
    const sessionsBefore = [(await login(email)).body.token, (await login(email)).body.token];
    const token = await resetTokenFor(email);
    expect((await t.request('POST', '/api/auth/password_reset/confirm', { body: { token, password: 'a fresh passphrase' } })).status).toBe(200);
    for (const before of sessionsBefore) expect((await me(before)).status).toBe(401);
    const after = await login(email, 'a fresh passphrase');
    expect(after.status).toBe(200);
    expect(sessionsBefore).not.toContain(after.body.token);
  });
});

describe('a user without a password (invited, not yet accepted)', () => {
  const invite = (email: string) =>
    t.request('POST', '/api/users', { token: acme.tokens.admin, body: { email, first_name: 'Ivy', role: 'ADMIN' } });
  /** What an attacker would try first: the old decoy constant, the empty-ish, the email itself, common words. */
  const guesses = (email: string) => ['decoy-password-never-matches', ' ', 'password', 'rounds-demo', PASSWORD, email, 'null', 'undefined', 'x'.repeat(1024)];

  it('no password logs in, before or after the invitation expires', async () => {
    const email = 'ivy@acme.test';
    const invited = await invite(email);
    expect(invited.status, JSON.stringify(invited.body)).toBe(201);
    for (const password of guesses(email)) {
      const response = await login(email, password);
      expect(response.status, `password ${JSON.stringify(password)}`).toBe(401);
      expect(response.body.token).toBeUndefined();
    }
    await t.ctx.db.update(oneTimeTokens).set({ expires_at: new Date(Date.now() - 1000) })
      .where(and(eq(oneTimeTokens.user_id, invited.body.user.id), eq(oneTimeTokens.purpose, 'INVITATION')));
    for (const password of guesses(email)) expect((await login(email, password)).status).toBe(401);
  });

  it('accepting the invitation ends every session the user had before (an operator’s login-as link)', async () => {
    const email = 'iris@acme.test';
    const invited = await invite(email);
    const link = await new AuthService(t.ctx).createLoginAsLink(invited.body.user.id);
    const earlier = await t.request('POST', '/api/auth/login_as', { body: { token: new URL(link).searchParams.get('token') } });
    expect(earlier.status, JSON.stringify(earlier.body)).toBe(200);
    expect((await me(earlier.body.token)).status).toBe(200);
    const [sent] = await t.ctx.db.select().from(outboxEmails).where(eq(outboxEmails.to_address, email)).orderBy(desc(outboxEmails.id)).limit(1);
    const invitation = decodeURIComponent(/accept-invitation\?token=(\S+)/.exec(sent.text_body)![1]);
    expect((await t.request('POST', '/api/auth/invitation/accept', { body: { token: invitation, password: 'a fresh passphrase' } })).status).toBe(200);
    expect((await me(earlier.body.token)).status).toBe(401);
    expect((await login(email, 'a fresh passphrase')).status).toBe(200);
    expect((await login(email, 'decoy-password-never-matches')).status).toBe(401);
  });
});

describe('one-time links', () => {
  it('a reset link carries at least 128 random bits, and an expired one (older than 60 minutes) no longer works', async () => {
    const email = 'late@acme.test';
    const userId = await newUser(email);
    const token = await resetTokenFor(email);
    expect(randomBits(token)).toBeGreaterThanOrEqual(128);
    await t.ctx.db.update(oneTimeTokens).set({ expires_at: new Date(Date.now() - 1000) })
      .where(and(eq(oneTimeTokens.user_id, userId), eq(oneTimeTokens.purpose, 'PASSWORD_RESET')));
    const expired = await t.request('POST', '/api/auth/password_reset/confirm', { body: { token, password: 'a fresh passphrase' } });
    expect(expired.status).toBe(422);
    expect(expired.body.message).toMatch(/invalid or has expired/);
    expect((await login(email, 'a fresh passphrase')).status).toBe(401);
    expect((await login(email)).status).toBe(200);
    // It was issued for 60 minutes.
    const fresh = await resetTokenFor(email);
    const [row] = await t.ctx.db.select().from(oneTimeTokens)
      .where(and(eq(oneTimeTokens.user_id, userId), eq(oneTimeTokens.purpose, 'PASSWORD_RESET'))).orderBy(desc(oneTimeTokens.id)).limit(1);
    expect(fresh).toBeTruthy();
    const minutes = (row.expires_at.getTime() - row.created_at.getTime()) / 60_000;
    expect(minutes).toBeGreaterThan(59);
    expect(minutes).toBeLessThanOrEqual(60.1);
  });

  it('an invitation link and an availability link carry at least 128 random bits', async () => {
    const invited = await t.request('POST', '/api/users', { token: acme.tokens.admin, body: { email: 'bits@acme.test', first_name: 'Bea', role: 'REGULAR_USER' } });
    expect(invited.status).toBe(201);
    const [invitation] = await t.ctx.db.select().from(outboxEmails).where(eq(outboxEmails.to_address, 'bits@acme.test'));
    expect(randomBits(decodeURIComponent(/accept-invitation\?token=(\S+)/.exec(invitation.text_body)![1]))).toBeGreaterThanOrEqual(128);
    await t.ctx.db.update(clients).set({ email: 'bits.client@example.com' }).where(eq(clients.id, acme.clientIds[0]));
    expect((await t.request('POST', `/api/clients/${acme.clientIds[0]}/send_availability_request`, { token: acme.tokens.admin })).status).toBeLessThan(300);
    const [request] = await t.ctx.db.select().from(outboxEmails).where(eq(outboxEmails.to_address, 'bits.client@example.com'));
    const availabilityToken = new URL(/https?:\/\/\S+update-availability\?token=\S+/.exec(request.text_body)![0]).searchParams.get('token')!;
    expect(randomBits(availabilityToken)).toBeGreaterThanOrEqual(128);
  });

  it('a login-as link expires after 15 minutes', async () => {
    const userId = await newUser('operator-target@acme.test');
    const link = await new AuthService(t.ctx).createLoginAsLink(userId);
    const token = new URL(link).searchParams.get('token')!;
    expect(randomBits(token)).toBeGreaterThanOrEqual(128);
    await t.ctx.db.update(oneTimeTokens).set({ expires_at: new Date(Date.now() - 1000) })
      .where(and(eq(oneTimeTokens.user_id, userId), eq(oneTimeTokens.purpose, 'LOGIN_AS')));
    const expired = await t.request('POST', '/api/auth/login_as', { body: { token } });
    expect(expired.status).toBe(422);
    expect(expired.body.message).toMatch(/invalid, used or expired/);
  });
});

describe('password rules', () => {
  const SHORT = 'nine char';
  const COMMON = ['password123', 'Basketball', 'qwertyuiop', 'Monkey2024!', '1234567890'];

  it('a reset link refuses a short or common password with a message that says why, and stays usable', async () => {
    const email = 'rules-reset@acme.test';
    await newUser(email);
    const token = await resetTokenFor(email);
    const short = await t.request('POST', '/api/auth/password_reset/confirm', { body: { token, password: SHORT } });
    expect(short.status).toBe(422);
    expect(short.body.message).toMatch(/password must NOT have fewer than 10 characters/);
    for (const password of COMMON) {
      const common = await t.request('POST', '/api/auth/password_reset/confirm', { body: { token, password } });
      expect(common.status, password).toBe(422);
      expect(common.body.message, password).toMatch(/one of the most common passwords/);
    }
    expect((await t.request('POST', '/api/auth/password_reset/confirm', { body: { token, password: 'ten chars!' } })).status).toBe(200);
    expect((await login(email, 'ten chars!')).status).toBe(200);
  });

  it('My account refuses a short or common new password, naming the field and why, and keeps the old one', async () => {
    const email = 'rules-account@acme.test';
    await newUser(email);
    const token = (await login(email)).body.token;
    const short = await t.request('PUT', '/api/auth/user', { token, body: { current_password: PASSWORD, new_password: SHORT } });
    expect(short.status).toBe(422);
    expect(short.body.message).toMatch(/new_password must NOT have fewer than 10 characters/);
    const common = await t.request('PUT', '/api/auth/user', { token, body: { current_password: PASSWORD, new_password: 'Password123!' } });
    expect(common.status).toBe(422);
    expect(common.body.message).toMatch(/new_password: .*one of the most common passwords/);
    expect((await me(token)).status).toBe(200);
    expect((await login(email)).status).toBe(200);
  });

  it('an invitation refuses a common password and stays usable', async () => {
    expect((await t.request('POST', '/api/users', { token: acme.tokens.admin, body: { email: 'rules-invite@acme.test', first_name: 'Ivy', role: 'REGULAR_USER' } })).status).toBe(201);
    const [sent] = await t.ctx.db.select().from(outboxEmails).where(eq(outboxEmails.to_address, 'rules-invite@acme.test'));
    const token = decodeURIComponent(/accept-invitation\?token=(\S+)/.exec(sent.text_body)![1]);
    const common = await t.request('POST', '/api/auth/invitation/accept', { body: { token, password: 'iloveyou123' } });
    expect(common.status).toBe(422);
    expect(common.body.message).toMatch(/password: .*one of the most common passwords/);
    expect((await t.request('POST', '/api/auth/invitation/accept', { body: { token, password: 'ivy’s own words' } })).status).toBe(200);
  });

  it('the operator’s account creation refuses them too; the demo and test passwords pass', async () => {
    await expect(createUser(t.ctx.db, { businessAccountId: acme.businessAccountId, email: 'cli@acme.test', password: 'football12', first_name: 'C', role: 'ADMIN' }))
      .rejects.toThrow(AccountError);
    await expect(createUser(t.ctx.db, { businessAccountId: acme.businessAccountId, email: 'cli@acme.test', password: 'short pw', first_name: 'C', role: 'ADMIN' }))
      .rejects.toThrow(/at least 10 characters/);
    for (const password of ['rounds-demo', PASSWORD]) {
      const id = (await createUser(t.ctx.db, { businessAccountId: acme.businessAccountId, email: `ok-${password.length}@acme.test`, password, first_name: 'C', role: 'ADMIN' })).id;
      expect(id).toBeGreaterThan(0);
    }
  });
});
