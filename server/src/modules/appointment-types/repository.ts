// Appointment type queries.
import { and, asc, eq } from 'drizzle-orm';
import { appointmentTypes } from '../../db/schema';
import type { DbOrTx } from '../../db/client';

export type AppointmentTypeRow = typeof appointmentTypes.$inferSelect;
export type AppointmentTypeChanges = Partial<typeof appointmentTypes.$inferInsert>;

/** The business's appointment types by name. */
export function listAppointmentTypes(db: DbOrTx, businessAccountId: number): Promise<AppointmentTypeRow[]> {
  return db.select().from(appointmentTypes)
    .where(eq(appointmentTypes.business_account_id, businessAccountId)).orderBy(asc(appointmentTypes.name));
}

/** Applies `changes` to one of the business's appointment types; undefined when it has no such type. */
export async function updateAppointmentType(db: DbOrTx, businessAccountId: number, id: number, changes: AppointmentTypeChanges): Promise<AppointmentTypeRow | undefined> {
  const [row] = await db.update(appointmentTypes).set(changes)
    .where(and(eq(appointmentTypes.id, id), eq(appointmentTypes.business_account_id, businessAccountId)))
    .returning();
  return row;
}

/** One of the business's appointment types, locked for the rest of the transaction (its change is recorded). */
export async function findAppointmentTypeForUpdate(tx: DbOrTx, businessAccountId: number, id: number): Promise<AppointmentTypeRow | undefined> {
  const [row] = await tx.select().from(appointmentTypes)
    .where(and(eq(appointmentTypes.id, id), eq(appointmentTypes.business_account_id, businessAccountId))).for('update');
  return row;
}

/** What the practice management system owns of an appointment type; the reference-data pull (sync) writes it. */
export type AppointmentTypeFromPms = Pick<typeof appointmentTypes.$inferInsert, 'name' | 'duration' | 'color'>;

/** An appointment type by id, as the reference-data pull compares it with the PMS's record. */
export async function findAppointmentTypeRow(db: DbOrTx, id: number): Promise<AppointmentTypeRow | undefined> {
  const [row] = await db.select().from(appointmentTypes).where(eq(appointmentTypes.id, id));
  return row;
}

/** Writes what the PMS says of an appointment type; what Rounds keeps (its rules) stays. */
export async function updateAppointmentTypeFromPms(db: DbOrTx, id: number, values: AppointmentTypeFromPms): Promise<void> {
  await db.update(appointmentTypes).set({ ...values, updated_at: new Date() }).where(eq(appointmentTypes.id, id));
}

/** An appointment type new from the PMS; answers its id. */
export async function insertAppointmentTypeFromPms(db: DbOrTx, businessAccountId: number, values: AppointmentTypeFromPms): Promise<number> {
  const [row] = await db.insert(appointmentTypes).values({ ...values, business_account_id: businessAccountId }).returning({ id: appointmentTypes.id });
  return row.id;
}
