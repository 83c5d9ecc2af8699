// A PostgreSQL connection that ends while a transaction holds it (a server restart, an administrator's
// pg_terminate_backend) fails that transaction as "database unavailable" (answered 503); it must not take the process
// down. The restart fault test found it only under load, when the server died between two queries of a transaction.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, queryRows, type Database } from '../../server/src/db/client';
import { isDatabaseUnavailable } from '../../server/src/db/unavailable';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!process.env.TEST_DATABASE_URL)('a PostgreSQL connection lost inside a transaction', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ url: process.env.TEST_DATABASE_URL!, poolSize: 2 });
  });
  afterAll(() => database?.close());

  it('fails the transaction as unavailable, keeps the process up, and the next query gets a new connection', async () => {
    const outcome = database.db.transaction(async (tx) => {
      const [{ pid }] = await queryRows<{ pid: number }>(tx, sql`select pg_backend_pid() as pid`);
      // Ended from another connection of the pool while this one is between two queries.
      await queryRows(database.db, sql`select pg_terminate_backend(${pid})`);
      await pause(200);
      await queryRows(tx, sql`select 1`);
    });
    const error = await outcome.then(() => null, (failure: unknown) => failure);
    expect(error, 'the transaction went on as if nothing happened').not.toBeNull();
    expect(isDatabaseUnavailable(error), String(error)).toBe(true);
    expect(await queryRows<{ answer: number }>(database.db, sql`select 42 as answer`)).toEqual([{ answer: 42 }]);
  });
});
