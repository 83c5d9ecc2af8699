// Custom location queries: the business's places that are neither clients nor business locations, and the
// practitioners whose start or end place each one is.
import { and, asc, eq, inArray, or } from 'drizzle-orm';
import { customLocations, practitioners } from '../../db/schema';
import type { DbOrTx } from '../../db/client';
import { databaseErrorCode, FOREIGN_KEY_VIOLATION, UNIQUE_VIOLATION } from '../../db/errors';

export type CustomLocationRow = typeof customLocations.$inferSelect;
export type CustomLocationChanges = Partial<Pick<CustomLocationRow, 'name' | 'address' | 'lat' | 'lng' | 'geo_precision' | 'geo_source'>>;
export interface CustomLocationUser { id: number; first_name: string; last_name: string; custom_location_id: number }

/** Whether `error` is the database refusing to delete a row still referenced (a practitioner's place). */
export function isStillReferenced(error: unknown): boolean {
  return databaseErrorCode(error) === FOREIGN_KEY_VIOLATION;
}

/** Whether `error` is the database refusing a second location of the same name (case aside) in the business. */
export function isDuplicateName(error: unknown): boolean {
  return databaseErrorCode(error) === UNIQUE_VIOLATION;
}

/** The business's custom locations by name. */
export function listCustomLocations(db: DbOrTx, businessAccountId: number): Promise<CustomLocationRow[]> {
  return db.select().from(customLocations).where(eq(customLocations.business_account_id, businessAccountId))
    .orderBy(asc(customLocations.name), asc(customLocations.id));
}

/** One of the business's custom locations; `lock` 'update' before changing it, 'key share' to keep it while a row refers to it. */
export async function findCustomLocation(db: DbOrTx, businessAccountId: number, id: number, lock?: 'update' | 'key share'): Promise<CustomLocationRow | undefined> {
  const query = db.select().from(customLocations).where(and(eq(customLocations.id, id), eq(customLocations.business_account_id, businessAccountId)));
  const [row] = lock ? await query.for(lock) : await query;
  return row;
}

export async function insertCustomLocation(db: DbOrTx, businessAccountId: number, values: Required<CustomLocationChanges>): Promise<CustomLocationRow> {
  const [row] = await db.insert(customLocations).values({ ...values, business_account_id: businessAccountId }).returning();
  return row;
}

export async function updateCustomLocation(db: DbOrTx, id: number, changes: CustomLocationChanges): Promise<CustomLocationRow> {
  const [row] = await db.update(customLocations).set({ ...changes, updated_at: new Date() }).where(eq(customLocations.id, id)).returning();
  return row;
}

export async function deleteCustomLocation(db: DbOrTx, id: number): Promise<void> {
  await db.delete(customLocations).where(eq(customLocations.id, id));
}

/** The practitioners whose start or end place is one of `ids`, once per location they use, by name. */
export async function practitionersUsing(db: DbOrTx, ids: number[]): Promise<CustomLocationUser[]> {
  if (!ids.length) return [];
  const rows = await db.select({
    id: practitioners.id, first_name: practitioners.first_name, last_name: practitioners.last_name,
    start: practitioners.start_custom_location_id, end: practitioners.end_custom_location_id,
  }).from(practitioners)
    .where(or(inArray(practitioners.start_custom_location_id, ids), inArray(practitioners.end_custom_location_id, ids)))
    .orderBy(asc(practitioners.first_name), asc(practitioners.last_name), asc(practitioners.id));
  return rows.flatMap((row) => {
    const used = new Set<number>();
    if (row.start !== null && ids.includes(row.start)) used.add(row.start);
    if (row.end !== null && ids.includes(row.end)) used.add(row.end);
    return [...used].map((custom_location_id) => ({ id: row.id, first_name: row.first_name, last_name: row.last_name, custom_location_id }));
  });
}
