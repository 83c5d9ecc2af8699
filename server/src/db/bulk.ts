// Set-based writes of many rows (pages of PMS data, change-log rows): one statement per table and batch, rows passed as
// a single JSON parameter (jsonb_to_recordset), which is far cheaper than building multi-row VALUES lists with one
// parameter per field, and has no limit on the number of rows.
import { sql } from 'drizzle-orm';
import { queryRows, type DbOrTx } from './client';

/** Column name → PostgreSQL type, in insert order. */
export type Columns = Record<string, string>;

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

function columnList(columns: Columns): { names: string; definitions: string } {
  for (const name of Object.keys(columns)) if (!IDENTIFIER.test(name)) throw new Error(`bad column name ${name}`);
  return {
    names: Object.keys(columns).join(', '),
    definitions: Object.entries(columns).map(([name, type]) => `${name} ${type}`).join(', '),
  };
}

/** Takes `count` ids from a table's id sequence, so related rows can be written in bulk with known ids. */
export async function reserveIds(tx: DbOrTx, table: string, count: number): Promise<number[]> {
  if (count === 0) return [];
  if (!IDENTIFIER.test(table)) throw new Error(`bad table name ${table}`);
  const rows = await queryRows<{ id: number }>(tx, sql`
    SELECT nextval(pg_get_serial_sequence(${table}, 'id'))::int AS id FROM generate_series(1, ${count})`);
  return rows.map((row) => Number(row.id)).sort((a, b) => a - b);
}

export async function bulkInsert(
  tx: DbOrTx, table: string, columns: Columns, rows: Record<string, unknown>[], onConflict = '',
): Promise<void> {
  if (rows.length === 0) return;
  if (!IDENTIFIER.test(table)) throw new Error(`bad table name ${table}`);
  const { names, definitions } = columnList(columns);
  await tx.execute(sql`
    INSERT INTO ${sql.raw(table)} (${sql.raw(names)})
    SELECT ${sql.raw(names)} FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r(${sql.raw(definitions)})
    ${sql.raw(onConflict)}`);
}
