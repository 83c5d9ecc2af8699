// Migration 0095 on a database that has users: every stored email becomes its normal form (normalEmail, computed in
// SQL by the migration), and of the users of one business whose emails then read the same, the one who can log in
// first keeps the address and the others are deactivated, their sessions and links ended and the change logged.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/src/db/client';
import { migrate } from '../../server/src/db/migrate';
import { normalEmail } from '../../server/src/lib/email-address';
import { createTestDatabase, type TestDatabase } from './support/database';

let test: TestDatabase;

/** Every character that lower-cases to another, 60 to an address: the migration's mapping against JavaScript's. */
const EVERY_CASED = Array.from({ length: 0x110000 }, (_, codePoint) => codePoint)
  .filter((codePoint) => (codePoint < 0xd800 || codePoint > 0xdfff) && String.fromCodePoint(codePoint).toLowerCase() !== String.fromCodePoint(codePoint))
  .map((codePoint) => String.fromCodePoint(codePoint));
const CASED_ADDRESSES = Array.from({ length: Math.ceil(EVERY_CASED.length / 60) }, (_, index) => `x${EVERY_CASED.slice(index * 60, index * 60 + 60).join('')}@demo.test`);

const USERS: (readonly [number, string, { password?: boolean; lastLogin?: string; active?: boolean }])[] = [
  [1, 'Mİrin@Demo.test', { password: true, lastLogin: '2026-11-01T00:00:00Z' }],
  [1, 'mi\u0307rin@demo.test', { password: false }],
  [1, 'ﬁona@demo.test', { password: true, lastLogin: '2026-10-01T00:00:00Z' }],
  [1, 'FIONA@demo.test', { password: true, lastLogin: '2026-11-20T00:00:00Z' }],
  [1, 'ｆｉｏｎａ@demo.test', { password: true, active: false }],
  [1, ' JOSE\u0301@Demo.Test\u3000', { password: true }],
  [1, 'mırin@demo.test', { password: true }],
  [2, 'MİRİN@demo.test', { password: true }],
  [2, 'Fiona@demo.test', { password: true }],
  ...CASED_ADDRESSES.map((email) => [1, email, { password: true }] as const),
];

beforeAll(async () => {
  test = await createTestDatabase({ migrateBefore: '0095' });
  const db = test.database.db;
  await db.execute(sql`INSERT INTO business_accounts (id, name) VALUES (1, 'Acme'), (2, 'Beta')`);
  for (const [business, email, { password, lastLogin, active = true }] of USERS) {
    await db.execute(sql`INSERT INTO users (business_account_id, email, password_hash, first_name, role, active, last_login_at)
      VALUES (${business}, ${email}, ${password ? 'hash' : null}, ${email.slice(0, 12)}, 'REGULAR_USER', ${active}, ${lastLogin ?? null})`);
  }
  await db.execute(sql`INSERT INTO sessions (user_id, token_hash, expires_at) SELECT id, 'session-' || id, now() + interval '1 day' FROM users`);
  await db.execute(sql`INSERT INTO one_time_tokens (user_id, purpose, token_hash, expires_at)
    SELECT id, 'PASSWORD_RESET', 'reset-' || id, now() + interval '1 hour' FROM users`);
  expect(await migrate(test.database)).toContain('0095_email_normal_form.sql');
}, 120_000);
afterAll(() => test?.drop());

const usersNow = () => queryRows<{ id: number; business_account_id: number; email: string; active: boolean; live_sessions: number; live_links: number }>(
  test.database.db, sql`SELECT id, business_account_id, email, active,
    (SELECT count(*)::int FROM sessions WHERE user_id = users.id AND revoked_at IS NULL) AS live_sessions,
    (SELECT count(*)::int FROM one_time_tokens WHERE user_id = users.id AND used_at IS NULL) AS live_links
  FROM users ORDER BY id`);

describe('migration 0095', () => {
  it('stores every email in the form normalEmail gives, on this database as in JavaScript', async () => {
    expect(EVERY_CASED.length).toBeGreaterThan(1400);
    expect(CASED_ADDRESSES.every((email) => email.length <= 320)).toBe(true);
    expect((await usersNow()).map((user) => user.email)).toEqual(USERS.map(([, email]) => normalEmail(email)));
  });

  it('keeps an address with the user who can log in first, and deactivates the others of that business (sessions, links, change log)', async () => {
    const rows = await usersNow();
    expect(rows.map(({ active, live_sessions, live_links }) => [active, live_sessions, live_links])).toEqual([
      [true, 1, 1], // Mİrin: has a password
      [false, 0, 0], // mi̇rin: invited only
      [false, 0, 0], // ﬁona: an older login than FIONA's
      [true, 1, 1], // FIONA
      [false, 0, 0], // ｆｉｏｎａ: was deactivated already
      [true, 1, 1], // JOSÉ, alone
      [true, 1, 1], // mırin: another letter, another address
      [true, 1, 1], // Beta's users: another business
      [true, 1, 1],
      ...CASED_ADDRESSES.map(() => [true, 1, 1]),
    ]);
    const logged = await queryRows<{ item_id: number; whodunnit: string; object_changes: unknown; reason: string }>(
      test.database.db, sql`SELECT item_id, whodunnit, object_changes, reason FROM versions WHERE item_type = 'User' ORDER BY item_id`);
    expect(logged).toEqual([
      { item_id: rows[1].id, whodunnit: 'Rounds', object_changes: { status: ['invited', 'deactivated'] }, reason: 'Another user of the business has the same email, written Mİrin@Demo.test: they keep it' },
      { item_id: rows[2].id, whodunnit: 'Rounds', object_changes: { status: ['active', 'deactivated'] }, reason: 'Another user of the business has the same email, written FIONA@demo.test: they keep it' },
    ]);
  });

  it('keeps one active user per address in a business, by equality', async () => {
    const db = test.database.db;
    await expect(db.execute(sql`INSERT INTO users (business_account_id, email, first_name, role) VALUES (1, ${normalEmail('FIONA@demo.test')}, 'Again', 'REGULAR_USER')`))
      .rejects.toThrow();
    await db.execute(sql`INSERT INTO users (business_account_id, email, first_name, role, active) VALUES (1, 'fiona@demo.test', 'Gone', 'REGULAR_USER', false)`);
  });
});
