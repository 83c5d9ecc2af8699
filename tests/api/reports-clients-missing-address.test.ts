// Clients missing address (issue 13): the clients who cannot be routed well (incomplete address, no point, a point
// only as precise as the suburb) with their next visit, on a hand-checked set of clients; the date range taken in the
// business's time zone; visit filters; ADMIN only; never another business's clients; bad ranges → 422 naming the field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appointments, clients } from '../../server/src/db/schema';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';

let t: TestApp;
let acme: BusinessFixture;
let other: BusinessFixture;
const ids: Record<'eve' | 'fay' | 'gus', number> = { eve: 0, fay: 0, gus: 0 };
let eveVisit: number;

const report = (query = '', token = acme.tokens.admin) => t.request('GET', `/api/reports/clients-missing-address${query}`, { token });
const names = (body: any) => body.rows.map((row: any) => row.client_name);

beforeAll(async () => {
  t = await startTestApp();
  acme = await createBusinessFixture(t, 'acme');
  other = await createBusinessFixture(t, 'other');
  const base = { business_account_id: acme.businessAccountId, time_zone: 'Australia/Brisbane' };
  const [eve, fay, gus] = await t.ctx.db.insert(clients).values([
    // A street but no suburb: incomplete, though it has a point.
    { ...base, first_name: 'Eve', last_name: 'Adams', address_1: '5 Ann Street', lat: -27.46, lng: 153.03, geo_precision: 'street', geo_source: 'pms' },
    { ...base, first_name: 'Fay', last_name: 'Baker', address_1: '2 Racecourse Road', city: 'Ascot', lat: -27.43, lng: 153.06, geo_precision: 'suburb', geo_source: 'gazetteer' },
    { ...base, first_name: 'Gus', last_name: 'Zed', address_1: '9 Long Road', city: 'Nowhere', geo_precision: 'none' },
  ]).returning();
  Object.assign(ids, { eve: eve.id, fay: fay.id, gus: gus.id });
  const [pat, quinn] = acme.practitionerIds;
  const visit = (clientId: number, practitionerId: number, startsAt: string, extra: Partial<typeof appointments.$inferInsert> = {}) => ({
    business_account_id: acme.businessAccountId, client_id: clientId, practitioner_id: practitionerId, appointment_type_id: acme.appointmentTypeIds[0],
    starts_at: new Date(startsAt), ends_at: new Date(Date.parse(startsAt) + 45 * 60_000), ...extra,
  });
  const rows = await t.ctx.db.insert(appointments).values([
    // Eve: 08:00 on Monday 4 March 2030 in Brisbane, which is still Sunday 3 March in UTC; a cancelled visit before it.
    visit(eve.id, pat, '2030-03-03T22:00:00Z'),
    visit(eve.id, quinn, '2030-03-01T00:00:00Z', { cancelled_at: new Date('2026-11-01T00:00:00Z') }),
    // Fay: 09:00 on Saturday 2 March 2030 in Brisbane, with Quinn, of the second type.
    visit(fay.id, quinn, '2030-03-01T23:00:00Z', { appointment_type_id: acme.appointmentTypeIds[1] }),
  ]).returning({ id: appointments.id });
  eveVisit = rows[0].id;
  // Another business's client with no address at all: never in acme's report.
  await t.ctx.db.insert(clients).values({ business_account_id: other.businessAccountId, first_name: 'Olga', last_name: 'Other' });
}, 120_000);
afterAll(() => t?.close());

describe('clients missing address', () => {
  it('lists each client with a problem, what is wrong and their next visit; visits first, by date, then by name', async () => {
    const response = await report();
    expect(response.status).toBe(200);
    // The fixture's Dale has no address and no point; his visits are in the past, so he has no next visit.
    expect(names(response.body)).toEqual(['Fay Baker', 'Eve Adams', 'Dale acme-Client', 'Gus Zed']);
    const [fay, eve, dale, gus] = response.body.rows;
    expect(fay).toEqual({
      client_id: ids.fay, client_name: 'Fay Baker', address: '2 Racecourse Road', city: 'Ascot', postcode: null, geo_precision: 'suburb',
      problems: ['approximate_point'],
      next_visit: { appointment_id: expect.any(Number), starts_at: '2030-03-01T23:00:00.000Z', practitioner_id: acme.practitionerIds[1], practitioner_name: 'Quinn acme-Two' },
    });
    expect(eve).toMatchObject({ problems: ['incomplete_address'], geo_precision: 'street', next_visit: { appointment_id: eveVisit, practitioner_name: 'Pat acme-One' } });
    expect(dale).toMatchObject({ problems: ['incomplete_address', 'no_point'], address: '', next_visit: null });
    expect(gus).toMatchObject({ problems: ['no_point'], geo_precision: 'none', next_visit: null });
    expect(response.body.summary).toEqual({ clients: 4, incomplete_address: 2, no_point: 2, approximate_point: 1 });
    // Cora has a full address with a precise point: never listed.
    expect(names(response.body)).not.toContain('Cora acme-Client');
  });

  it('with a date range keeps only clients with a visit in it that is not cancelled, counting days in the business time zone', async () => {
    expect(names((await report('?start_date=2030-03-01&end_date=2030-03-03')).body)).toEqual(['Fay Baker']);
    // Eve's visit is on 4 March in Brisbane, though 3 March in UTC.
    expect(names((await report('?start_date=2030-03-04&end_date=2030-03-04')).body)).toEqual(['Eve Adams']);
    const march = await report('?start_date=2030-03-01&end_date=2030-03-31');
    expect(names(march.body)).toEqual(['Fay Baker', 'Eve Adams']);
    expect(march.body.summary).toEqual({ clients: 2, incomplete_address: 1, no_point: 0, approximate_point: 1 });
  });

  it('counts only the visits of the chosen practitioners, appointment types and business locations', async () => {
    const [pat, quinn] = acme.practitionerIds;
    const march = '?start_date=2030-03-01&end_date=2030-03-31';
    expect(names((await report(`${march}&practitioner_ids=${pat}`)).body)).toEqual(['Eve Adams']);
    expect(names((await report(`${march}&practitioner_ids=${quinn}`)).body)).toEqual(['Fay Baker']);
    expect(names((await report(`${march}&appointment_type_ids=${acme.appointmentTypeIds[1]}`)).body)).toEqual(['Fay Baker']);
    expect(names((await report(`${march}&business_location_ids=${acme.businessLocationIds[0]}`)).body)).toEqual([]);
    // A visit filter without a range: clients with such a visit from today on.
    expect(names((await report(`?practitioner_ids=${quinn}`)).body)).toEqual(['Fay Baker']);
  });

  it('is for admins only, and shows each business only its own clients', async () => {
    expect((await report('', acme.tokens.staff)).status).toBe(403);
    expect((await report('', acme.tokens.practitioner)).status).toBe(403);
    expect((await t.request('GET', '/api/reports/clients-missing-address')).status).toBe(401);
    const theirs = await report('', other.tokens.admin);
    expect(names(theirs.body)).toEqual(['Olga Other', 'Dale other-Client']);
    expect(theirs.body.rows.every((row: any) => row.client_id !== ids.eve && row.client_id !== ids.fay && row.client_id !== ids.gus)).toBe(true);
    // Another business's practitioner as a filter finds nothing of acme's.
    expect(names((await report(`?practitioner_ids=${other.practitionerIds[0]}`)).body)).toEqual([]);
  });

  it('refuses a half or impossible range with a message naming the field', async () => {
    const cases: Array<[string, RegExp]> = [
      ['?start_date=2030-03-01', /end_date is required/],
      ['?end_date=2030-03-01', /start_date is required/],
      ['?start_date=2030-03-05&end_date=2030-03-01', /end_date must be on or after start_date/],
      ['?start_date=2030-01-01&end_date=2031-06-30', /limited to 366 days/],
      ['?start_date=2030-02-30&end_date=2030-03-01', /start_date/],
      ['?practitioner_ids=abc', /practitioner_ids/],
    ];
    for (const [query, message] of cases) {
      const response = await report(query);
      expect(response.status, query).toBe(422);
      expect(response.body.message, query).toMatch(message);
    }
  });
});
