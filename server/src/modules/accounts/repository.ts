// Queries behind creating business accounts (users are written by the users module, sync settings by the sync module).
import { and, eq, inArray } from 'drizzle-orm';
import { businessAccounts, practitioners } from '../../db/schema';
import type { DbOrTx } from '../../db/client';

export type BusinessAccountRow = typeof businessAccounts.$inferSelect;

/** Which of `ids` are practitioners of the business. */
export async function practitionerIdsOfBusiness(db: DbOrTx, businessAccountId: number, ids: number[]): Promise<number[]> {
  const found = await db.select({ id: practitioners.id }).from(practitioners).where(and(
    eq(practitioners.business_account_id, businessAccountId), inArray(practitioners.id, ids)));
  return found.map((row) => row.id);
}

export async function insertBusinessAccount(tx: DbOrTx, name: string, timeZone: string): Promise<BusinessAccountRow> {
  const [business] = await tx.insert(businessAccounts).values({ name, time_zone: timeZone }).returning();
  return business;
}
