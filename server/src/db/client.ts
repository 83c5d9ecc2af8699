// Opens the database: real PostgreSQL when a URL is given, otherwise embedded PGlite (persisted in a directory,
// or in memory when no directory is given). Both speak the same PostgreSQL dialect through Drizzle.
import { PGlite } from '@electric-sql/pglite';
import { cube } from '@electric-sql/pglite/contrib/cube';
import { earthdistance } from '@electric-sql/pglite/contrib/earthdistance';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction opened on a database handle. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** A database handle or a transaction opened on one: what a query that may run in either takes. */
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Runs raw SQL (several statements allowed) in one transaction on one connection; used by the migrator. */
  execInTransaction(sql: string): Promise<void>;
  /**
   * Calls `onPayload` with each notification sent on `channel` (NOTIFY, delivered at the sender's commit) until the
   * answered function is called. On PostgreSQL it holds a connection of its own, outside the pool, opened again a
   * second after the server drops it (notifications sent meanwhile are missed); on PGlite, the instance's own.
   */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  url?: string;
  /** PGlite data directory; omitted means in memory. */
  dataDir?: string;
  /** PGlite: start from this dump of a data directory (`dumpDataDir`) instead of an empty database. */
  loadDataDir?: Blob;
  poolSize?: number;
}

/** The extensions the migrations create (0001); every PGlite the product opens loads them. */
export const PGLITE_EXTENSIONS = { cube, earthdistance, pg_trgm };

// pg returns bigint/numeric as strings by default; our counts fit in a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.url) {
    // A server that does not answer at all (a host gone, a network partition) fails a request after the connection
    // time-out instead of holding it; keepAlive notices connections whose server went away without closing them.
    const pool = new pg.Pool({
      connectionString: options.url, max: options.poolSize ?? 10, connectionTimeoutMillis: 10_000, keepAlive: true,
    });
    // An idle pooled connection that the server ends (a restart, an administrator's DROP … FORCE) is dropped from the
    // pool and replaced on the next query; without a listener pg would raise it as an uncaught exception.
    pool.on('error', (error) => console.warn(`PostgreSQL closed an idle connection: ${error.message}`));
    // A connection checked out of the pool (inside a transaction, between two of its queries) that the server ends
    // emits on the client itself, where the pool's listener does not hear it: without this, the process exits. The
    // transaction's next query then fails as "not queryable" and its request is answered 503.
    pool.on('connect', (connection) => {
      connection.on('error', (error) => console.warn(`PostgreSQL ended a connection in use: ${error.message}`));
    });
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    return {
      db,
      kind: 'postgres',
      execInTransaction: async (sql) => {
        const connection = await pool.connect();
        try {
          await connection.query('BEGIN');
          await connection.query(sql);
          await connection.query('COMMIT');
        } catch (error) {
          await connection.query('ROLLBACK');
          throw error;
        } finally {
          connection.release();
        }
      },
      listen: (channel, onPayload) => listenOnPostgres(options.url!, channel, onPayload),
      close: () => pool.end(),
    };
  }
  const client = await PGlite.create(options.dataDir, { extensions: PGLITE_EXTENSIONS, loadDataDir: options.loadDataDir });
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    execInTransaction: async (sql) => { await client.transaction(async (tx) => { await tx.exec(sql); }); },
    listen: (channel, onPayload) => client.listen(channel, onPayload),
    close: () => client.close(),
  };
}

/** How long a listening connection the server dropped waits before it connects again. */
const LISTEN_RECONNECT_MS = 1_000;

async function listenOnPostgres(url: string, channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>> {
  let connection: pg.Client | null = null;
  let stopped = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  const again = () => {
    connection = null;
    if (stopped || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, LISTEN_RECONNECT_MS);
    retry.unref();
  };
  const connect = async () => {
    const next = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000, keepAlive: true });
    next.on('notification', (message) => {
      if (message.channel === channel && message.payload) onPayload(message.payload);
    });
    next.on('error', (error) => {
      console.warn(`PostgreSQL ended the connection listening on ${channel}: ${error.message}`);
      void next.end().catch(() => {});
      again();
    });
    next.on('end', again);
    try {
      await next.connect();
      await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      if (stopped) await next.end();
      else connection = next;
    } catch {
      void next.end().catch(() => {});
      again();
    }
  };
  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    await connection?.end().catch(() => {});
  };
}

/** Runs a raw SQL query and returns its rows (both drivers answer with `{ rows }`). */
export async function queryRows<Row>(db: DbOrTx, query: SQL): Promise<Row[]> {
  const result = (await db.execute(query)) as unknown as { rows: Row[] };
  return result.rows;
}
