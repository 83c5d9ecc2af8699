// Migration 0099 on a database with visits: each visit's agreed time is its start as it was, a visit inserted without
// one agrees to its start (the trigger), one inserted with one keeps it; the move price defaults to 0.25, none per type.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/src/db/client';
import { migrate } from '../../server/src/db/migrate';
import { createTestDatabase, type TestDatabase } from './support/database';

let test: TestDatabase;

beforeAll(async () => {
  test = await createTestDatabase({ migrateBefore: '0099' });
  const db = test.database.db;
  await db.execute(sql`INSERT INTO business_accounts (id, name) VALUES (1, 'Acme')`);
  await db.execute(sql`INSERT INTO practitioners (id, business_account_id, first_name, last_name) VALUES (1, 1, 'Pat', 'One')`);
  await db.execute(sql`INSERT INTO appointment_types (id, business_account_id, name, duration) VALUES (1, 1, 'Home visit', 30)`);
  await db.execute(sql`INSERT INTO optimization_settings (business_account_id) VALUES (1)`);
  await db.execute(sql`INSERT INTO appointments (id, business_account_id, practitioner_id, starts_at, ends_at, arrive_at) VALUES
    (1, 1, 1, '2026-11-24T09:00:00+10:00', '2026-11-24T09:30:00+10:00', '2026-11-24T09:20:00+10:00'),
    (2, 1, 1, '2026-11-24T11:00:00+10:00', '2026-11-24T11:30:00+10:00', NULL)`);
  const applied = await migrate(test.database);
  expect(applied).toContain('0099_agreed_starts.sql');
}, 60_000);
afterAll(() => test?.drop());

const agreedOf = async () => (await queryRows<{ id: number; agreed: string }>(test.database.db, sql`
  SELECT id, to_char(agreed_starts_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI"Z"') AS agreed FROM appointments ORDER BY id`));

describe('migration 0099', () => {
  it("gives each visit its start as it was as the client's agreed time, whatever its arrival", async () => {
    expect(await agreedOf()).toEqual([{ id: 1, agreed: '2026-11-23T23:00Z' }, { id: 2, agreed: '2026-11-24T01:00Z' }]);
  });

  it('fills the agreed time of a visit inserted without one from its start, and keeps one given', async () => {
    await test.database.db.execute(sql`INSERT INTO appointments (id, business_account_id, practitioner_id, starts_at, ends_at, agreed_starts_at) VALUES
      (3, 1, 1, '2026-11-24T13:00:00+10:00', '2026-11-24T13:30:00+10:00', NULL),
      (4, 1, 1, '2026-11-24T14:00:00+10:00', '2026-11-24T14:30:00+10:00', '2026-11-24T14:45:00+10:00')`);
    expect((await agreedOf()).slice(2)).toEqual([{ id: 3, agreed: '2026-11-24T03:00Z' }, { id: 4, agreed: '2026-11-24T04:45Z' }]);
  });

  it('prices a move at 0.25 a minute for the business, and at the business price for every type', async () => {
    expect(await queryRows(test.database.db, sql`SELECT move_price FROM optimization_settings`)).toEqual([{ move_price: 0.25 }]);
    expect(await queryRows(test.database.db, sql`SELECT move_price FROM appointment_types`)).toEqual([{ move_price: null }]);
  });
});
