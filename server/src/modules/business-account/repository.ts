// The business_accounts row: inserted when a business is created, its settings read and written afterwards.
import { and, eq, inArray } from 'drizzle-orm';
import { businessAccounts, practitioners } from '../../db/schema';
import type { DbOrTx } from '../../db/client';

export type BusinessAccountRow = typeof businessAccounts.$inferSelect;
export type BusinessAccountSettingsColumns = Pick<BusinessAccountRow,
  'name' | 'time_zone' | 'contact_email' | 'contact_phone' | 'map_center_lat' | 'map_center_lng' | 'week_start' | 'reminder_hour' | 'reminders_enabled' | 'eta_messages_enabled' | 'arrival_far_metres' | 'overdue_after_minutes' | 'eta_replan_minutes' | 'care_plan_weeks_ahead'>;

export async function findBusinessAccount(db: DbOrTx, businessAccountId: number): Promise<BusinessAccountRow | undefined> {
  const [row] = await db.select().from(businessAccounts).where(eq(businessAccounts.id, businessAccountId));
  return row;
}

export async function lockBusinessAccount(tx: DbOrTx, businessAccountId: number): Promise<BusinessAccountRow> {
  const [row] = await tx.select().from(businessAccounts).where(eq(businessAccounts.id, businessAccountId)).for('update');
  return row;
}

export async function updateBusinessAccountSettings(tx: DbOrTx, businessAccountId: number, values: BusinessAccountSettingsColumns): Promise<BusinessAccountRow> {
  const [row] = await tx.update(businessAccounts).set(values).where(eq(businessAccounts.id, businessAccountId)).returning();
  return row;
}

export async function insertBusinessAccount(tx: DbOrTx, name: string, timeZone: string): Promise<BusinessAccountRow> {
  const [business] = await tx.insert(businessAccounts).values({ name, time_zone: timeZone }).returning();
  return business;
}

/** Which of `ids` are practitioners of the business. */
export async function practitionerIdsOfBusiness(db: DbOrTx, businessAccountId: number, ids: number[]): Promise<number[]> {
  const found = await db.select({ id: practitioners.id }).from(practitioners).where(and(
    eq(practitioners.business_account_id, businessAccountId), inArray(practitioners.id, ids)));
  return found.map((row) => row.id);
}
