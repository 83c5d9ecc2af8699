// Business location queries.
import { asc, eq } from 'drizzle-orm';
import { businessLocations } from '../../db/schema';
import type { DbOrTx } from '../../db/client';

export type BusinessLocationRow = typeof businessLocations.$inferSelect;

/** The business's locations by name. */
export function listBusinessLocations(db: DbOrTx, businessAccountId: number): Promise<BusinessLocationRow[]> {
  return db.select().from(businessLocations)
    .where(eq(businessLocations.business_account_id, businessAccountId)).orderBy(asc(businessLocations.name));
}
