// Practitioner queries: the business's practitioners with the colour each is shown in, and the admin's colour choice.
import { and, asc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import { practitioners } from '../../db/schema';
import type { DbOrTx } from '../../db/client';

export type PractitionerRow = typeof practitioners.$inferSelect;
export type PractitionerWithColor = PractitionerRow & { shown_color: string };

/**
 * A practitioner row with the colour it is shown in (lanes, map): the admin's choice, else one derived from the
 * practitioner's rank in the business. The rule is the database function practitioner_color() (migration 0042), which
 * the appointments' practitioners (appointments/repository.ts) read too.
 */
const practitionerWithColor = { ...getTableColumns(practitioners), shown_color: sql<string>`practitioner_color(${practitioners.id})` };

/** The business's practitioners by name; `practitionerIds` (when given) limits them to those. */
export function listPractitioners(db: DbOrTx, businessAccountId: number, practitionerIds: number[] | null): Promise<PractitionerWithColor[]> {
  return db.select(practitionerWithColor).from(practitioners).where(and(
    eq(practitioners.business_account_id, businessAccountId),
    practitionerIds ? inArray(practitioners.id, practitionerIds.length ? practitionerIds : [0]) : undefined,
  )).orderBy(asc(practitioners.first_name), asc(practitioners.last_name));
}

/** Sets a practitioner's chosen colour (null: the derived one); false when the business has no such practitioner. */
export async function setPractitionerColor(db: DbOrTx, businessAccountId: number, id: number, color: string | null): Promise<boolean> {
  const updated = await db.update(practitioners).set({ color, updated_at: new Date() })
    .where(and(eq(practitioners.id, id), eq(practitioners.business_account_id, businessAccountId)))
    .returning({ id: practitioners.id });
  return updated.length > 0;
}

export async function findPractitionerWithColor(db: DbOrTx, id: number): Promise<PractitionerWithColor | undefined> {
  const [row] = await db.select(practitionerWithColor).from(practitioners).where(eq(practitioners.id, id));
  return row;
}
