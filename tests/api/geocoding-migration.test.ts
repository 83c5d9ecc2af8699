// Migration 0051 on a database that already has points: they all came from the synthetic Brisbane street list, so
// they become source 'sandbox', at 'suburb' precision on a suburb's centroid and 'street' elsewhere; no point → 'none'.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/src/db/client';
import { migrate } from '../../server/src/db/migrate';
import { geocodeBrisbaneAddress } from '../../server/src/geo/brisbane-gazetteer';
import { createTestDatabase, type TestDatabase } from './support/database';

let test: TestDatabase;
const street = geocodeBrisbaneAddress({ address_1: '12 Merthyr Road', city: 'New Farm' })!;
const suburb = geocodeBrisbaneAddress({ address_1: '5 Nowhere Lane', city: 'Toowong' })!;

beforeAll(async () => {
  test = await createTestDatabase({ migrateBefore: '0051' });
  const db = test.database.db;
  await db.execute(sql`INSERT INTO business_accounts (id, name) VALUES (1, 'Acme')`);
  await db.execute(sql`INSERT INTO clients (business_account_id, first_name, lat, lng) VALUES
    (1, 'Street', ${street.lat}, ${street.lng}), (1, 'Suburb', ${suburb.lat}, ${suburb.lng}), (1, 'Nowhere', NULL, NULL)`);
  await db.execute(sql`INSERT INTO business_locations (business_account_id, name, lat, lng) VALUES
    (1, 'Office', ${suburb.lat}, ${suburb.lng}), (1, 'Unplaced', NULL, NULL)`);
  await db.execute(sql`INSERT INTO practitioners (business_account_id, first_name, home_lat, home_lng) VALUES
    (1, 'Home', ${street.lat}, ${street.lng}), (1, 'Homeless', NULL, NULL)`);
  expect(await migrate(test.database)).toContain('0051_geocoding.sql');
}, 60_000);
afterAll(() => test?.drop());

describe('migration 0051', () => {
  it('gives existing points the synthetic list’s precision and source, and none to rows without a point', async () => {
    const db = test.database.db;
    expect(street.precision).toBe('street');
    expect(suburb.precision).toBe('suburb');
    expect(await queryRows(db, sql`SELECT first_name, geo_precision, geo_source, geo_manual FROM clients ORDER BY id`)).toEqual([
      { first_name: 'Street', geo_precision: 'street', geo_source: 'sandbox', geo_manual: false },
      { first_name: 'Suburb', geo_precision: 'suburb', geo_source: 'sandbox', geo_manual: false },
      { first_name: 'Nowhere', geo_precision: 'none', geo_source: null, geo_manual: false },
    ]);
    expect(await queryRows(db, sql`SELECT name, geo_precision, geo_source FROM business_locations ORDER BY id`)).toEqual([
      { name: 'Office', geo_precision: 'suburb', geo_source: 'sandbox' },
      { name: 'Unplaced', geo_precision: 'none', geo_source: null },
    ]);
    expect(await queryRows(db, sql`SELECT first_name, home_geo_precision, home_geo_source FROM practitioners ORDER BY id`)).toEqual([
      { first_name: 'Home', home_geo_precision: 'street', home_geo_source: 'sandbox' },
      { first_name: 'Homeless', home_geo_precision: 'none', home_geo_source: null },
    ]);
  });

  it('refuses a precision without a point, a source without a precision, and a manual flag on a point not placed by hand', async () => {
    const db = test.database.db;
    await expect(db.execute(sql`UPDATE clients SET geo_precision = 'address', geo_source = 'google' WHERE first_name = 'Nowhere'`)).rejects.toThrow();
    await expect(db.execute(sql`UPDATE clients SET geo_source = NULL WHERE first_name = 'Street'`)).rejects.toThrow();
    await expect(db.execute(sql`UPDATE clients SET geo_manual = true WHERE first_name = 'Street'`)).rejects.toThrow();
    await db.execute(sql`UPDATE clients SET geo_manual = true, geo_source = 'manual', geo_precision = 'address' WHERE first_name = 'Street'`);
  });
});
