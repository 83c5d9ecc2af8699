// Business location queries.
import { and, asc, eq } from 'drizzle-orm';
import { businessLocations } from '../../db/schema';
import type { DbOrTx } from '../../db/client';

export type BusinessLocationRow = typeof businessLocations.$inferSelect;

/** The business's locations by name. */
export function listBusinessLocations(db: DbOrTx, businessAccountId: number): Promise<BusinessLocationRow[]> {
  return db.select().from(businessLocations)
    .where(eq(businessLocations.business_account_id, businessAccountId)).orderBy(asc(businessLocations.name));
}

/** One of the business's locations; `lock` 'key share' keeps it while a row being written refers to it. */
export async function findBusinessLocation(db: DbOrTx, businessAccountId: number, id: number, lock?: 'key share'): Promise<BusinessLocationRow | undefined> {
  const query = db.select().from(businessLocations)
    .where(and(eq(businessLocations.id, id), eq(businessLocations.business_account_id, businessAccountId)));
  const [row] = lock ? await query.for(lock) : await query;
  return row;
}
