// An email is unique within a business, not across Rounds (docs/decisions/0019-email-per-business.md): one person may
// work for two care providers with one address; inviting or renaming to another business's address is neither refused
// nor revealed; a login whose password opens accounts in several businesses asks which one; a reset sends one link per
// account; operator commands need the business when the email is ambiguous.
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxEmails, users } from '../../server/src/db/schema';
import { AccountError, createUser, findUserForOperator } from '../../server/src/modules/business-account';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, PASSWORD, type BusinessFixture } from './support/fixtures';

let t: TestApp;
let acme: BusinessFixture;
let beta: BusinessFixture;
let gamma: BusinessFixture;

beforeAll(async () => {
  t = await startTestApp();
  acme = await createBusinessFixture(t, 'acme');
  beta = await createBusinessFixture(t, 'beta');
  gamma = await createBusinessFixture(t, 'gamma');
});
afterAll(() => t?.close());

let address = 0;
/** Each login from its own address, so that one test's failures never throttle another's. */
const login = (body: Record<string, unknown>) => t.request('POST', '/api/auth/login', { body, remoteAddress: `10.23.0.${++address}` });
const invite = (token: string, email: string) => t.request('POST', '/api/users', { token, body: { email, first_name: 'Sam', role: 'REGULAR_USER' } });
const addUser = (business: BusinessFixture, email: string, password = PASSWORD) =>
  createUser(t.ctx.db, { businessAccountId: business.businessAccountId, email, password, first_name: 'Sam', last_name: 'Shared', role: 'REGULAR_USER' });
const emailsTo = (to: string) => t.ctx.db.select().from(outboxEmails).where(eq(outboxEmails.to_address, to)).orderBy(asc(outboxEmails.id));

describe('an email is unique within a business only', () => {
  it('an admin invites an address another business uses; their own business’s is still refused (409), case aside', async () => {
    expect((await invite(acme.tokens.admin, 'kim@shared.test')).status).toBe(201);
    const other = await invite(beta.tokens.admin, 'Kim@Shared.test');
    expect(other.status, JSON.stringify(other.body)).toBe(201);
    // Stored in its normal form (lower case), which every lookup uses.
    expect(other.body.user).toMatchObject({ email: 'kim@shared.test', status: 'invited' });
    const again = await invite(beta.tokens.admin, 'KIM@shared.test');
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('EMAIL_TAKEN');
    // The refusal speaks of this business only.
    expect(again.body.message).toBe('KIM@shared.test is already a user of your business: each person logs in with their own email.');
  });

  it('a user changes their email to one another business uses; not to a colleague’s (409)', async () => {
    const moved = await t.request('PUT', '/api/auth/user', { token: acme.tokens.staff, body: { email: beta.emails.admin, current_password: PASSWORD } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.user.email).toBe(beta.emails.admin);
    const taken = await t.request('PUT', '/api/auth/user', { token: acme.tokens.staff, body: { email: acme.emails.admin.toUpperCase(), current_password: PASSWORD } });
    expect(taken.status).toBe(409);
    expect(taken.body.errors).toEqual(['email: That email is already used by another account.']);
    await t.request('PUT', '/api/auth/user', { token: acme.tokens.staff, body: { email: acme.emails.staff, current_password: PASSWORD } });
  });

  it('a deactivated user whose email an active colleague now has is not reactivated (409), and is once the colleague is gone', async () => {
    const first = await invite(gamma.tokens.admin, 'twin@gamma.test');
    await t.request('POST', `/api/users/${first.body.user.id}/deactivate`, { token: gamma.tokens.admin });
    // The same address written in full-width letters: a second invitation is refused…
    expect((await invite(gamma.tokens.admin, 'ＴＷＩＮ@gamma.test')).status).toBe(409);
    // …so the colleague holding it is made as migration 0095 leaves users whose emails came to read the same.
    const second = await addUser(gamma, 'twin2@gamma.test');
    await t.ctx.db.update(users).set({ email: 'twin@gamma.test' }).where(eq(users.id, second.id));
    const refused = await t.request('POST', `/api/users/${first.body.user.id}/reactivate`, { token: gamma.tokens.admin });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      code: 'EMAIL_TAKEN', message: 'Sam cannot be reactivated: Sam Shared is an active user with the same email, twin@gamma.test.',
    });
    await t.request('POST', `/api/users/${second.id}/deactivate`, { token: gamma.tokens.admin });
    expect((await t.request('POST', `/api/users/${first.body.user.id}/reactivate`, { token: gamma.tokens.admin })).status).toBe(200);
  });

  it('the operator creates a user with another business’s email, not with one of the same business', async () => {
    const created = await addUser(gamma, acme.emails.practitioner);
    expect(created.business_account_id).toBe(gamma.businessAccountId);
    await expect(addUser(gamma, acme.emails.practitioner.toUpperCase())).rejects.toThrow(/already has a user with the email/);
  });
});

describe('logging in with an email several businesses use', () => {
  it('asks which business when the password opens two accounts, naming only those, then logs in to the chosen one', async () => {
    await addUser(acme, 'both@shared.test');
    await addUser(beta, 'both@shared.test');
    await addUser(gamma, 'both@shared.test', 'a different password');
    const choice = await login({ email: 'both@shared.test', password: PASSWORD });
    expect(choice.status).toBe(409);
    expect(choice.body.code).toBe('CHOOSE_BUSINESS');
    expect(choice.body.token).toBeUndefined();
    // gamma's account has another password: nothing is said of it.
    expect(choice.body.businesses).toEqual([
      { id: acme.businessAccountId, name: 'acme Care' }, { id: beta.businessAccountId, name: 'beta Care' },
    ]);
    const chosen = await login({ email: 'both@shared.test', password: PASSWORD, business_account_id: beta.businessAccountId });
    expect(chosen.status, JSON.stringify(chosen.body)).toBe(200);
    expect(chosen.body.user).toMatchObject({ email: 'both@shared.test', business_account: { id: beta.businessAccountId } });
    const me = await t.request('GET', '/api/auth/user', { token: chosen.body.token });
    expect(me.body.user.business_account.id).toBe(beta.businessAccountId);
  });

  it('goes straight in when the password opens one of them', async () => {
    const gammaOnly = await login({ email: 'both@shared.test', password: 'a different password' });
    expect(gammaOnly.status, JSON.stringify(gammaOnly.body)).toBe(200);
    expect(gammaOnly.body.user.business_account.id).toBe(gamma.businessAccountId);
  });

  it('a business whose account the password does not open answers like any wrong password (401)', async () => {
    const wrongBusiness = await login({ email: 'both@shared.test', password: PASSWORD, business_account_id: gamma.businessAccountId });
    const unknown = await login({ email: 'nobody@shared.test', password: PASSWORD });
    expect(wrongBusiness.status).toBe(401);
    expect(wrongBusiness.body).toEqual(unknown.body);
    expect((await login({ email: 'both@shared.test', password: 'not the password' })).body).toEqual(unknown.body);
  });

  it('an invited duplicate (no password yet) never matches, whatever is typed', async () => {
    await addUser(acme, 'invitee@shared.test');
    expect((await invite(beta.tokens.admin, 'invitee@shared.test')).status).toBe(201);
    const straightIn = await login({ email: 'invitee@shared.test', password: PASSWORD });
    expect(straightIn.status, JSON.stringify(straightIn.body)).toBe(200);
    expect(straightIn.body.user.business_account.id).toBe(acme.businessAccountId);
    const invitedOne = await login({ email: 'invitee@shared.test', password: PASSWORD, business_account_id: beta.businessAccountId });
    expect(invitedOne.status).toBe(401);
    for (const password of ['decoy-password-never-matches', PASSWORD, ' ']) {
      const onlyInvited = await login({ email: 'kim@shared.test', password });
      expect(onlyInvited.status).toBe(401);
    }
  });
});

describe('a deactivated account', () => {
  it('a wrong password answers exactly like any wrong password; the right one says it is deactivated (40000)', async () => {
    const user = await addUser(acme, 'gone@shared.test');
    await t.request('POST', `/api/users/${user.id}/deactivate`, { token: acme.tokens.admin });
    const unknown = await login({ email: 'nobody@shared.test', password: 'a wrong password' });
    const wrong = await login({ email: 'gone@shared.test', password: 'a wrong password' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    const right = await login({ email: 'gone@shared.test', password: PASSWORD });
    expect(right.status).toBe(403);
    expect(right.body.code).toBe('40000');
  });

  it('is not offered when the same password opens an active account of another business: that one opens', async () => {
    await addUser(beta, 'gone@shared.test');
    const response = await login({ email: 'gone@shared.test', password: PASSWORD });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.user.business_account.id).toBe(beta.businessAccountId);
  });
});

describe('a password reset for an email several businesses use', () => {
  it('sends one link per account, naming its business; each link changes that account’s password only', async () => {
    await addUser(acme, 'reset@shared.test');
    await addUser(beta, 'reset@shared.test');
    const response = await t.request('POST', '/api/auth/password_reset', { body: { email: 'RESET@shared.test' }, remoteAddress: '10.23.1.1' });
    expect(response.status).toBe(202);
    const sent = await emailsTo('reset@shared.test');
    expect(sent.map((email) => [email.business_account_id, email.subject])).toEqual([
      [acme.businessAccountId, 'Reset your Rounds password for acme Care'],
      [beta.businessAccountId, 'Reset your Rounds password for beta Care'],
    ]);
    expect(sent[1].text_body).toContain('your Rounds account at beta Care');
    const token = decodeURIComponent(sent[1].text_body.match(/reset-password\?token=(\S+)/)![1]);
    expect((await t.request('POST', '/api/auth/password_reset/confirm', { body: { token, password: 'beta only new password' } })).status).toBe(200);
    const beta2 = await login({ email: 'reset@shared.test', password: 'beta only new password' });
    expect(beta2.body.user.business_account.id).toBe(beta.businessAccountId);
    const acme2 = await login({ email: 'reset@shared.test', password: PASSWORD });
    expect(acme2.body.user.business_account.id).toBe(acme.businessAccountId);
  });

  it('keeps the cap of each account: past three links in the window, that account gets no more', async () => {
    await addUser(gamma, 'capped@shared.test');
    for (let request = 0; request < 4; request++) {
      await t.request('POST', '/api/auth/password_reset', { body: { email: 'capped@shared.test' }, remoteAddress: `10.23.2.${request}` });
    }
    await addUser(acme, 'capped@shared.test');
    await t.request('POST', '/api/auth/password_reset', { body: { email: 'capped@shared.test' }, remoteAddress: '10.23.2.9' });
    const sent = await emailsTo('capped@shared.test');
    expect(sent.map((email) => email.business_account_id)).toEqual([
      gamma.businessAccountId, gamma.businessAccountId, gamma.businessAccountId, acme.businessAccountId,
    ]);
  });
});

describe('operator commands naming a user by email', () => {
  it('need the business when the email is a user of several, and say so', async () => {
    await expect(findUserForOperator(t.ctx.db, 'both@shared.test')).rejects.toThrow(AccountError);
    await expect(findUserForOperator(t.ctx.db, 'both@shared.test')).rejects.toThrow(
      `both@shared.test is a user of several business accounts (#${acme.businessAccountId} "acme Care", #${beta.businessAccountId} "beta Care", `
      + `#${gamma.businessAccountId} "gamma Care"): add --business-id to say which`);
    expect((await findUserForOperator(t.ctx.db, 'BOTH@shared.test', beta.businessAccountId)).business.id).toBe(beta.businessAccountId);
    expect((await findUserForOperator(t.ctx.db, acme.emails.admin)).business.id).toBe(acme.businessAccountId);
    await expect(findUserForOperator(t.ctx.db, acme.emails.admin, beta.businessAccountId)).rejects.toThrow(
      `business account #${beta.businessAccountId} has no user with the email ${acme.emails.admin}`);
  });
});
