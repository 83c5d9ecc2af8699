// Leave queries: the business's practitioners' leave by practitioner and range, its writes, and the Cliniko import's
// upsert by block id. Only this module writes practitioner_leave.
import { and, asc, eq, gt, gte, inArray, isNotNull, isNull, lt, notInArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { appointments, practitioners } from '../../db/schema';
import { practitionerLeave, type LeaveSource } from '../../db/schema-leave';

export type LeaveRow = typeof practitionerLeave.$inferSelect;

export interface LeaveValues {
  practitioner_id: number;
  starts_at: Date;
  ends_at: Date;
  reason: string | null;
}

/** The business's leave that overlaps [from, to), of `practitionerIds` (all when null), by start. */
export function leaveOverlapping(
  db: DbOrTx, businessAccountId: number, practitionerIds: readonly number[] | null, from: Date, to: Date,
): Promise<LeaveRow[]> {
  if (practitionerIds?.length === 0) return Promise.resolve([]);
  return db.select().from(practitionerLeave).where(and(
    eq(practitionerLeave.business_account_id, businessAccountId),
    practitionerIds ? inArray(practitionerLeave.practitioner_id, [...practitionerIds]) : undefined,
    lt(practitionerLeave.starts_at, to), gt(practitionerLeave.ends_at, from),
  )).orderBy(asc(practitionerLeave.starts_at), asc(practitionerLeave.practitioner_id), asc(practitionerLeave.id));
}

export async function findLeave(db: DbOrTx, businessAccountId: number, id: number, lock = false): Promise<LeaveRow | undefined> {
  const query = db.select().from(practitionerLeave)
    .where(and(eq(practitionerLeave.business_account_id, businessAccountId), eq(practitionerLeave.id, id)));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

/** The practitioner of the business, key-share locked until the transaction ends; undefined when it has none. */
export async function findPractitioner(tx: DbOrTx, businessAccountId: number, id: number): Promise<{ id: number } | undefined> {
  const [row] = await tx.select({ id: practitioners.id }).from(practitioners)
    .where(and(eq(practitioners.business_account_id, businessAccountId), eq(practitioners.id, id))).for('key share');
  return row;
}

export async function insertLeave(
  tx: DbOrTx, businessAccountId: number, values: LeaveValues & { source: LeaveSource; cliniko_block_id: string | null; created_by_name: string | null },
): Promise<LeaveRow> {
  const [row] = await tx.insert(practitionerLeave).values({ business_account_id: businessAccountId, ...values }).returning();
  return row;
}

export async function updateLeave(tx: DbOrTx, businessAccountId: number, id: number, values: LeaveValues): Promise<LeaveRow> {
  const [row] = await tx.update(practitionerLeave).set({ ...values, updated_at: new Date() })
    .where(and(eq(practitionerLeave.business_account_id, businessAccountId), eq(practitionerLeave.id, id))).returning();
  return row;
}

export async function deleteLeave(tx: DbOrTx, businessAccountId: number, id: number): Promise<void> {
  await tx.delete(practitionerLeave).where(and(eq(practitionerLeave.business_account_id, businessAccountId), eq(practitionerLeave.id, id)));
}

/** An unavailable block from Cliniko, its practitioner already mapped to the local one. */
export interface ImportedBlock { blockId: string; practitionerId: number; startsAt: Date; endsAt: Date; notes: string | null }

/**
 * Makes the imported leave that overlaps [from, to) (of `practitionerIds`, or everyone's when null) what Cliniko says:
 * each block upserted by its id and, with `removeMissing`, the imported leave of that range whose block Cliniko no
 * longer lists deleted. Leave entered in Rounds is left alone.
 */
export async function replaceImportedLeave(
  tx: DbOrTx, businessAccountId: number, blocks: readonly ImportedBlock[],
  range: { from: Date; to: Date; practitionerIds: readonly number[] | null; removeMissing: boolean },
): Promise<{ upserted: number; removed: number }> {
  for (const block of blocks) {
    await tx.insert(practitionerLeave).values({
      business_account_id: businessAccountId, practitioner_id: block.practitionerId, starts_at: block.startsAt, ends_at: block.endsAt,
      reason: block.notes, source: 'cliniko', cliniko_block_id: block.blockId, created_by_name: 'Cliniko',
    }).onConflictDoUpdate({
      target: [practitionerLeave.business_account_id, practitionerLeave.cliniko_block_id],
      targetWhere: isNotNull(practitionerLeave.cliniko_block_id),
      set: { practitioner_id: block.practitionerId, starts_at: block.startsAt, ends_at: block.endsAt, reason: block.notes, updated_at: sql`now()` },
    });
  }
  if (!range.removeMissing || range.practitionerIds?.length === 0) return { upserted: blocks.length, removed: 0 };
  const kept = blocks.map((block) => block.blockId);
  const removed = await tx.delete(practitionerLeave).where(and(
    eq(practitionerLeave.business_account_id, businessAccountId), eq(practitionerLeave.source, 'cliniko'),
    range.practitionerIds ? inArray(practitionerLeave.practitioner_id, [...range.practitionerIds]) : undefined,
    lt(practitionerLeave.starts_at, range.to), gt(practitionerLeave.ends_at, range.from),
    kept.length ? notInArray(practitionerLeave.cliniko_block_id, kept) : undefined,
  )).returning({ id: practitionerLeave.id });
  return { upserted: blocks.length, removed: removed.length };
}

/**
 * The business's visits (not cancelled) starting in [from, to) whose booked time overlaps their practitioner's
 * leave, by start.
 */
export async function visitsInLeave(db: DbOrTx, businessAccountId: number, from: Date, to: Date): Promise<{ id: number; practitionerId: number; startsAt: Date }[]> {
  return db.selectDistinct({ id: appointments.id, practitionerId: appointments.practitioner_id, startsAt: appointments.starts_at }).from(appointments)
    .innerJoin(practitionerLeave, and(
      eq(practitionerLeave.business_account_id, appointments.business_account_id), eq(practitionerLeave.practitioner_id, appointments.practitioner_id),
      lt(practitionerLeave.starts_at, appointments.ends_at), gt(practitionerLeave.ends_at, appointments.starts_at),
    ))
    .where(and(
      eq(appointments.business_account_id, businessAccountId), isNull(appointments.cancelled_at),
      gte(appointments.starts_at, from), lt(appointments.starts_at, to),
    ))
    .orderBy(asc(appointments.starts_at), asc(appointments.id));
}
