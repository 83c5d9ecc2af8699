import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessAccounts, clients, outboxEmails, versions } from '../../server/src/db/schema';
import { clientAvailabilityRequests } from '../../server/src/db/schema-clients';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';

let t: TestApp;
let acme: BusinessFixture;
let other: BusinessFixture;

beforeAll(async () => {
  t = await startTestApp();
  acme = await createBusinessFixture(t, 'acme');
  other = await createBusinessFixture(t, 'other');
  await t.ctx.db.update(clients).set({ email: 'cora@acme.example' }).where(eq(clients.id, acme.clientIds[0]));
  await t.ctx.db.update(clients).set({ email: 'cora@other.example' }).where(eq(clients.id, other.clientIds[0]));
  await t.ctx.db.update(clients).set({ email: 'dale@acme.example' }).where(eq(clients.id, acme.clientIds[1]));
  await t.ctx.db.update(clients).set({ email: 'dale@other.example' }).where(eq(clients.id, other.clientIds[1]));
  await t.ctx.db.update(businessAccounts).set({ contact_email: 'office@acme.example', contact_phone: '07 3000 1234' }).where(eq(businessAccounts.id, acme.businessAccountId));
});
afterAll(() => t.close());

/** Sends an availability request as the business's admin and returns the token from the emailed link. */
async function requestLink(fixture: BusinessFixture, clientId: number, to: string): Promise<string> {
  const sent = await t.request('POST', `/api/clients/${clientId}/send_availability_request`, { token: fixture.tokens.admin });
  expect(sent.status).toBe(202);
  const [email] = await t.ctx.db.select().from(outboxEmails).where(eq(outboxEmails.to_address, to)).orderBy(desc(outboxEmails.id)).limit(1);
  return new URL(/(http\S+)/.exec(email.text_body)![1]).searchParams.get('token')!;
}

const read = (token: string, headers?: Record<string, string>) => t.request('GET', `/api/public/availability?token=${encodeURIComponent(token)}`, { headers });
const save = (token: string, availability: unknown, remoteAddress?: string) => t.request('PUT', '/api/public/availability', { body: { token, availability }, remoteAddress });

describe('public availability link', () => {
  it("shows only the client's first name and availability, and who asks, without a login", async () => {
    const token = await requestLink(acme, acme.clientIds[0], 'cora@acme.example');
    const response = await read(token);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      client: { first_name: 'Cora' }, business: { name: 'acme Care', email: 'office@acme.example', phone: '07 3000 1234' },
      availability: [{ dow: 1, hours: ['09:00-12:00'] }], expires_at: expect.any(String),
    });
    // A business without contact details is named alone.
    const theirs = await read(await requestLink(other, other.clientIds[1], 'dale@other.example'));
    expect(theirs.body.business).toEqual({ name: 'other Care', email: null, phone: null });
  });

  it('is emailed from and signed by the care provider, replies going to its contact email', async () => {
    await requestLink(acme, acme.clientIds[1], 'dale@acme.example');
    const [email] = await t.ctx.db.select().from(outboxEmails).where(eq(outboxEmails.to_address, 'dale@acme.example')).orderBy(desc(outboxEmails.id)).limit(1);
    expect(email.from_address).toBe('"acme Care" <no-reply@rounds.local>');
    expect(email.reply_to).toBe('office@acme.example');
    expect(email.subject).toBe('acme Care: please let us know when we can visit you');
    expect(email.text_body).toContain('To help acme Care plan your visits');
    expect(email.text_body).toMatch(/Kind regards,\nAda acme\nacme Care\n07 3000 1234\noffice@acme\.example$/);
    // Without a contact email there is no Reply-To; the sender is still the business.
    await requestLink(other, other.clientIds[1], 'dale@other.example');
    const [theirs] = await t.ctx.db.select().from(outboxEmails).where(eq(outboxEmails.to_address, 'dale@other.example')).orderBy(desc(outboxEmails.id)).limit(1);
    expect([theirs.from_address, theirs.reply_to]).toEqual(['"other Care" <no-reply@rounds.local>', null]);
    expect(theirs.text_body).toMatch(/Kind regards,\nAda other\nother Care$/);
  });

  it("saves that client's availability once, logged as the client, and then refuses the used link with 410", async () => {
    const token = await requestLink(acme, acme.clientIds[0], 'cora@acme.example');
    const saved = await save(token, [{ dow: 4, hours: ['12:00-15:00'] }, { dow: 2 }]);
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ message: 'Thank you. Your availability has been updated.', availability: [{ dow: 2 }, { dow: 4, hours: ['12:00-15:00'] }] });
    const client = await t.request('GET', `/api/clients/${acme.clientIds[0]}`, { token: acme.tokens.staff });
    expect(client.body.client.availability).toEqual([{ dow: 2 }, { dow: 4, hours: ['12:00-15:00'] }]);
    const [version] = await t.ctx.db.select().from(versions)
      .where(and(eq(versions.item_type, 'Client'), eq(versions.item_id, acme.clientIds[0]))).orderBy(desc(versions.id)).limit(1);
    expect(version.whodunnit).toBe('Client (availability link)');
    expect(version.object_changes).toEqual({ availability: [[{ dow: 1, hours: ['09:00-12:00'] }], [{ dow: 2 }, { dow: 4, hours: ['12:00-15:00'] }]] });

    const again = await save(token, []);
    expect(again.status).toBe(410);
    expect(again.body).toMatchObject({ code: 'LINK_USED', message: expect.stringMatching(/already been used/) });
    expect((await read(token)).status).toBe(410);
    // the other business's client is untouched
    const [otherClient] = await t.ctx.db.select().from(clients).where(eq(clients.id, other.clientIds[0]));
    expect(otherClient.availability).toEqual([{ dow: 1, hours: ['09:00-12:00'] }]);
  });

  it('refuses an expired link with 410 and changes nothing', async () => {
    const token = await requestLink(other, other.clientIds[0], 'cora@other.example');
    await t.ctx.db.update(clientAvailabilityRequests).set({ expires_at: new Date(Date.now() - 1000) }).where(eq(clientAvailabilityRequests.client_id, other.clientIds[0]));
    const expired = await save(token, []);
    expect(expired.status).toBe(410);
    expect(expired.body).toMatchObject({ code: 'LINK_EXPIRED', message: 'This link has expired. Ask your care provider to send a new one.' });
    expect((await read(token)).status).toBe(410);
    const [row] = await t.ctx.db.select().from(clients).where(eq(clients.id, other.clientIds[0]));
    expect(row.availability).toEqual([{ dow: 1, hours: ['09:00-12:00'] }]);
  });

  it('refuses unknown, forged and tampered tokens with 422', async () => {
    const token = await requestLink(acme, acme.clientIds[0], 'cora@acme.example');
    const [random, signature] = token.split('.');
    for (const bad of ['nope', `${random}.${'A'.repeat(signature.length)}`, `${random.slice(0, -1)}${random.endsWith('A') ? 'B' : 'A'}.${signature}`, `${token}.x`]) {
      const response = await read(bad);
      expect(response.status, bad).toBe(422);
      expect(response.body.message).toMatch(/This link is not valid/);
    }
    // A well-signed token that was never issued (e.g. from a database restored without it) is unknown too.
    await t.ctx.db.delete(clientAvailabilityRequests).where(eq(clientAvailabilityRequests.client_id, acme.clientIds[0]));
    expect((await read(token)).status).toBe(422);
    expect((await t.request('GET', '/api/public/availability')).status).toBe(422);
  });

  it('validates the availability like the staff editor (422) and keeps the link usable after a refused save', async () => {
    const token = await requestLink(acme, acme.clientIds[0], 'cora@acme.example');
    const unknownDay = await save(token, [{ dow: 9 }]);
    expect(unknownDay.status).toBe(422);
    expect(unknownDay.body.message).toMatch(/availability\[0\]\.dow must be <= 6/);
    const badSlot = await save(token, [{ dow: 1, hours: ['07:00-08:00'] }]);
    expect(badSlot.status).toBe(422);
    expect((await save(token, [{ dow: 1 }, { dow: 1 }])).body.message).toMatch(/repeats Monday/);
    expect((await read(token)).status).toBe(200);
  });

  it('rate-limits each address (10 saves a minute) with 429', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 11; attempt++) statuses.push((await save('nope', [], '203.0.113.7')).status);
    expect(statuses.slice(0, 10).every((status) => status === 422)).toBe(true);
    expect(statuses[10]).toBe(429);
    expect((await save('nope', [], '203.0.113.8')).status).toBe(422);
  });
});
