// A visit's steps as the phones record them (visit_steps) and the state they leave the visit in: written only here.
import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { appointments } from '../../db/schema';
import { visitSteps, type VisitState } from '../../db/schema-visits';

export type VisitStepRow = typeof visitSteps.$inferSelect;
export type NewVisitStep = Omit<typeof visitSteps.$inferInsert, 'id' | 'recorded_at' | 'business_account_id'>;

export async function insertStep(tx: DbOrTx, businessAccountId: number, step: NewVisitStep): Promise<VisitStepRow> {
  const [row] = await tx.insert(visitSteps).values({ ...step, business_account_id: businessAccountId }).returning();
  return row;
}

export async function setVisitState(tx: DbOrTx, businessAccountId: number, appointmentId: number, state: VisitState): Promise<void> {
  await tx.update(appointments).set({ visit_state: state, updated_at: new Date() })
    .where(and(eq(appointments.business_account_id, businessAccountId), eq(appointments.id, appointmentId)));
}

/**
 * The note of a done visit written after Done: kept on its Done step, where a note sent with Done is. The appointment is
 * touched too, so the lists kept by the business's lists_version show the note.
 */
export async function setStepNote(tx: DbOrTx, businessAccountId: number, step: Pick<VisitStepRow, 'id' | 'appointment_id'>, note: string | null): Promise<void> {
  await tx.update(visitSteps).set({ note }).where(and(eq(visitSteps.business_account_id, businessAccountId), eq(visitSteps.id, step.id)));
  await tx.update(appointments).set({ updated_at: new Date() })
    .where(and(eq(appointments.business_account_id, businessAccountId), eq(appointments.id, step.appointment_id)));
}
