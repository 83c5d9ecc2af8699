// Queries behind creating business accounts (users are written through users/repository.ts).
import { and, eq, inArray } from 'drizzle-orm';
import { businessAccounts, practitioners, syncSettings } from '../../db/schema';
import type { DbOrTx } from '../audit/versions';

export type BusinessAccountRow = typeof businessAccounts.$inferSelect;

/** Which of `ids` are practitioners of the business. */
export async function practitionerIdsOfBusiness(db: DbOrTx, businessAccountId: number, ids: number[]): Promise<number[]> {
  const found = await db.select({ id: practitioners.id }).from(practitioners).where(and(
    eq(practitioners.business_account_id, businessAccountId), inArray(practitioners.id, ids)));
  return found.map((row) => row.id);
}

/** A new business account with its sync settings row (no filters). */
export async function insertBusinessAccount(tx: DbOrTx, name: string, timeZone: string): Promise<BusinessAccountRow> {
  const [business] = await tx.insert(businessAccounts).values({ name, time_zone: timeZone }).returning();
  await tx.insert(syncSettings).values({
    business_account_id: business.id,
    filters: { practitioner_ids: [], appointment_type_ids: [], business_location_ids: [] },
  });
  return business;
}
