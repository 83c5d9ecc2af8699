// The business's time zone, read where days and clocks are counted. It sits below the modules so that every one of
// them may ask, including those the business-account module itself builds on.
import { eq } from 'drizzle-orm';
import type { DbOrTx } from './client';
import { businessAccounts } from './schema';

/** The business's time zone: its days, clocks and reports are counted in it. */
export async function businessTimeZone(db: DbOrTx, businessAccountId: number): Promise<string> {
  const [row] = await db.select({ timeZone: businessAccounts.time_zone }).from(businessAccounts).where(eq(businessAccounts.id, businessAccountId));
  if (!row) throw new Error(`business account ${businessAccountId} not found`);
  return row.timeZone;
}
