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

/** What the practice management system owns of a business location (and the point placed for its address); the reference-data pull (sync) writes it. */
export type BusinessLocationFromPms = Omit<typeof businessLocations.$inferInsert, 'id' | 'business_account_id' | 'created_at' | 'updated_at'>;

/** A business location by id, as the reference-data pull compares it with the PMS's record. */
export async function findBusinessLocationRow(db: DbOrTx, id: number): Promise<BusinessLocationRow | undefined> {
  const [row] = await db.select().from(businessLocations).where(eq(businessLocations.id, id));
  return row;
}

/** Writes what the PMS says of a business location. */
export async function updateBusinessLocationFromPms(db: DbOrTx, id: number, values: BusinessLocationFromPms): Promise<void> {
  await db.update(businessLocations).set({ ...values, updated_at: new Date() }).where(eq(businessLocations.id, id));
}

/** A business location new from the PMS; answers its id. */
export async function insertBusinessLocationFromPms(db: DbOrTx, businessAccountId: number, values: BusinessLocationFromPms): Promise<number> {
  const [row] = await db.insert(businessLocations).values({ ...values, business_account_id: businessAccountId }).returning({ id: businessLocations.id });
  return row.id;
}
