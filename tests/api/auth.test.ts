import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxEmails } from '../../server/src/db/schema';
import { AuthService } from '../../server/src/modules/auth';
import { createUser } from '../../server/src/modules/business-account';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, PASSWORD, type BusinessFixture } from './support/fixtures';

let t: TestApp;
let acme: BusinessFixture;

beforeAll(async () => {
  t = await startTestApp({ loginMaxFailures: 3 });
  acme = await createBusinessFixture(t, 'acme');
});
afterAll(() => t.close());

async function latestEmailTo(address: string) {
  const [email] = await t.ctx.db.select().from(outboxEmails).where(eq(outboxEmails.to_address, address)).orderBy(desc(outboxEmails.id)).limit(1);
  return email;
}

describe('login', () => {
  it('returns a token and the user, which then identifies the caller', async () => {
    const login = await t.request('POST', '/api/auth/login', { body: { email: 'STAFF@acme.test', password: PASSWORD } });
    expect(login.status).toBe(200);
    expect(login.body.user).toMatchObject({ email: acme.emails.staff, role: 'REGULAR_USER', business_account: { name: 'acme Care' } });
    const me = await t.request('GET', '/api/auth/user', { token: login.body.token });
    expect(me.body.user.id).toBe(login.body.user.id);
  });

  it('refuses a wrong password with a message, and stores no plain token', async () => {
    const response = await t.request('POST', '/api/auth/login', { body: { email: acme.emails.admin, password: 'nope' } });
    expect(response.status).toBe(401);
    expect(response.body.message).toBe('Invalid email or password.');
  });

  it('rate-limits repeated failures for the same email with 429, even with the right password afterwards', async () => {
    const body = { email: acme.emails.practitioner, password: 'wrong' };
    const remoteAddress = '10.9.9.9';
    for (let attempt = 0; attempt < 3; attempt++) {
      expect((await t.request('POST', '/api/auth/login', { body, remoteAddress })).status).toBe(401);
    }
    const blocked = await t.request('POST', '/api/auth/login', { body: { ...body, password: PASSWORD }, remoteAddress });
    expect(blocked.status).toBe(429);
    expect(blocked.body.message).toMatch(/Too many failed login attempts/);
    const otherAddress = await t.request('POST', '/api/auth/login', { body: { ...body, password: PASSWORD }, remoteAddress: '10.9.9.10' });
    expect(otherAddress.status).toBe(200);
  });

  it('answers bad input with 422 and malformed JSON with 400, never 500', async () => {
    const missing = await t.request('POST', '/api/auth/login', { body: { email: 'a@b.c' } });
    expect(missing.status).toBe(422);
    expect(missing.body.message).toContain('password is required');
    const wrongType = await t.request('POST', '/api/auth/login', { body: { email: ['x'], password: 'y' } });
    expect(wrongType.status).toBe(422);
    const malformed = await t.request('POST', '/api/auth/login', { rawBody: '{"email":' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toMatch(/not valid JSON/);
    const huge = await t.request('POST', '/api/auth/login', { rawBody: JSON.stringify({ email: 'x'.repeat(2_000_000), password: 'y' }) });
    expect(huge.status).toBe(413);
  });
});

describe('one email, however it is written', () => {
  let address = 0;
  /** Each call from an address of its own unless one is given, so only the throttle under test counts. */
  const login = (email: string, password: string, remoteAddress = `10.34.0.${++address}`) =>
    t.request('POST', '/api/auth/login', { body: { email, password }, remoteAddress });
  const addUser = (email: string) =>
    createUser(t.ctx.db, { businessAccountId: acme.businessAccountId, email, password: PASSWORD, first_name: 'Uni', role: 'REGULAR_USER' });

  it('counts failed logins from one address against every spelling of the email; İ is another letter, no way in', async () => {
    await addUser('mirin@acme.test');
    for (let attempt = 0; attempt < 3; attempt++) expect((await login('mirin@acme.test', 'wrong', '10.35.0.1')).status).toBe(401);
    for (const spelling of ['ｍｉｒｉｎ@acme.test', ' Mirin@ACME.test ', 'MIRIN@ａｃｍｅ.ｔｅｓｔ']) {
      const answer = await login(spelling, PASSWORD, '10.35.0.1');
      expect(answer.status, spelling).toBe(429);
      expect(answer.body.message).toMatch(/^Too many failed login attempts/);
    }
    // The capital dotted İ lower-cases to i and a combining dot: another address, which opens nothing with fresh attempts.
    for (const spelling of ['mİrin@acme.test', 'MİRİN@acme.test']) expect((await login(spelling, PASSWORD, '10.35.0.1')).status, spelling).toBe(401);
  });

  it('counts failed logins for the account from every address and spelling together, and no spelling gets round it', async () => {
    await addUser('iris.li@acme.test');
    const spellings = ['iris.li@acme.test', 'IRIS.LI@acme.test', 'ｉｒｉｓ.ｌｉ@acme.test', 'Iris.Li@Acme.Test'];
    for (let attempt = 0; attempt < 20; attempt++) expect((await login(spellings[attempt % 4], 'wrong')).status).toBe(401);
    for (const spelling of spellings) expect((await login(spelling, PASSWORD)).status, spelling).toBe(429);
    for (const spelling of ['İris.li@acme.test', 'iris.lİ@acme.test', 'İris.lİ@acme.test']) {
      expect((await login(spelling, PASSWORD)).status, spelling).toBe(401);
    }
  });

  it('throttles reset requests from one address for every spelling of the email, and sends İ’s to nobody', async () => {
    await addUser('nilin@acme.test');
    const reset = (email: string) => t.request('POST', '/api/auth/password_reset', { body: { email }, remoteAddress: '10.35.0.2' });
    const sent = async () => (await t.ctx.db.select().from(outboxEmails).where(eq(outboxEmails.to_address, 'nilin@acme.test'))).length;
    expect((await reset('nİlİn@acme.test')).status).toBe(202);
    expect(await sent()).toBe(0);
    for (let attempt = 0; attempt < 3; attempt++) expect((await reset('nilin@acme.test')).status).toBe(202);
    expect(await sent()).toBe(3);
    expect((await reset('ＮＩＬＩＮ@ａｃｍｅ.test')).status).toBe(429);
  });

  it('opens one account whatever its compatibility, case or accent form, and keeps other letters apart (ı, ß)', async () => {
    const fiona = await addUser('ﬁona@acme.test');
    const jose = await addUser('JOSÉ@acme.test');
    const strasse = await addUser('straße@acme.test');
    expect([fiona.email, jose.email, strasse.email]).toEqual(['fiona@acme.test', 'josé@acme.test', 'straße@acme.test']);
    for (const [spelling, user] of [
      ['fiona@acme.test', fiona], ['FIONA@acme.test', fiona], ['ｆｉｏｎａ@acme.test', fiona], ['ﬁona@acme.test', fiona],
      ['jose\u0301@acme.test', jose], ['JOSE\u0301@acme.test', jose], ['josé@acme.test', jose],
      ['STRAẞE@acme.test', strasse], ['Straße@acme.test', strasse],
    ] as const) {
      const answer = await login(spelling, PASSWORD);
      expect(answer.status, spelling).toBe(200);
      expect(answer.body.user).toMatchObject({ id: user.id, email: user.email });
    }
    // Other letters are other addresses: the dotless ı is not i, ss is not ß, a bare e is not é.
    for (const spelling of ['fıona@acme.test', 'strasse@acme.test', 'jose@acme.test']) expect((await login(spelling, PASSWORD)).status, spelling).toBe(401);
  });
});

describe('sessions', () => {
  it('logout revokes the token', async () => {
    const login = await t.request('POST', '/api/auth/login', { body: { email: acme.emails.staff, password: PASSWORD } });
    expect((await t.request('POST', '/api/auth/logout', { token: login.body.token })).status).toBe(204);
    const after = await t.request('GET', '/api/auth/user', { token: login.body.token });
    expect(after.status).toBe(401);
    expect(after.body.message).toMatch(/session has expired/);
  });

  it('refuses calls without a token', async () => {
    const response = await t.request('GET', '/api/practitioners/all');
    expect(response.status).toBe(401);
    expect(response.body.code).toBe('UNAUTHENTICATED');
  });
});

describe('password reset', () => {
  it('emails a one-time link that sets a new password and works only once', async () => {
    const request = await t.request('POST', '/api/auth/password_reset', { body: { email: acme.emails.staff } });
    expect(request.status).toBe(202);
    const email = await latestEmailTo(acme.emails.staff);
    const token = decodeURIComponent(email.text_body.match(/reset-password\?token=([^\s]+)/)![1]);
    const confirm = await t.request('POST', '/api/auth/password_reset/confirm', { body: { token, password: 'a brand new password' } });
    expect(confirm.status).toBe(200);
    const again = await t.request('POST', '/api/auth/password_reset/confirm', { body: { token, password: 'another new password' } });
    expect(again.status).toBe(422);
    expect(again.body.message).toMatch(/invalid or has expired/);
    const login = await t.request('POST', '/api/auth/login', { body: { email: acme.emails.staff, password: 'a brand new password' } });
    expect(login.status).toBe(200);
  });

  it('answers the same for an unknown email and sends nothing', async () => {
    const response = await t.request('POST', '/api/auth/password_reset', { body: { email: 'nobody@nowhere.test' } });
    expect(response.status).toBe(202);
    expect(await latestEmailTo('nobody@nowhere.test')).toBeUndefined();
  });
});

describe('login-as', () => {
  it('exchanges an operator link for a session once', async () => {
    const auth = new AuthService(t.ctx);
    const link = await auth.createLoginAsLink((await t.request('GET', '/api/auth/user', { token: acme.tokens.admin })).body.user.id);
    const token = new URL(link).searchParams.get('token')!;
    const exchange = await t.request('POST', '/api/auth/login_as', { body: { token } });
    expect(exchange.status).toBe(200);
    expect(exchange.body.user.email).toBe(acme.emails.admin);
    expect((await t.request('POST', '/api/auth/login_as', { body: { token } })).status).toBe(422);
  });
});

describe('my account', () => {
  it('updates names, and needs the current password to change the password', async () => {
    const login = await t.request('POST', '/api/auth/login', { body: { email: acme.emails.practitioner, password: PASSWORD }, remoteAddress: '10.1.1.1' });
    const token = login.body.token;
    const renamed = await t.request('PUT', '/api/auth/user', { token, body: { first_name: 'Patricia' } });
    expect(renamed.body.user.first_name).toBe('Patricia');
    const refused = await t.request('PUT', '/api/auth/user', { token, body: { new_password: 'longer password 1', current_password: 'wrong' } });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toBe('Current password is incorrect.');
    expect(refused.body.errors).toEqual(['current_password: Current password is incorrect.']); // the form shows it under the field
    const taken = await t.request('PUT', '/api/auth/user', { token, body: { email: acme.emails.admin, current_password: PASSWORD } });
    expect(taken.status).toBe(409);
    expect(taken.body.errors).toEqual(['email: That email is already used by another account.']);
  });
});
