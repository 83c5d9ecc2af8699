// pms_writes (migration 0103): each write of a visit to the PMS, its state and what it sends. Every query is scoped to
// the business passed first.
import { randomBytes } from 'node:crypto';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { appointments, clients, practitioners } from '../../db/schema';
import { pmsWrites, type PmsWriteKind, type PmsWritePayload, type PmsWriteState } from '../../db/schema-bookings';
import type { Schemas } from '../../http/contract';

export type PmsWriteRow = typeof pmsWrites.$inferSelect;

/** A reference of the booking's own, put in the PMS appointment's notes so it can be found again. */
const newReference = (appointmentId: number | null) => `R-${appointmentId ?? 0}-${randomBytes(6).toString('hex')}`;

export async function insertWrite(
  tx: DbOrTx, businessAccountId: number,
  write: { appointmentId: number; kind: PmsWriteKind; payload: PmsWritePayload; requestId?: string | null; createdBy: string | null },
): Promise<PmsWriteRow> {
  const [row] = await tx.insert(pmsWrites).values({
    business_account_id: businessAccountId, appointment_id: write.appointmentId, kind: write.kind, payload: write.payload,
    reference: newReference(write.appointmentId), request_id: write.requestId ?? null, created_by: write.createdBy,
  }).returning();
  return row;
}

export async function findWrite(db: DbOrTx, businessAccountId: number, id: number, lock = false): Promise<PmsWriteRow | undefined> {
  const query = db.select().from(pmsWrites).where(and(eq(pmsWrites.business_account_id, businessAccountId), eq(pmsWrites.id, id)));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

export async function findWriteByRequest(db: DbOrTx, businessAccountId: number, requestId: string): Promise<PmsWriteRow | undefined> {
  const [row] = await db.select().from(pmsWrites)
    .where(and(eq(pmsWrites.business_account_id, businessAccountId), eq(pmsWrites.request_id, requestId)));
  return row;
}

/** The visit's writes, newest first. */
export function writesOfVisit(db: DbOrTx, businessAccountId: number, appointmentId: number): Promise<PmsWriteRow[]> {
  return db.select().from(pmsWrites)
    .where(and(eq(pmsWrites.business_account_id, businessAccountId), eq(pmsWrites.appointment_id, appointmentId)))
    .orderBy(desc(pmsWrites.id));
}

export async function updateWrite(db: DbOrTx, id: number, values: Partial<Omit<PmsWriteRow, 'id' | 'business_account_id'>>): Promise<PmsWriteRow> {
  const [row] = await db.update(pmsWrites).set({ ...values, updated_at: new Date() }).where(eq(pmsWrites.id, id)).returning();
  return row;
}

export function toPmsWriteDto(row: PmsWriteRow): Schemas['PmsWrite'] {
  return {
    id: row.id, appointment_id: row.appointment_id, kind: row.kind, state: row.state, message: row.message, differences: row.differences,
    attempts: row.attempts, created_by: row.created_by, created_at: row.created_at.toISOString(), updated_at: row.updated_at.toISOString(),
  };
}

/** Writes that need attention or are under way, newest first, with their visit's client, practitioner and start. */
export async function listOpenWrites(db: DbOrTx, businessAccountId: number, state?: PmsWriteState): Promise<Schemas['PmsWriteListed'][]> {
  const rows = await db.select({
    write: pmsWrites,
    clientName: sql<string | null>`btrim(${clients.first_name} || ' ' || ${clients.last_name})`,
    practitionerName: sql<string | null>`btrim(${practitioners.first_name} || ' ' || ${practitioners.last_name})`,
    startsAt: appointments.starts_at,
  }).from(pmsWrites)
    .leftJoin(appointments, eq(appointments.id, pmsWrites.appointment_id))
    .leftJoin(clients, eq(clients.id, appointments.client_id))
    .leftJoin(practitioners, eq(practitioners.id, appointments.practitioner_id))
    .where(and(eq(pmsWrites.business_account_id, businessAccountId), inArray(pmsWrites.state, state ? [state] : ['saving', 'failed', 'conflict'])))
    .orderBy(desc(pmsWrites.id))
    .limit(500);
  return rows.map((row) => ({
    ...toPmsWriteDto(row.write), client_name: row.clientName, practitioner_name: row.practitionerName, starts_at: row.startsAt?.toISOString() ?? null,
  }));
}
