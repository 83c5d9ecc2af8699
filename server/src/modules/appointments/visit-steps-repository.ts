// Visit steps' queries: the step stored under an idempotency key and the steps of the visit since it was last reopened
// (a step's row and the visit's state are written by the schedule module, the owner of visit_steps and appointments).
import { and, asc, desc, eq, gt } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { databaseErrorCode, UNIQUE_VIOLATION } from '../../db/errors';
import { businessAccounts } from '../../db/schema';
import { visitSteps } from '../../db/schema-visits';
import type { VisitStepRow } from '../schedule';

export async function stepByKey(db: DbOrTx, businessAccountId: number, idempotencyKey: string): Promise<VisitStepRow | undefined> {
  const [row] = await db.select().from(visitSteps)
    .where(and(eq(visitSteps.business_account_id, businessAccountId), eq(visitSteps.idempotency_key, idempotencyKey)));
  return row;
}

/** The visit's last reopening by a coordinator, if any. */
export async function lastReopening(db: DbOrTx, businessAccountId: number, appointmentId: number): Promise<VisitStepRow | undefined> {
  const [row] = await db.select().from(visitSteps)
    .where(and(eq(visitSteps.business_account_id, businessAccountId), eq(visitSteps.appointment_id, appointmentId), eq(visitSteps.step, 'reopened')))
    .orderBy(desc(visitSteps.id)).limit(1);
  return row;
}

/** The visit's steps since it was last reopened (the reopening excluded), oldest first. */
export async function currentSteps(db: DbOrTx, businessAccountId: number, appointmentId: number): Promise<VisitStepRow[]> {
  const reopened = await lastReopening(db, businessAccountId, appointmentId);
  return db.select().from(visitSteps)
    .where(and(eq(visitSteps.business_account_id, businessAccountId), eq(visitSteps.appointment_id, appointmentId),
      reopened ? gt(visitSteps.id, reopened.id) : undefined))
    .orderBy(asc(visitSteps.id));
}

/** The business's time zone, how far from the client an arrival is flagged, and whether clients get ETA messages. */
export async function stepSettingsOf(db: DbOrTx, businessAccountId: number): Promise<{ timeZone: string; arrivalFarMetres: number; etaMessages: boolean }> {
  const [row] = await db.select({
    timeZone: businessAccounts.time_zone, arrivalFarMetres: businessAccounts.arrival_far_metres, etaMessages: businessAccounts.eta_messages_enabled,
  }).from(businessAccounts).where(eq(businessAccounts.id, businessAccountId));
  return row ?? { timeZone: 'Australia/Brisbane', arrivalFarMetres: 300, etaMessages: false };
}

/** Whether the error is the unique index of idempotency keys refusing a second row (two requests at once). */
export const isDuplicateKey = (error: unknown) => databaseErrorCode(error) === UNIQUE_VIOLATION;

