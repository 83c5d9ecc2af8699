import { and, desc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appointments, clients, clientTags, outboxEmails, tags, versions } from '../../server/src/db/schema';
import { clientAvailabilityRequests } from '../../server/src/db/schema-clients';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';

let t: TestApp;
let acme: BusinessFixture;
let other: BusinessFixture;
const roles = ['admin', 'staff', 'practitioner'] as const;

beforeAll(async () => {
  t = await startTestApp({ publicUrl: 'https://rounds.example' });
  acme = await createBusinessFixture(t, 'acme');
  other = await createBusinessFixture(t, 'other');
  // A few more acme clients to search, sort and page through.
  const extra = await t.ctx.db.insert(clients).values([
    { business_account_id: acme.businessAccountId, first_name: 'Zelda', last_name: 'Nguyen', email: 'zelda@example.com', city: 'Toowong', address_1: '3 High St', phone_numbers: [{ number: '0412 345 678', phone_type: 'Mobile' }] },
    { business_account_id: acme.businessAccountId, first_name: 'Albert', last_name: '50%_Off', city: 'Ascot', phone_numbers: [{ number: '07 3333 1111' }] },
    { business_account_id: acme.businessAccountId, first_name: 'Brenda', last_name: 'Smith', email: 'brenda@example.com', address_1: '9 Long Rd', city: '' },
  ]).returning();
  await t.ctx.db.insert(clientTags).values({ client_id: extra[0].id, tag_id: acme.tagIds[0] });
});
afterAll(() => t.close());

const list = (query: string, token = acme.tokens.staff) => t.request('GET', `/api/clients${query}`, { token });

describe('GET /api/clients', () => {
  it('answers admins and regular users with a first page of every client sorted by name and the total', async () => {
    for (const role of ['admin', 'staff'] as const) {
      const response = await list('', acme.tokens[role]);
      expect(response.status).toBe(200);
      expect(response.body.meta).toEqual({ page: 1, per_page: 10, total: 5 });
      expect(response.body.clients.map((c: { first_name: string }) => c.first_name)).toEqual(['Albert', 'Brenda', 'Cora', 'Dale', 'Zelda']);
    }
  });

  it('describes each row: suburb, first phone, tags, custom availability and whether the address is complete', async () => {
    const { body } = await list('?q=zelda');
    expect(body.clients).toEqual([{
      id: expect.any(Number), full_name: 'Zelda Nguyen', first_name: 'Zelda', last_name: 'Nguyen', suburb: 'Toowong',
      phone: '0412 345 678', email: 'zelda@example.com', tags: [{ id: acme.tagIds[0], name: 'High needs', color: '#ef4444' }],
      has_custom_availability: false, has_address: true,
    }]);
    const cora = (await list('?q=cora')).body.clients[0];
    expect(cora).toMatchObject({ has_custom_availability: true, has_address: true, suburb: 'New Farm' });
    const brenda = (await list('?q=brenda')).body.clients[0];
    expect(brenda.has_address).toBe(false); // address_1 without a city does not count
  });

  it('searches name, email, suburb and phone; every word must match; digits match however spaced', async () => {
    const names = async (q: string) => (await list(`?q=${encodeURIComponent(q)}`)).body.clients.map((c: { first_name: string }) => c.first_name);
    expect(await names('NGUY')).toEqual(['Zelda']);
    expect(await names('brenda@example')).toEqual(['Brenda']);
    expect(await names('toowong')).toEqual(['Zelda']);
    expect(await names('new farm')).toEqual(['Cora']);
    expect(await names('0412345')).toEqual(['Zelda']);
    expect(await names('3333 1111')).toEqual(['Albert']);
    expect(await names('cora dale')).toEqual([]);
    expect(await names('acme-client')).toEqual(['Cora', 'Dale']);
    // LIKE wildcards are literal
    expect(await names('50%_')).toEqual(['Albert']);
    expect(await names('%')).toEqual(['Albert']);
  });

  it('pages, sorts in both directions and filters by tag and missing address', async () => {
    await t.ctx.db.insert(clients).values(['F', 'B', 'E', 'A', 'D', 'C', 'G'].map((letter) => (
      { business_account_id: acme.businessAccountId, first_name: `Pager ${letter}`, last_name: 'Paged' })));
    const page2 = await list('?q=paged&per_page=5&page=2');
    expect(page2.body.meta).toEqual({ page: 2, per_page: 5, total: 7 });
    expect(page2.body.clients.map((c: { first_name: string }) => c.first_name)).toEqual(['Pager F', 'Pager G']);
    const page1 = await list('?q=paged&per_page=5&page=1&direction=desc');
    expect(page1.body.clients.map((c: { first_name: string }) => c.first_name)).toEqual(['Pager G', 'Pager F', 'Pager E', 'Pager D', 'Pager C']);
    await t.ctx.db.delete(clients).where(eq(clients.last_name, 'Paged'));
    const beyond = await list('?per_page=5&page=9');
    expect(beyond.body).toEqual({ clients: [], meta: { page: 9, per_page: 5, total: 5 } });
    const desc = await list('?sort=name&direction=desc');
    expect(desc.body.clients[0].first_name).toBe('Zelda');
    const bySuburb = await list('?sort=suburb');
    expect(bySuburb.body.clients.map((c: { suburb: string | null }) => c.suburb)).toEqual(['', 'Ascot', 'New Farm', 'Toowong', null]);
    const tagged = await list(`?tag_id=${acme.tagIds[0]}`);
    expect(tagged.body.clients.map((c: { first_name: string }) => c.first_name)).toEqual(['Zelda']);
    const missing = await list('?missing_address=true');
    expect(missing.body.clients.map((c: { first_name: string }) => c.first_name)).toEqual(['Albert', 'Brenda', 'Dale']);
    const withAvailabilityFirst = await list('?sort=has_custom_availability&direction=desc');
    expect(withAvailabilityFirst.body.clients[0].first_name).toBe('Cora');
  });

  it('never shows another business’s clients, even when filtering by its tag', async () => {
    expect((await list('?q=other-client')).body.meta.total).toBe(0);
    expect((await list(`?tag_id=${other.tagIds[0]}`)).body.meta.total).toBe(0);
  });

  it('rejects bad paging and sorting with 422 naming the field', async () => {
    const perPage = await list('?per_page=7');
    expect(perPage.status).toBe(422);
    expect(perPage.body.message).toContain('per_page must be one of 5, 10, 20, 50');
    expect((await list('?page=0')).status).toBe(422);
    const sort = await list('?sort=password');
    expect(sort.status).toBe(422);
    expect(sort.body.message).toContain('sort');
    expect((await list('?q=' + 'x'.repeat(101))).status).toBe(422);
  });

  it('answers a repeated page from memory, but never one older than the data', async () => {
    const zelda = async () => (await list('?q=zelda')).body.clients[0];
    const first = await zelda();
    expect(await zelda()).toEqual(first);
    const [keySafe] = await t.ctx.db.insert(tags).values({ business_account_id: acme.businessAccountId, name: 'Key safe' }).returning();
    // Through the API: Zelda's tags replaced.
    const tagged = await t.request('PUT', `/api/clients/${first.id}/update_tags`, { token: acme.tokens.admin, body: { tag_ids: [keySafe.id] } });
    expect(tagged.status).toBe(200);
    expect((await zelda()).tags.map((tag: { name: string }) => tag.name)).toEqual(['Key safe']);
    // Straight in the database, as an import or another process would: the tag renamed, the client's city changed.
    await t.ctx.db.update(tags).set({ name: 'Key safe (front door)' }).where(eq(tags.id, keySafe.id));
    expect((await zelda()).tags.map((tag: { name: string }) => tag.name)).toEqual(['Key safe (front door)']);
    await t.ctx.db.update(clients).set({ city: 'Auchenflower' }).where(eq(clients.id, first.id));
    expect((await zelda()).suburb).toBe('Auchenflower');
    await t.ctx.db.update(clients).set({ city: first.suburb }).where(eq(clients.id, first.id));
    await t.request('PUT', `/api/clients/${first.id}/update_tags`, { token: acme.tokens.admin, body: { tag_ids: first.tags.map((tag: { id: number }) => tag.id) } });
    expect(await zelda()).toEqual(first);
  });

  it('requires a session', async () => {
    expect((await t.request('GET', '/api/clients')).status).toBe(401);
  });
});

describe('a practitioner', () => {
  // Cora is visited by the practitioner's own practitioner (fixture appointments), Dale only by the other one.
  const cora = () => acme.clientIds[0];
  const dale = () => acme.clientIds[1];
  const as = (method: string, url: string, body?: unknown) => t.request(method, url, { token: acme.tokens.practitioner, body });

  it('lists and finds only the clients their practitioners visit', async () => {
    const all = await list('', acme.tokens.practitioner);
    expect(all.body).toMatchObject({ meta: { total: 1 } });
    expect(all.body.clients.map((c: { id: number }) => c.id)).toEqual([cora()]);
    expect((await list('?q=dale', acme.tokens.practitioner)).body.meta.total).toBe(0);
    expect((await list('?missing_address=true', acme.tokens.practitioner)).body.meta.total).toBe(0);
  });

  it('gets 404 for any other client, as for another business’s, and changes nothing of it', async () => {
    const before = (await t.request('GET', `/api/clients/${dale()}`, { token: acme.tokens.admin })).body.client;
    await t.ctx.db.update(clients).set({ email: 'dale@example.com' }).where(eq(clients.id, dale()));
    const sentBefore = (await t.ctx.db.select().from(outboxEmails).where(eq(outboxEmails.to_address, 'dale@example.com'))).length;
    const calls = [
      as('GET', `/api/clients/${dale()}`),
      as('PUT', `/api/clients/${dale()}/update_availability`, { availability: [] }),
      as('PUT', `/api/clients/${dale()}/update_tags`, { tag_ids: [acme.tagIds[0]] }),
      as('POST', `/api/clients/${dale()}/send_availability_request`),
    ];
    for (const response of await Promise.all(calls)) {
      expect(response.status).toBe(404);
      expect(response.body.message).toBe('Client not found.');
    }
    const after = (await t.request('GET', `/api/clients/${dale()}`, { token: acme.tokens.admin })).body.client;
    expect(after).toMatchObject({ availability: before.availability, tags: before.tags });
    expect(await t.ctx.db.select().from(outboxEmails).where(eq(outboxEmails.to_address, 'dale@example.com'))).toHaveLength(sentBefore);
    await t.ctx.db.update(clients).set({ email: null }).where(eq(clients.id, dale()));
    expect((await as('GET', `/api/clients/${cora()}`)).status).toBe(200);
  });

  it('sees a client visited in the past 90 days or in the future, not one last visited earlier', async () => {
    const [recent, old] = await t.ctx.db.insert(clients).values([
      { business_account_id: acme.businessAccountId, first_name: 'Recent', last_name: 'Visit' },
      { business_account_id: acme.businessAccountId, first_name: 'Old', last_name: 'Visit' },
    ]).returning();
    const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);
    const visit = (clientId: number, practitionerId: number, at: Date) => ({
      business_account_id: acme.businessAccountId, client_id: clientId, practitioner_id: practitionerId,
      starts_at: at, ends_at: new Date(at.getTime() + 3600_000), arrive_at: at,
    });
    await t.ctx.db.insert(appointments).values([
      visit(recent.id, acme.ownPractitionerId, daysAgo(80)),
      visit(old.id, acme.ownPractitionerId, daysAgo(100)),
      visit(old.id, acme.practitionerIds[1], daysAgo(1)), // visited recently, but by someone else
    ]);
    const names = (await list('?q=visit', acme.tokens.practitioner)).body.clients.map((c: { first_name: string }) => c.first_name);
    expect(names).toEqual(['Recent']);
    expect((await as('GET', `/api/clients/${recent.id}`)).status).toBe(200);
    expect((await as('GET', `/api/clients/${old.id}`)).status).toBe(404);
    expect((await list('?q=visit', acme.tokens.staff)).body.meta.total).toBe(2);
    await t.ctx.db.delete(appointments).where(inArray(appointments.client_id, [recent.id, old.id]));
    await t.ctx.db.delete(clients).where(inArray(clients.id, [recent.id, old.id]));
  });
});

describe('GET /api/clients/{id}', () => {
  it('returns the client with location, tags and availability to every role', async () => {
    for (const role of roles) {
      const response = await t.request('GET', `/api/clients/${acme.clientIds[0]}`, { token: acme.tokens[role] });
      expect(response.status).toBe(200);
      expect(response.body.client).toMatchObject({
        id: acme.clientIds[0], full_name: 'Cora acme-Client', time_zone: 'Australia/Brisbane',
        location: { address_1: '12 Merthyr Road', city: 'New Farm', state: 'QLD', post_code: '4005' },
        availability: [{ dow: 1, hours: ['09:00-12:00'] }], lat: -27.467, lng: 153.047, tags: [],
      });
    }
  });

  it('answers 404 for another business’s client and for a missing id', async () => {
    expect((await t.request('GET', `/api/clients/${other.clientIds[0]}`, { token: acme.tokens.admin })).status).toBe(404);
    const missing = await t.request('GET', '/api/clients/999999', { token: acme.tokens.admin });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Client not found.');
  });
});

describe('PUT /api/clients/{id}/update_availability', () => {
  const url = () => `/api/clients/${acme.clientIds[1]}/update_availability`;

  it('stores the availability normalised (days in order, all-day without hours) and records who changed it', async () => {
    const response = await t.request('PUT', url(), {
      token: acme.tokens.staff,
      body: { availability: [{ dow: 5, hours: ['15:00-18:00', '06:00-09:00'] }, { dow: 1 }, { dow: 3 }] },
    });
    expect(response.status).toBe(200);
    expect(response.body.client.availability).toEqual([{ dow: 1 }, { dow: 3 }, { dow: 5, hours: ['06:00-09:00', '15:00-18:00'] }]);
    const [version] = await t.ctx.db.select().from(versions)
      .where(and(eq(versions.item_type, 'Client'), eq(versions.item_id, acme.clientIds[1]))).orderBy(desc(versions.id)).limit(1);
    expect(version).toMatchObject({ event: 'update', whodunnit: 'Sid', object_changes: { availability: [[], response.body.client.availability] } });
  });

  it('an empty list switches custom availability off', async () => {
    const response = await t.request('PUT', url(), { token: acme.tokens.staff, body: { availability: [] } });
    expect(response.status).toBe(200);
    expect(response.body.client.availability).toEqual([]);
    expect((await list('?q=dale')).body.clients[0].has_custom_availability).toBe(false);
  });

  it('rejects an unknown dow, a malformed slot, a repeated day and extra fields with 422 and a message', async () => {
    const cases: [unknown, RegExp][] = [
      [[{ dow: 7 }], /availability\[0\]\.dow must be <= 6/],
      [[{ dow: 'monday' }], /availability\[0\]\.dow must be integer/],
      [[{ dow: 1, hours: ['9-5'] }], /availability\[0\]\.hours\[0\] must be one of 06:00-09:00/],
      [[{ dow: 1, hours: ['06:00-09:00', '06:00-09:00'] }], /availability\[0\]\.hours/],
      [[{ dow: 2 }, { dow: 2, hours: ['06:00-09:00'] }], /availability\[1\]\.dow repeats Tuesday/],
      [[{ dow: 1, hours: [] }], /gives Monday no time slot; choose at least one, or leave hours out for all day/],
      [[{ dow: 2, note: 'x' }], /availability\[0\]\.note is not an allowed field/],
    ];
    for (const [availability, message] of cases) {
      const response = await t.request('PUT', url(), { token: acme.tokens.admin, body: { availability } });
      expect(response.status, JSON.stringify(availability)).toBe(422);
      expect(response.body.message).toMatch(message);
    }
    expect((await t.request('PUT', url(), { token: acme.tokens.admin, body: {} })).body.message).toContain('availability is required');
  });

  it('answers 404 across businesses and changes nothing there', async () => {
    const response = await t.request('PUT', `/api/clients/${other.clientIds[0]}/update_availability`, { token: acme.tokens.admin, body: { availability: [] } });
    expect(response.status).toBe(404);
    const [row] = await t.ctx.db.select().from(clients).where(eq(clients.id, other.clientIds[0]));
    expect(row.availability).toEqual([{ dow: 1, hours: ['09:00-12:00'] }]);
  });
});

describe('PUT /api/clients/{id}/update_tags', () => {
  it('replaces the tags, returns them, and records tag_ids old → new', async () => {
    const [second] = await t.ctx.db.insert(tags).values({ business_account_id: acme.businessAccountId, name: 'Aaa first' }).returning();
    const url = `/api/clients/${acme.clientIds[0]}/update_tags`;
    const response = await t.request('PUT', url, { token: acme.tokens.practitioner, body: { tag_ids: [acme.tagIds[0], second.id, second.id] } });
    expect(response.status).toBe(200);
    expect(response.body.tags).toEqual([
      { id: second.id, name: 'Aaa first', color: '#000000' },
      { id: acme.tagIds[0], name: 'High needs', color: '#ef4444' },
    ]);
    const cleared = await t.request('PUT', url, { token: acme.tokens.staff, body: { tag_ids: [] } });
    expect(cleared.body.tags).toEqual([]);
    const log = await t.ctx.db.select().from(versions).where(and(eq(versions.item_type, 'Client'), eq(versions.item_id, acme.clientIds[0]))).orderBy(versions.id);
    const ids = [acme.tagIds[0], second.id].sort((a, b) => a - b);
    expect(log.map((v) => [v.whodunnit, v.object_changes])).toEqual([['Pat', { tag_ids: [[], ids] }], ['Sid', { tag_ids: [ids, []] }]]);
  });

  it('refuses another business’s tag with 422 and another business’s client with 404', async () => {
    const foreignTag = await t.request('PUT', `/api/clients/${acme.clientIds[0]}/update_tags`, { token: acme.tokens.admin, body: { tag_ids: [other.tagIds[0]] } });
    expect(foreignTag.status).toBe(422);
    expect(foreignTag.body.message).toBe(`tag_ids: no tag with id ${other.tagIds[0]}.`);
    const foreignClient = await t.request('PUT', `/api/clients/${other.clientIds[0]}/update_tags`, { token: acme.tokens.admin, body: { tag_ids: [] } });
    expect(foreignClient.status).toBe(404);
    const bad = await t.request('PUT', `/api/clients/${acme.clientIds[0]}/update_tags`, { token: acme.tokens.admin, body: { tag_ids: ['x'] } });
    expect(bad.status).toBe(422);
  });
});

describe('POST /api/clients/{id}/send_availability_request', () => {
  it('emails a link to the public page and stores only the token hash', async () => {
    await t.ctx.db.update(clients).set({ email: 'cora@example.com' }).where(eq(clients.id, acme.clientIds[0]));
    for (const role of roles) {
      const response = await t.request('POST', `/api/clients/${acme.clientIds[0]}/send_availability_request`, { token: acme.tokens[role] });
      expect(response.status).toBe(202);
      expect(response.body).toEqual({ message: 'The availability request has been scheduled to send to client.' });
    }
    const [email] = await t.ctx.db.select().from(outboxEmails).where(eq(outboxEmails.to_address, 'cora@example.com')).orderBy(desc(outboxEmails.id)).limit(1);
    const token = decodeURIComponent(/update-availability\?token=(\S+)/.exec(email.text_body)![1]);
    expect(email.text_body).toContain('https://rounds.example/client/update-availability?token=');
    expect(email.text_body).toContain('Hello Cora');
    const requests = await t.ctx.db.select().from(clientAvailabilityRequests).where(eq(clientAvailabilityRequests.client_id, acme.clientIds[0]));
    expect(requests).toHaveLength(3);
    expect(requests.some((row) => row.token_hash.includes(token) || token.includes(row.token_hash))).toBe(false);
    const days = (requests[0].expires_at.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);
  });

  it('sends at most 3 per client and business day, counted from the stored requests, then 429 saying when', async () => {
    // Cora was sent 3 today by the test above.
    const refused = await t.request('POST', `/api/clients/${acme.clientIds[0]}/send_availability_request`, { token: acme.tokens.staff });
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(/^Cora acme-Client has already been sent 3 availability requests today\. You can send another from tomorrow, \w+day \d+ \w+ \(Australia\/Brisbane time\)\.$/);
    const stored = () => t.ctx.db.select().from(clientAvailabilityRequests).where(eq(clientAvailabilityRequests.client_id, acme.clientIds[0]));
    expect(await stored()).toHaveLength(3);
    // Requests raced from several callers (or processes) never exceed the limit: Zelda gets exactly 3.
    const [zelda] = await t.ctx.db.select().from(clients).where(eq(clients.first_name, 'Zelda'));
    const raced = await Promise.all(Array.from({ length: 5 }, (_, i) => t.request('POST', `/api/clients/${zelda.id}/send_availability_request`, { token: i % 2 ? acme.tokens.admin : acme.tokens.staff })));
    expect(raced.map((r) => r.status).sort()).toEqual([202, 202, 202, 429, 429]);
    // The next business day the count starts again: yesterday's requests do not count.
    await t.ctx.db.update(clientAvailabilityRequests).set({ created_at: new Date(Date.now() - 86_400_000) })
      .where(eq(clientAvailabilityRequests.client_id, acme.clientIds[0]));
    expect((await t.request('POST', `/api/clients/${acme.clientIds[0]}/send_availability_request`, { token: acme.tokens.staff })).status).toBe(202);
  });

  it('answers 422 when the client has no email, 404 across businesses', async () => {
    const none = await t.request('POST', `/api/clients/${acme.clientIds[1]}/send_availability_request`, { token: acme.tokens.admin });
    expect(none.status).toBe(422);
    expect(none.body.message).toBe('This client has no email address.');
    expect((await t.request('POST', `/api/clients/${other.clientIds[0]}/send_availability_request`, { token: acme.tokens.admin })).status).toBe(404);
  });
});
