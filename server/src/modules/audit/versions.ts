// The change log: one `versions` row per change to an appointment or client, written in the same transaction as
// the change. object_changes maps each changed field to [old, new].
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { versions } from '../../db/schema';

export type VersionedItem = 'Appointment' | 'Client';
export type VersionEvent = 'create' | 'update' | 'destroy';
export type ObjectChanges = Record<string, [unknown, unknown]>;

/** A database handle or a transaction opened on one (a Drizzle transaction is a PgDatabase too). */
export type DbOrTx = Db;

export interface VersionInput {
  businessAccountId: number;
  itemType: VersionedItem;
  itemId: number;
  event: VersionEvent;
  /** The author: a user's full name, 'Import #12', 'Client (availability link)', … */
  whodunnit: string | null;
  changes: ObjectChanges;
  /** Why, when the change itself does not say it (e.g. an import replacing a local arrival time). */
  reason?: string | null;
}

/** Dates become ISO strings so that the stored pair reads the same whichever driver wrote it. */
function normalise(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  return value === undefined ? null : value;
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(normalise(a)) === JSON.stringify(normalise(b));
}

/** The fields of `after` whose value differs from `before`, as { field: [old, new] }. */
export function diffFields<T extends Record<string, unknown>>(before: T, after: Partial<T>): ObjectChanges {
  const changes: ObjectChanges = {};
  for (const [field, next] of Object.entries(after)) {
    if (next === undefined) continue;
    const previous = before[field];
    if (!sameValue(previous, next)) changes[field] = [normalise(previous), normalise(next)];
  }
  return changes;
}

/** Records a version; an update without any changed field records nothing and answers false. */
export async function recordVersion(tx: DbOrTx, input: VersionInput): Promise<boolean> {
  if (input.event === 'update' && Object.keys(input.changes).length === 0) return false;
  const changes: ObjectChanges = {};
  for (const [field, [before, after]] of Object.entries(input.changes)) changes[field] = [normalise(before), normalise(after)];
  await tx.insert(versions).values({
    business_account_id: input.businessAccountId,
    item_type: input.itemType,
    item_id: input.itemId,
    event: input.event,
    whodunnit: input.whodunnit,
    object_changes: changes,
    reason: input.reason ?? null,
  });
  return true;
}

/** An item's change log, oldest first. */
export async function versionsOf(db: DbOrTx, businessAccountId: number, itemType: VersionedItem, itemId: number) {
  return db.select().from(versions).where(and(
    eq(versions.business_account_id, businessAccountId),
    eq(versions.item_type, itemType),
    eq(versions.item_id, itemId),
  )).orderBy(asc(versions.created_at), asc(versions.id));
}
