// Users (issue 14): an admin lists the business's users, invites one by an emailed one-time link (7 days, re-sendable,
// once), changes roles and associated practitioners, deactivates (sessions end, login answers 40000) and reactivates;
// nobody demotes or deactivates themself, the business keeps an active admin; every change reaches the Activity report.
import { and, asc, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oneTimeTokens, outboxEmails, users, versions } from '../../server/src/db/schema';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, PASSWORD, type BusinessFixture } from './support/fixtures';

let t: TestApp;
let acme: BusinessFixture;
let other: BusinessFixture;

beforeAll(async () => {
  t = await startTestApp();
  acme = await createBusinessFixture(t, 'acme');
  other = await createBusinessFixture(t, 'other');
});
afterAll(() => t?.close());

const listUsers = async (query = '', token = acme.tokens.admin) => {
  const response = await t.request('GET', `/api/users${query}`, { token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.users as any[];
};
const invite = (body: Record<string, unknown>, token = acme.tokens.admin) => t.request('POST', '/api/users', { token, body });
const login = (email: string, password = PASSWORD) => t.request('POST', '/api/auth/login', { body: { email, password } });

/** The token of the latest invitation emailed to `address` (from the outbox, as the invitee would read it). */
async function invitationTokenFor(address: string): Promise<string> {
  const [email] = await t.ctx.db.select().from(outboxEmails).where(eq(outboxEmails.to_address, address)).orderBy(desc(outboxEmails.id)).limit(1);
  expect(email.subject).toMatch(/invited to acme Care/);
  const link = /http\S+\/accept-invitation\?token=(\S+)/.exec(email.text_body)!;
  expect(link, email.text_body).not.toBeNull();
  return decodeURIComponent(link[1]);
}
const userVersions = (id: number) => t.ctx.db.select().from(versions)
  .where(and(eq(versions.item_type, 'User'), eq(versions.item_id, id))).orderBy(asc(versions.id));

describe('the users list', () => {
  it('shows an admin every user of the business with role, practitioners, status and last login', async () => {
    const list = await listUsers();
    expect(list.map((user) => user.email).sort()).toEqual([acme.emails.admin, acme.emails.practitioner, acme.emails.staff]);
    const practitioner = list.find((user) => user.email === acme.emails.practitioner);
    expect(practitioner).toMatchObject({
      role: 'PRACTITIONER', status: 'active', associated_practitioners: [{ id: acme.ownPractitionerId, full_name: 'Pat acme-One' }], invitation_expires_at: null,
    });
    // The fixture logged every user in.
    expect(Date.now() - Date.parse(practitioner.last_login_at)).toBeLessThan(60_000);
  });

  it('searches names and emails, and filters by role and status', async () => {
    expect((await listUsers('?search=SID')).map((user) => user.email)).toEqual([acme.emails.staff]);
    expect((await listUsers('?search=practitioner@')).map((user) => user.email)).toEqual([acme.emails.practitioner]);
    expect((await listUsers('?role=ADMIN')).map((user) => user.email)).toEqual([acme.emails.admin]);
    expect(await listUsers('?status=deactivated')).toEqual([]);
    expect((await t.request('GET', '/api/users?status=gone', { token: acme.tokens.admin })).status).toBe(422);
  });

  it('is for admins only, and shows nothing of another business', async () => {
    for (const token of [acme.tokens.staff, acme.tokens.practitioner]) {
      expect((await t.request('GET', '/api/users', { token })).status).toBe(403);
      expect((await invite({ email: 'x@acme.test', first_name: 'X', role: 'REGULAR_USER' }, token)).status).toBe(403);
      expect((await t.request('POST', `/api/users/${acme.userIds.staff}/deactivate`, { token })).status).toBe(403);
    }
    expect((await listUsers('', other.tokens.admin)).map((user) => user.email)).not.toContain(acme.emails.staff);
    for (const path of ['deactivate', 'reactivate', 'resend_invitation']) {
      expect((await t.request('POST', `/api/users/${acme.userIds.staff}/${path}`, { token: other.tokens.admin })).status).toBe(404);
    }
    expect((await t.request('PATCH', `/api/users/${acme.userIds.staff}`, { token: other.tokens.admin, body: { role: 'ADMIN' } })).status).toBe(404);
  });
});

describe('inviting a user', () => {
  it('refuses bad input with 422 naming the field, and an email a user of the business has with 409', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ email: 'not-an-email', first_name: 'Nia', role: 'REGULAR_USER' }, /^email: /],
      [{ email: 'nia@acme.test', first_name: '   ', role: 'REGULAR_USER' }, /^first_name: /],
      [{ email: 'nia@acme.test', first_name: 'Nia', role: 'PRACTITIONER' }, /^associated_practitioner_ids: choose at least one/],
      [{ email: 'nia@acme.test', first_name: 'Nia', role: 'PRACTITIONER', associated_practitioner_ids: [other.practitionerIds[0]] }, /^associated_practitioner_ids: choose practitioners of your business/],
      [{ email: 'nia@acme.test', first_name: 'Nia', role: 'REGULAR_USER', associated_practitioner_ids: [acme.practitionerIds[0]] }, /^associated_practitioner_ids: only a practitioner/],
    ];
    for (const [body, message] of cases) {
      const response = await invite(body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(response.body.message).toMatch(message);
    }
    const taken = await invite({ email: acme.emails.staff.toUpperCase(), first_name: 'Sid', role: 'REGULAR_USER' });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toMatch(/already a user of your business/);
    expect(taken.body.errors).toEqual([`email: ${taken.body.message}`]); // the invite form shows it under Email
  });

  let invitedId: number;
  let firstToken: string;

  it('creates an invited user who cannot log in yet, and emails them a link valid 7 days', async () => {
    const response = await invite({ email: ' nia@acme.test ', first_name: 'Nia', last_name: 'Nguyen', role: 'PRACTITIONER', associated_practitioner_ids: [acme.practitionerIds[1]] });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    invitedId = response.body.user.id;
    expect(response.body.user).toMatchObject({
      email: 'nia@acme.test', full_name: 'Nia Nguyen', role: 'PRACTITIONER', status: 'invited', last_login_at: null,
      associated_practitioners: [{ id: acme.practitionerIds[1], full_name: 'Quinn acme-Two' }],
    });
    const expiresIn = Date.parse(response.body.user.invitation_expires_at) - Date.now();
    expect(Math.abs(expiresIn - 7 * 24 * 3600_000)).toBeLessThan(60_000);
    firstToken = await invitationTokenFor('nia@acme.test');
    expect((await login('nia@acme.test', '')).status).toBe(422);
    expect((await login('nia@acme.test', 'anything-at-all')).status).toBe(401);
    expect((await listUsers('?status=invited')).map((user) => user.id)).toEqual([invitedId]);
    const [created] = await userVersions(invitedId);
    expect(created).toMatchObject({ event: 'create', whodunnit: 'Ada acme', object_changes: { email: [null, 'nia@acme.test'], role: [null, 'PRACTITIONER'], status: [null, 'invited'] } });
  });

  it('re-sending emails a new link; the old one then says a newer one was sent', async () => {
    const resent = await t.request('POST', `/api/users/${invitedId}/resend_invitation`, { token: acme.tokens.admin });
    expect(resent.status).toBe(200);
    expect(resent.body.user.status).toBe('invited');
    const newToken = await invitationTokenFor('nia@acme.test');
    expect(newToken).not.toBe(firstToken);
    const old = await t.request('POST', '/api/auth/invitation', { body: { token: firstToken } });
    expect(old.status).toBe(422);
    expect(old.body).toMatchObject({ code: 'INVITATION_REPLACED', message: expect.stringMatching(/newer invitation/) });
    const check = await t.request('POST', '/api/auth/invitation', { body: { token: newToken } });
    expect(check.status).toBe(200);
    expect(check.body).toEqual({ email: 'nia@acme.test', first_name: 'Nia', business_name: 'acme Care' });
    firstToken = newToken;
  });

  it('eight re-sends at once leave exactly one working link', async () => {
    const created = await invite({ email: 'rush@acme.test', first_name: 'Rush', role: 'REGULAR_USER' });
    expect(created.status).toBe(201);
    const id = created.body.user.id as number;
    const resends = await Promise.all(Array.from({ length: 8 }, () => t.request('POST', `/api/users/${id}/resend_invitation`, { token: acme.tokens.admin })));
    expect(resends.map((response) => response.status)).toEqual(Array(8).fill(200));
    const emails = await t.ctx.db.select().from(outboxEmails).where(eq(outboxEmails.to_address, 'rush@acme.test'));
    expect(emails).toHaveLength(9);
    const tokens = emails.map((email) => decodeURIComponent(/accept-invitation\?token=(\S+)/.exec(email.text_body)![1]));
    const checks = await Promise.all(tokens.map((token) => t.request('POST', '/api/auth/invitation', { body: { token } })));
    expect(checks.filter((check) => check.status === 200)).toHaveLength(1);
    expect(checks.filter((check) => check.status === 422).map((check) => check.body.code)).toEqual(Array(8).fill('INVITATION_REPLACED'));
  });

  it('accepting sets the password once: the user logs in, and the link then says it was used', async () => {
    const short = await t.request('POST', '/api/auth/invitation/accept', { body: { token: firstToken, password: 'short' } });
    expect(short.status).toBe(422);
    const accepted = await t.request('POST', '/api/auth/invitation/accept', { body: { token: firstToken, password: 'a long new password' } });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body.email).toBe('nia@acme.test');
    const session = await login('nia@acme.test', 'a long new password');
    expect(session.status).toBe(200);
    expect(session.body.user).toMatchObject({ role: 'PRACTITIONER', associated_practitioner_ids: [acme.practitionerIds[1]] });
    const again = await t.request('POST', '/api/auth/invitation/accept', { body: { token: firstToken, password: 'another password' } });
    expect(again.status).toBe(422);
    expect(again.body.code).toBe('INVITATION_USED');
    expect((await login('nia@acme.test', 'another password')).status).toBe(401);
    const [nia] = await listUsers('?search=nia');
    expect(nia).toMatchObject({ status: 'active', invitation_expires_at: null });
    expect(nia.last_login_at).not.toBeNull();
    expect((await userVersions(invitedId)).at(-1)).toMatchObject({ whodunnit: 'Nia Nguyen', object_changes: { status: ['invited', 'active'] } });
    // An active user has nothing to re-send.
    const resend = await t.request('POST', `/api/users/${invitedId}/resend_invitation`, { token: acme.tokens.admin });
    expect(resend.status).toBe(409);
    expect(resend.body.message).toMatch(/already accepted/);
  });

  it('an invitee who uses “Forgot your password?” instead becomes active, and the invitation link then says so', async () => {
    const response = await invite({ email: 'reset@acme.test', first_name: 'Rosa', role: 'REGULAR_USER' });
    const invitation = await invitationTokenFor('reset@acme.test');
    expect((await t.request('POST', '/api/auth/password_reset', { body: { email: 'reset@acme.test' } })).status).toBe(202);
    const [email] = await t.ctx.db.select().from(outboxEmails).where(eq(outboxEmails.to_address, 'reset@acme.test')).orderBy(desc(outboxEmails.id)).limit(1);
    const reset = decodeURIComponent(/reset-password\?token=(\S+)/.exec(email.text_body)![1]);
    expect((await t.request('POST', '/api/auth/password_reset/confirm', { body: { token: reset, password: 'a long new password' } })).status).toBe(200);
    expect((await login('reset@acme.test', 'a long new password')).status).toBe(200);
    expect((await listUsers('?search=rosa'))[0].status).toBe('active');
    expect((await t.request('POST', '/api/auth/invitation', { body: { token: invitation } })).body.code).toBe('INVITATION_USED');
    expect((await userVersions(response.body.user.id)).at(-1)).toMatchObject({ whodunnit: 'Rosa', object_changes: { status: ['invited', 'active'] } });
  });

  it('an expired link (older than 7 days) says so and cannot be used', async () => {
    const response = await invite({ email: 'old@acme.test', first_name: 'Olly', role: 'REGULAR_USER' });
    const token = await invitationTokenFor('old@acme.test');
    await t.ctx.db.update(oneTimeTokens).set({ expires_at: new Date(Date.now() - 1000) })
      .where(and(eq(oneTimeTokens.user_id, response.body.user.id), eq(oneTimeTokens.purpose, 'INVITATION')));
    for (const [path, body] of [['/api/auth/invitation', { token }], ['/api/auth/invitation/accept', { token, password: 'a long new password' }]] as const) {
      const expired = await t.request('POST', path, { body });
      expect(expired.status).toBe(422);
      expect(expired.body).toMatchObject({ code: 'INVITATION_EXPIRED', message: expect.stringMatching(/expired/) });
    }
    expect((await listUsers('?search=olly'))[0]).toMatchObject({ status: 'invited', invitation_expires_at: null });
    const unknown = await t.request('POST', '/api/auth/invitation', { body: { token: 'no-such-token' } });
    expect(unknown.body.code).toBe('INVITATION_INVALID');
  });
});

describe('changing role and practitioners', () => {
  it('changes a role and practitioners, recording old → new, and requires practitioners for PRACTITIONER', async () => {
    const path = `/api/users/${acme.userIds.staff}`;
    const missing = await t.request('PATCH', path, { token: acme.tokens.admin, body: { role: 'PRACTITIONER' } });
    expect(missing.status).toBe(422);
    expect(missing.body.message).toMatch(/^associated_practitioner_ids: /);
    const changed = await t.request('PATCH', path, { token: acme.tokens.admin, body: { role: 'PRACTITIONER', associated_practitioner_ids: [acme.practitionerIds[0], acme.practitionerIds[1]] } });
    expect(changed.status).toBe(200);
    expect(changed.body.user).toMatchObject({ role: 'PRACTITIONER', associated_practitioners: [{ id: acme.practitionerIds[0] }, { id: acme.practitionerIds[1] }] });
    // The new role applies to the user's next request.
    expect((await t.request('GET', '/api/users', { token: acme.tokens.staff })).status).toBe(403);
    const back = await t.request('PATCH', path, { token: acme.tokens.admin, body: { role: 'REGULAR_USER' } });
    expect(back.body.user).toMatchObject({ role: 'REGULAR_USER', associated_practitioners: [] });
    expect((await userVersions(acme.userIds.staff)).map((row) => row.object_changes)).toEqual([
      { role: ['REGULAR_USER', 'PRACTITIONER'], associated_practitioner_ids: [[], [acme.practitionerIds[0], acme.practitionerIds[1]]] },
      { role: ['PRACTITIONER', 'REGULAR_USER'], associated_practitioner_ids: [[acme.practitionerIds[0], acme.practitionerIds[1]], []] },
    ]);
  });

  it('an admin cannot change their own role (409)', async () => {
    const self = await t.request('PATCH', `/api/users/${acme.userIds.admin}`, { token: acme.tokens.admin, body: { role: 'REGULAR_USER' } });
    expect(self.status).toBe(409);
    expect(self.body.message).toMatch(/cannot change your own role/);
    expect((await listUsers('?role=ADMIN')).map((user) => user.id)).toEqual([acme.userIds.admin]);
  });
});

describe('deactivating and reactivating', () => {
  it('ends the user’s sessions at once; their login answers 40000; reactivating lets them back in', async () => {
    const before = await login(acme.emails.practitioner);
    const deactivated = await t.request('POST', `/api/users/${acme.userIds.practitioner}/deactivate`, { token: acme.tokens.admin });
    expect(deactivated.status).toBe(200);
    expect(deactivated.body.user.status).toBe('deactivated');
    for (const token of [acme.tokens.practitioner, before.body.token]) {
      // The open session is told why it ended, so the login page can say so.
      const ended = await t.request('GET', '/api/auth/user', { token });
      expect(ended.status).toBe(401);
      expect(ended.body).toMatchObject({ code: '40000', message: 'Your account has been deactivated. Ask your administrator to reactivate it.' });
    }
    const refused = await login(acme.emails.practitioner);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: '40000', message: expect.stringMatching(/deactivated/) });
    // A wrong password still says only that.
    expect((await login(acme.emails.practitioner, 'wrong password')).status).toBe(401);
    expect((await listUsers('?status=deactivated')).map((user) => user.id)).toEqual([acme.userIds.practitioner]);
    const reactivated = await t.request('POST', `/api/users/${acme.userIds.practitioner}/reactivate`, { token: acme.tokens.admin });
    expect(reactivated.body.user.status).toBe('active');
    const after = await login(acme.emails.practitioner);
    expect(after.status).toBe(200);
    // The session deactivating ended stays ended, now without a reason to give.
    expect((await t.request('GET', '/api/auth/user', { token: before.body.token })).body.code).toBe('UNAUTHENTICATED');
    acme.tokens.practitioner = after.body.token;
    expect((await userVersions(acme.userIds.practitioner)).map((row) => row.object_changes)).toEqual([
      { status: ['active', 'deactivated'] }, { status: ['deactivated', 'active'] },
    ]);
  });

  it('an admin cannot deactivate themself (409)', async () => {
    const response = await t.request('POST', `/api/users/${acme.userIds.admin}/deactivate`, { token: acme.tokens.admin });
    expect(response.status).toBe(409);
    expect(response.body.message).toMatch(/cannot deactivate your own account/);
    expect((await t.request('GET', '/api/auth/user', { token: acme.tokens.admin })).status).toBe(200);
  });

  it('a deactivated invitee’s link stops working', async () => {
    const response = await invite({ email: 'gone@acme.test', first_name: 'Gwen', role: 'REGULAR_USER' });
    const token = await invitationTokenFor('gone@acme.test');
    await t.request('POST', `/api/users/${response.body.user.id}/deactivate`, { token: acme.tokens.admin });
    const accept = await t.request('POST', '/api/auth/invitation/accept', { body: { token, password: 'a long new password' } });
    expect(accept.status).toBe(422);
    expect(accept.body.code).toBe('INVITATION_INVALID');
    const resend = await t.request('POST', `/api/users/${response.body.user.id}/resend_invitation`, { token: acme.tokens.admin });
    expect(resend.status).toBe(409);
    // Reactivated, they are invited again and can be sent a new link.
    const reactivated = await t.request('POST', `/api/users/${response.body.user.id}/reactivate`, { token: acme.tokens.admin });
    expect(reactivated.body.user.status).toBe('invited');
    expect((await t.request('POST', `/api/users/${response.body.user.id}/resend_invitation`, { token: acme.tokens.admin })).status).toBe(200);
  });
});

describe('the business keeps an active administrator', () => {
  it('an admin demotes or deactivates another admin; two admins removing each other at once leave one', async () => {
    // Sid becomes a second admin.
    await t.request('PATCH', `/api/users/${acme.userIds.staff}`, { token: acme.tokens.admin, body: { role: 'ADMIN' } });
    const sid = (await login(acme.emails.staff)).body.token as string;
    const results = await Promise.all([
      t.request('POST', `/api/users/${acme.userIds.staff}/deactivate`, { token: acme.tokens.admin }),
      t.request('POST', `/api/users/${acme.userIds.admin}/deactivate`, { token: sid }),
    ]);
    const statuses = results.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    for (const response of results.filter((r) => r.status !== 200)) {
      expect([401, 409]).toContain(response.status);
      if (response.status === 409) expect(response.body).toMatchObject({ code: 'LAST_ADMIN', message: expect.stringMatching(/last active administrator/) });
    }
    const admins = await t.ctx.db.select().from(users).where(and(eq(users.business_account_id, acme.businessAccountId), eq(users.role, 'ADMIN'), eq(users.active, true)));
    expect(admins).toHaveLength(1);
    // Put things back for whoever remains.
    const remaining = admins[0].id === acme.userIds.admin ? acme.tokens.admin : sid;
    const gone = admins[0].id === acme.userIds.admin ? acme.userIds.staff : acme.userIds.admin;
    expect((await t.request('POST', `/api/users/${gone}/reactivate`, { token: remaining })).status).toBe(200);
    acme.tokens.admin = (await login(acme.emails.admin)).body.token;
    const demoted = await t.request('PATCH', `/api/users/${acme.userIds.staff}`, { token: acme.tokens.admin, body: { role: 'REGULAR_USER' } });
    expect(demoted.status).toBe(200);
  });
});

describe('administrators removing each other at once', () => {
  it('of three admins, two deactivating each other at once: only one succeeds, the other is told they are deactivated', async () => {
    const trio = await createBusinessFixture(t, 'trio');
    // Sid and Pat become admins too: three in all.
    for (const id of [trio.userIds.staff, trio.userIds.practitioner]) {
      expect((await t.request('PATCH', `/api/users/${id}`, { token: trio.tokens.admin, body: { role: 'ADMIN' } })).status).toBe(200);
    }
    const tokenOf = async (email: string) => (await login(email)).body.token as string;
    // Each round, two of the three deactivate each other at once and the third puts things back.
    const rounds: [number, string, number, string, string][] = [
      [trio.userIds.admin, trio.emails.admin, trio.userIds.staff, trio.emails.staff, trio.emails.practitioner],
      [trio.userIds.staff, trio.emails.staff, trio.userIds.practitioner, trio.emails.practitioner, trio.emails.admin],
    ];
    for (const [first, firstEmail, second, secondEmail, thirdEmail] of rounds) {
      const [firstToken, secondToken] = [await tokenOf(firstEmail), await tokenOf(secondEmail)];
      const results = await Promise.all([
        t.request('POST', `/api/users/${second}/deactivate`, { token: firstToken }),
        t.request('POST', `/api/users/${first}/deactivate`, { token: secondToken }),
      ]);
      expect(results.map((response) => response.status).sort()).toEqual([200, 401]);
      expect(results.find((response) => response.status === 401)!.body).toMatchObject({
        code: '40000', message: 'Your account has been deactivated. Ask your administrator to reactivate it.',
      });
      const active = await t.ctx.db.select({ id: users.id }).from(users)
        .where(and(eq(users.business_account_id, trio.businessAccountId), eq(users.role, 'ADMIN'), eq(users.active, true)));
      expect(active).toHaveLength(2);
      const gone = results[0].status === 200 ? second : first;
      expect((await t.request('POST', `/api/users/${gone}/reactivate`, { token: await tokenOf(thirdEmail) })).status).toBe(200);
    }
  });

  it("a request of an admin deactivated while it waited does nothing (the actor is checked again inside the change)", async () => {
    const duo = await createBusinessFixture(t, 'duo');
    expect((await t.request('PATCH', `/api/users/${duo.userIds.staff}`, { token: duo.tokens.admin, body: { role: 'ADMIN' } })).status).toBe(200);
    const sid = (await login(duo.emails.staff)).body.token as string;
    // Ada deactivates Sid while Sid changes Pat's role: Sid's change either comes first or not at all.
    const [deactivated, changed] = await Promise.all([
      t.request('POST', `/api/users/${duo.userIds.staff}/deactivate`, { token: duo.tokens.admin }),
      t.request('PATCH', `/api/users/${duo.userIds.practitioner}`, { token: sid, body: { role: 'REGULAR_USER' } }),
    ]);
    expect(deactivated.status).toBe(200);
    const [pat] = await t.ctx.db.select().from(users).where(eq(users.id, duo.userIds.practitioner));
    const patVersions = await userVersions(duo.userIds.practitioner);
    if (changed.status === 200) {
      // Sid's change was made while Sid was still an active admin: before the deactivation, in the change log too.
      expect(pat.role).toBe('REGULAR_USER');
      const sidDeactivated = (await userVersions(duo.userIds.staff)).at(-1)!;
      expect(sidDeactivated.object_changes).toEqual({ status: ['active', 'deactivated'] });
      expect(patVersions.at(-1)).toMatchObject({ whodunnit: 'Sid' });
      expect(patVersions.at(-1)!.id).toBeLessThan(sidDeactivated.id);
    } else {
      expect(changed.status).toBe(401);
      expect(pat.role).toBe('PRACTITIONER');
    }
  });
});

describe('the Activity report', () => {
  it('lists user changes under the kind "user", old → new, with who did them', async () => {
    const response = await t.request('GET', '/api/reports/activity?kinds=user', { token: acme.tokens.admin });
    expect(response.status).toBe(200);
    const rows = response.body.rows as any[];
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.every((row) => row.kind === 'user')).toBe(true);
    const invited = rows.find((row) => row.what === 'User Nia Nguyen' && row.event === 'create');
    expect(invited).toMatchObject({ who: 'Ada acme' });
    expect(invited.changes).toEqual(expect.arrayContaining([
      expect.objectContaining({ label: 'Role', to: 'Practitioner' }),
      expect.objectContaining({ label: 'Associated practitioners', to: 'Quinn acme-Two' }),
    ]));
    const deactivation = rows.find((row) => row.what === 'User Pat' && row.changes.some((c: any) => c.to === 'Deactivated'));
    expect(deactivation.changes).toEqual([{ field: 'status', label: 'Status', kind: 'text', from: 'Active', to: 'Deactivated' }]);
    expect(response.body.summary.by_kind).toEqual([{ kind: 'user', count: rows.length }]);
    const elsewhere = await t.request('GET', '/api/reports/activity?kinds=user', { token: other.tokens.admin });
    expect(elsewhere.body.rows).toEqual([]);
  });
});
