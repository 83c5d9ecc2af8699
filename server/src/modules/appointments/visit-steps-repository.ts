// Visit steps' queries: the step stored under an idempotency key, the steps of the visit since it was last reopened,
// and the writes of a step (its row and the visit's state). Only this module writes visit_steps and appointments.
import { and, asc, desc, eq, gt } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { databaseErrorCode, UNIQUE_VIOLATION } from '../../db/errors';
import { appointments, businessAccounts, practitioners } from '../../db/schema';
import { visitSteps, type VisitState } from '../../db/schema-visits';

export type VisitStepRow = typeof visitSteps.$inferSelect;
export type NewVisitStep = Omit<typeof visitSteps.$inferInsert, 'id' | 'recorded_at' | 'business_account_id'>;

export async function stepByKey(db: DbOrTx, businessAccountId: number, idempotencyKey: string): Promise<VisitStepRow | undefined> {
  const [row] = await db.select().from(visitSteps)
    .where(and(eq(visitSteps.business_account_id, businessAccountId), eq(visitSteps.idempotency_key, idempotencyKey)));
  return row;
}

/** The visit's steps since it was last reopened (the reopening excluded), oldest first. */
export async function currentSteps(db: DbOrTx, businessAccountId: number, appointmentId: number): Promise<VisitStepRow[]> {
  const [reopened] = await db.select({ id: visitSteps.id }).from(visitSteps)
    .where(and(eq(visitSteps.business_account_id, businessAccountId), eq(visitSteps.appointment_id, appointmentId), eq(visitSteps.step, 'reopened')))
    .orderBy(desc(visitSteps.id)).limit(1);
  return db.select().from(visitSteps)
    .where(and(eq(visitSteps.business_account_id, businessAccountId), eq(visitSteps.appointment_id, appointmentId),
      reopened ? gt(visitSteps.id, reopened.id) : undefined))
    .orderBy(asc(visitSteps.id));
}

export async function insertStep(tx: DbOrTx, businessAccountId: number, step: NewVisitStep): Promise<VisitStepRow> {
  const [row] = await tx.insert(visitSteps).values({ ...step, business_account_id: businessAccountId }).returning();
  return row;
}

export async function setVisitState(tx: DbOrTx, businessAccountId: number, appointmentId: number, state: VisitState): Promise<void> {
  await tx.update(appointments).set({ visit_state: state, updated_at: new Date() })
    .where(and(eq(appointments.business_account_id, businessAccountId), eq(appointments.id, appointmentId)));
}

/** The business's time zone, how far from the client an arrival is flagged, and whether clients get ETA messages. */
export async function stepSettingsOf(db: DbOrTx, businessAccountId: number): Promise<{ timeZone: string; arrivalFarMetres: number; etaMessages: boolean }> {
  const [row] = await db.select({
    timeZone: businessAccounts.time_zone, arrivalFarMetres: businessAccounts.arrival_far_metres, etaMessages: businessAccounts.eta_messages_enabled,
  }).from(businessAccounts).where(eq(businessAccounts.id, businessAccountId));
  return row ?? { timeZone: 'Australia/Brisbane', arrivalFarMetres: 300, etaMessages: false };
}

/** The practitioner's working hours, Monday first (null: a day off). */
export async function workingHoursOf(db: DbOrTx, businessAccountId: number, practitionerId: number) {
  const [row] = await db.select({ hours: practitioners.working_hours }).from(practitioners)
    .where(and(eq(practitioners.business_account_id, businessAccountId), eq(practitioners.id, practitionerId)));
  return row?.hours ?? [];
}

/** Whether the error is the unique index of idempotency keys refusing a second row (two requests at once). */
export const isDuplicateKey = (error: unknown) => databaseErrorCode(error) === UNIQUE_VIOLATION;

