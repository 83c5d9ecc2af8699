// Applies the SQL files in ./migrations in name order, each once, each in its own transaction.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { queryRows, type Database } from './client';

export const migrationsDir = join(dirname(fileURLToPath(import.meta.url)), 'migrations');
const LOCK = 'SELECT pg_advisory_xact_lock(727274);';

export function listMigrations(): string[] {
  return readdirSync(migrationsDir).filter((name) => name.endsWith('.sql')).sort();
}

/** Applies the pending migrations; `before` stops at the first one named at or after it (tests of a migration's backfill). */
export async function migrate(database: Database, options: { before?: string } = {}): Promise<string[]> {
  await database.execInTransaction(
    `${LOCK} CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now());`,
  );
  const rows = await queryRows<{ name: string }>(database.db, sql`SELECT name FROM schema_migrations`);
  const done = new Set(rows.map((row) => row.name));
  const applied: string[] = [];
  for (const name of listMigrations().filter((candidate) => !done.has(candidate) && !(options.before && candidate >= options.before))) {
    const body = readFileSync(join(migrationsDir, name), 'utf8');
    // The lock serialises processes starting together; recording the name first makes a migration that another
    // process applied meanwhile fail on the primary key instead of running twice.
    try {
      await database.execInTransaction(
        `${LOCK} INSERT INTO schema_migrations (name) VALUES ('${name.replaceAll("'", "''")}');\n${body}`,
      );
      applied.push(name);
    } catch (error) {
      if ((error as { code?: string }).code !== '23505') throw new Error(`Migration ${name} failed: ${(error as Error).message}`, { cause: error });
    }
  }
  return applied;
}
