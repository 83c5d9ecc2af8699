// Field diffs for what an import or export writes, and its change-log rows, recorded by the audit module
// (versions: object_changes maps a field to [old, new]; dates are stored as ISO strings).
import type { DbOrTx } from '../../db/client';
import { recordVersions } from '../audit';

export type Changes = Record<string, [unknown, unknown]>;

function plain(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  return value === undefined ? null : value;
}

/** The fields of `next` whose value differs from `current`. */
export function diff<T extends Record<string, unknown>>(current: T, next: Partial<T>): Changes {
  const changes: Changes = {};
  for (const [field, value] of Object.entries(next)) {
    if (value === undefined) continue;
    const before = plain(current[field]);
    const after = plain(value);
    if (JSON.stringify(before) !== JSON.stringify(after)) changes[field] = [before, after];
  }
  return changes;
}

/** Every field of a new record as [null, value]. */
export function creation(record: Record<string, unknown>): Changes {
  const changes: Changes = {};
  for (const [field, value] of Object.entries(record)) {
    if (value !== null && value !== undefined) changes[field] = [null, plain(value)];
  }
  return changes;
}

export interface VersionRow {
  itemType: 'Appointment' | 'Client';
  itemId: number;
  event: 'create' | 'update' | 'destroy';
  changes: Changes;
  /** Why, when the change itself does not say it (versions.reason). */
  reason?: string | null;
}

/** Records an import's or export's change-log rows through the change log's owner (the audit module). */
export async function insertVersions(tx: DbOrTx, businessAccountId: number, whodunnit: string, rows: VersionRow[]): Promise<void> {
  await recordVersions(tx, rows.map((row) => ({ ...row, businessAccountId, whodunnit })));
}
