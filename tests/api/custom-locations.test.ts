// Custom locations (issue 12): an admin creates, renames, moves and deletes places that are neither clients nor
// business locations; one a practitioner's day starts or ends at cannot be deleted; every change is in the change log;
// other roles get 403, another business's ids 404, bad input 422 naming the field. Business locations as places.
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessLocations, versions } from '../../server/src/db/schema';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';

let t: TestApp;
let acme: BusinessFixture;
let other: BusinessFixture;

beforeAll(async () => {
  t = await startTestApp();
  acme = await createBusinessFixture(t, 'acme');
  other = await createBusinessFixture(t, 'other');
});
afterAll(() => t?.close());

const list = async (token = acme.tokens.admin) => {
  const response = await t.request('GET', '/api/custom_locations', { token });
  expect(response.status).toBe(200);
  return response.body.custom_locations as any[];
};
const versionsOf = (id: number) => t.ctx.db.select().from(versions)
  .where(and(eq(versions.item_type, 'CustomLocation'), eq(versions.item_id, id))).orderBy(asc(versions.id));
const DEPOT = { name: '  Fleet car park ', address: '20 Mayne Road, Bowen Hills QLD 4006', lat: -27.4432, lng: 153.0361 };

describe('custom locations', () => {
  let id: number;

  it('an admin creates one (201), sees it in the list with who uses it, and the change log says who', async () => {
    const created = await t.request('POST', '/api/custom_locations', { token: acme.tokens.admin, body: DEPOT });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    id = created.body.custom_location.id;
    // Without a precision and source it is a pin placed by hand.
    expect(created.body.custom_location).toEqual({
      id, name: 'Fleet car park', address: DEPOT.address, lat: DEPOT.lat, lng: DEPOT.lng, geo_precision: 'address', geo_source: 'manual', used_by: [],
    });
    expect((await list()).map((l) => l.name).sort()).toEqual(['Fleet car park', 'acme depot']);
    const [version] = await versionsOf(id);
    expect(version).toMatchObject({
      event: 'create', whodunnit: 'Ada acme',
      object_changes: { name: [null, 'Fleet car park'], address: [null, DEPOT.address], lat: [null, DEPOT.lat], lng: [null, DEPOT.lng] },
    });
  });

  it('renames it, moves its pin and changes its address, recording old → new', async () => {
    const renamed = await t.request('PATCH', `/api/custom_locations/${id}`, { token: acme.tokens.admin, body: { name: 'Staff car park' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.custom_location).toMatchObject({ name: 'Staff car park', lat: DEPOT.lat, lng: DEPOT.lng });
    const moved = await t.request('PATCH', `/api/custom_locations/${id}`, {
      token: acme.tokens.admin, body: { lat: -27.45, lng: 153.04, address: '22 Mayne Road, Bowen Hills QLD 4006' },
    });
    expect(moved.status).toBe(200);
    expect(moved.body.custom_location).toMatchObject({ name: 'Staff car park', address: '22 Mayne Road, Bowen Hills QLD 4006', lat: -27.45, lng: 153.04 });
    const rows = await versionsOf(id);
    expect(rows.slice(1).map((row) => row.object_changes)).toEqual([
      { name: ['Fleet car park', 'Staff car park'] },
      { address: [DEPOT.address, '22 Mayne Road, Bowen Hills QLD 4006'], lat: [DEPOT.lat, -27.45], lng: [DEPOT.lng, 153.04] },
    ]);
  });

  it('keeps how precisely a looked-up pin was found, until the pin is moved by hand', async () => {
    const found = { name: 'Suburb depot', address: 'Chermside QLD 4032', lat: -27.385, lng: 153.031, precision: 'suburb', source: 'gazetteer' };
    const created = await t.request('POST', '/api/custom_locations', { token: acme.tokens.admin, body: found });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const depot = created.body.custom_location;
    expect(depot).toMatchObject({ lat: found.lat, lng: found.lng, geo_precision: 'suburb', geo_source: 'gazetteer' });
    expect((await list()).find((l) => l.id === depot.id)).toMatchObject({ geo_precision: 'suburb', geo_source: 'gazetteer' });
    // Renaming leaves the pin and its precision alone; dragging the pin places it by hand.
    const renamed = await t.request('PATCH', `/api/custom_locations/${depot.id}`, { token: acme.tokens.admin, body: { name: 'North depot' } });
    expect(renamed.body.custom_location).toMatchObject({ geo_precision: 'suburb', geo_source: 'gazetteer' });
    const dragged = await t.request('PATCH', `/api/custom_locations/${depot.id}`, { token: acme.tokens.admin, body: { lat: -27.3861, lng: 153.0322 } });
    expect(dragged.body.custom_location).toMatchObject({ lat: -27.3861, geo_precision: 'address', geo_source: 'manual' });
    expect((await versionsOf(depot.id)).at(-1)!.object_changes).toEqual({
      lat: [found.lat, -27.3861], lng: [found.lng, 153.0322], geo_precision: ['suburb', 'address'], geo_source: ['gazetteer', 'manual'],
    });
    const refused = await t.request('PATCH', `/api/custom_locations/${depot.id}`, { token: acme.tokens.admin, body: { precision: 'street', source: 'google' } });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toMatch(/^precision is only taken with lat and lng/);
    await t.request('DELETE', `/api/custom_locations/${depot.id}`, { token: acme.tokens.admin });
  });

  it('refuses bad input with 422 naming the field, changing nothing', async () => {
    const before = await list();
    const cases: [string, string, unknown, RegExp][] = [
      ['POST', '/api/custom_locations', { name: '', lat: -27, lng: 153 }, /name/],
      ['POST', '/api/custom_locations', { name: '   ', lat: -27, lng: 153 }, /name must not be blank/],
      ['POST', '/api/custom_locations', { name: 'x'.repeat(121), lat: -27, lng: 153 }, /name/],
      ['POST', '/api/custom_locations', { name: 'Depot', lat: -91, lng: 153 }, /lat/],
      ['POST', '/api/custom_locations', { name: 'Depot', lat: -27 }, /lng is required/],
      ['POST', '/api/custom_locations', { name: 'Depot', lat: '-27', lng: 153 }, /lat must be number/],
      ['POST', '/api/custom_locations', { name: 'Depot', lat: -27, lng: 153, colour: 'red' }, /colour is not an allowed field/],
      ['POST', '/api/custom_locations', { name: 'Depot', lat: -27, lng: 153, precision: 'none' }, /precision/],
      ['PATCH', `/api/custom_locations/${id}`, { lat: -27.1 }, /lng is required with lat/],
      ['PATCH', `/api/custom_locations/${id}`, { lng: 181, lat: 0 }, /lng/],
      ['PATCH', `/api/custom_locations/${id}`, { name: ' ' }, /name must not be blank/],
      ['PATCH', `/api/custom_locations/${id}`, {}, /body/],
    ];
    for (const [method, url, body, message] of cases) {
      const response = await t.request(method, url, { token: acme.tokens.admin, body });
      expect(response.status, `${method} ${JSON.stringify(body)}`).toBe(422);
      expect(response.body.message).toMatch(message);
    }
    expect(await list()).toEqual(before);
  });

  it('refuses a name the business already has, case aside, with 409 — while another business may use it', async () => {
    const before = await list();
    const taken = await t.request('POST', '/api/custom_locations', { token: acme.tokens.admin, body: { ...DEPOT, name: ' staff CAR park' } });
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ message: 'A custom location named "staff CAR park" already exists.', code: 'CUSTOM_LOCATION_NAME_TAKEN' });
    const renamed = await t.request('PATCH', `/api/custom_locations/${id}`, { token: acme.tokens.admin, body: { name: 'ACME depot', address: 'Elsewhere' } });
    expect(renamed.status).toBe(409);
    expect(renamed.body.message).toBe('A custom location named "ACME depot" already exists.');
    expect(await list()).toEqual(before);
    const elsewhere = await t.request('POST', '/api/custom_locations', { token: other.tokens.admin, body: { ...DEPOT, name: 'Staff car park' } });
    expect(elsewhere.status).toBe(201);
    await t.request('DELETE', `/api/custom_locations/${elsewhere.body.custom_location.id}`, { token: other.tokens.admin });
  });

  it('cannot be deleted while a practitioner starts or ends there: 409 naming them', async () => {
    const [pat, quinn] = acme.practitionerIds;
    for (const [practitioner, body] of [
      [pat, { start_place: { kind: 'custom_location', id } }],
      [quinn, { start_place: { kind: 'business_location', id: acme.businessLocationIds[0] }, end_place: { kind: 'custom_location', id } }],
    ] as const) {
      const response = await t.request('PATCH', `/api/practitioners/${practitioner}`, { token: acme.tokens.admin, body });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
    }
    expect((await list()).find((l) => l.id === id).used_by).toEqual([
      { id: pat, full_name: 'Pat acme-One' }, { id: quinn, full_name: 'Quinn acme-Two' },
    ]);
    const refused = await t.request('DELETE', `/api/custom_locations/${id}`, { token: acme.tokens.admin });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      code: 'CUSTOM_LOCATION_IN_USE',
      message: '"Staff car park" is the start or end place of Pat acme-One and Quinn acme-Two. Choose another place for each of them first.',
    });
    expect((await list()).some((l) => l.id === id)).toBe(true);

    // Moving it moves their place too.
    await t.request('PATCH', `/api/custom_locations/${id}`, { token: acme.tokens.admin, body: { lat: -27.46, lng: 153.03 } });
    const shown = (await t.request('GET', '/api/practitioners', { token: acme.tokens.admin })).body.practitioners.find((p: { id: number }) => p.id === pat);
    expect(shown.start_place).toMatchObject({ kind: 'custom_location', id, name: 'Staff car park', lat: -27.46, lng: 153.03 });
  });

  it('is deleted (204) once nobody uses it, with a version', async () => {
    const [pat, quinn] = acme.practitionerIds;
    await t.request('PATCH', `/api/practitioners/${pat}`, { token: acme.tokens.admin, body: { start_place: null } });
    await t.request('PATCH', `/api/practitioners/${quinn}`, { token: acme.tokens.admin, body: { end_place: null } });
    const deleted = await t.request('DELETE', `/api/custom_locations/${id}`, { token: acme.tokens.admin });
    expect(deleted.status).toBe(204);
    expect((await list()).some((l) => l.id === id)).toBe(false);
    expect((await versionsOf(id)).at(-1)).toMatchObject({ event: 'destroy', whodunnit: 'Ada acme', object_changes: { name: ['Staff car park', null] } });
    expect((await t.request('DELETE', `/api/custom_locations/${id}`, { token: acme.tokens.admin })).status).toBe(404);
  });

  // The other roles' 403 is asserted, for every operation, by permissions.test.ts.
  it('answers 404 for another business’s location, changing nothing', async () => {
    const theirs = other.customLocationIds[0];
    expect((await t.request('PATCH', `/api/custom_locations/${theirs}`, { token: acme.tokens.admin, body: { name: 'Mine now' } })).status).toBe(404);
    expect((await t.request('DELETE', `/api/custom_locations/${theirs}`, { token: acme.tokens.admin })).status).toBe(404);
    expect((await list()).map((l) => l.id)).not.toContain(theirs);
    expect(await list(other.tokens.admin)).toEqual([
      { id: theirs, name: 'other depot', address: '1 Depot Lane, Bowen Hills QLD 4006', lat: -27.4445, lng: 153.0375, geo_precision: 'address', geo_source: 'manual', used_by: [] },
    ]);
    expect(await versionsOf(theirs)).toHaveLength(0);
  });
});

describe('business locations as places', () => {
  it('lists every imported location with its address on one line and its coordinates, with their precision and source', async () => {
    await t.ctx.db.insert(businessLocations).values({
      business_account_id: acme.businessAccountId, name: 'Chermside hub', address_1: '1 Hamilton Road', address_2: 'Level 2',
      city: 'Chermside', state: 'QLD', post_code: '4032', country: 'Australia', lat: -27.385, lng: 153.031,
      geo_precision: 'address', geo_source: 'pms',
    });
    const response = await t.request('GET', '/api/business_locations/all', { token: acme.tokens.admin });
    expect(response.status).toBe(200);
    // By name, in the database's collation; compared here in id order.
    expect([...response.body.business_locations].sort((a, b) => a.id - b.id)).toEqual([
      {
        id: acme.businessLocationIds[0], name: 'acme office', address_1: null, address_2: null, city: 'Brisbane City', state: null,
        post_code: null, country: null, address: 'Brisbane City', lat: -27.4698, lng: 153.0251, geo_precision: 'suburb', geo_source: 'gazetteer',
      },
      {
        id: expect.any(Number), name: 'Chermside hub', address_1: '1 Hamilton Road', address_2: 'Level 2', city: 'Chermside', state: 'QLD',
        post_code: '4032', country: 'Australia', address: '1 Hamilton Road, Level 2, Chermside QLD 4032', lat: -27.385, lng: 153.031,
        geo_precision: 'address', geo_source: 'pms',
      },
    ]);
  });
});
