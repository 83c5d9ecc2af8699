// Practitioner queries: the business's practitioners with the colour each is shown in, their working data (which
// Rounds keeps: places, hours, break, skills, limits, time zone, colour) and the locations their places name.
import { and, asc, eq, getTableColumns, gte, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import { appointments, practitioners } from '../../db/schema';
import type { DbOrTx } from '../../db/client';
import { businessLocationAddress, listBusinessLocations } from '../business-locations';
import { listCustomLocations } from '../custom-locations';
import type { PlaceSources } from './working-data';

export type PractitionerRow = typeof practitioners.$inferSelect;
export type PractitionerWithColor = PractitionerRow & { shown_color: string };
/** The columns an admin sets on a practitioner (never written by an import). */
export type PractitionerWorkingDataChanges = Partial<Pick<PractitionerRow,
  'color' | 'time_zone' | 'home_address' | 'home_lat' | 'home_lng' | 'home_geo_precision' | 'home_geo_source'
  | 'start_place_kind' | 'start_business_location_id' | 'start_custom_location_id'
  | 'end_place_kind' | 'end_business_location_id' | 'end_custom_location_id'
  | 'working_hours' | 'break_earliest' | 'break_latest' | 'break_minutes'
  | 'skill_appointment_type_ids' | 'max_visits' | 'max_travel_minutes'>>;

/**
 * A practitioner row with the colour it is shown in (lanes, map): the admin's choice, else one derived from the
 * practitioner's rank in the business. The rule is the database function practitioner_color() (migration 0042), which
 * the appointments' practitioners (appointments/repository.ts) read too; a list reads every colour of the business at
 * once from practitioner_colors() (migration 0057), the same rule with the rank counted once.
 */
const colorsOf = (db: DbOrTx, businessAccountId: number) => db
  .select({ id: sql<number>`id`.as('color_practitioner_id'), color: sql<string>`color`.as('shown_color') })
  .from(sql`practitioner_colors(${businessAccountId})`).as('colors');

/** The business's practitioners (of `practitionerIds` when given; active or inactive ones with `active`). */
const practitionersOf = (businessAccountId: number, practitionerIds: number[] | null, active?: boolean) => and(
  eq(practitioners.business_account_id, businessAccountId),
  practitionerIds ? inArray(practitioners.id, practitionerIds.length ? practitionerIds : [0]) : undefined,
  active === undefined ? undefined : eq(practitioners.active, active),
);
const byName = [asc(practitioners.first_name), asc(practitioners.last_name), asc(practitioners.id)];

/** The business's practitioners by name; `practitionerIds` (when given) limits them to those, `active` to active or inactive ones. */
export function listPractitioners(db: DbOrTx, businessAccountId: number, practitionerIds: number[] | null, active?: boolean): Promise<PractitionerWithColor[]> {
  const colors = colorsOf(db, businessAccountId);
  return db.select({ ...getTableColumns(practitioners), shown_color: colors.color }).from(practitioners)
    .innerJoin(colors, eq(colors.id, practitioners.id)).where(practitionersOf(businessAccountId, practitionerIds, active))
    .orderBy(...byName);
}

/** As listPractitioners, without the colour they are shown in (its ranking reads every practitioner of the business). */
export function listPractitionerRows(db: DbOrTx, businessAccountId: number, practitionerIds: number[] | null = null): Promise<PractitionerRow[]> {
  return db.select().from(practitioners).where(practitionersOf(businessAccountId, practitionerIds)).orderBy(...byName);
}

/** The business's practitioners among `ids`, locked for the rest of the transaction (in id order, so writers never deadlock). */
export function lockPractitioners(tx: DbOrTx, businessAccountId: number, ids: number[]): Promise<PractitionerRow[]> {
  return tx.select().from(practitioners)
    .where(and(eq(practitioners.business_account_id, businessAccountId), inArray(practitioners.id, ids.length ? ids : [0])))
    .orderBy(asc(practitioners.id)).for('update');
}

/** The practitioners' visits on a route (not cancelled) that start from `from` on: read to warn of hours that no longer fit. */
export function listUpcomingRoutedVisits(db: DbOrTx, businessAccountId: number, practitionerIds: number[], from: Date) {
  return db.select({ practitioner_id: appointments.practitioner_id, starts_at: appointments.starts_at, ends_at: appointments.ends_at })
    .from(appointments)
    .where(and(
      eq(appointments.business_account_id, businessAccountId), inArray(appointments.practitioner_id, practitionerIds.length ? practitionerIds : [0]),
      isNotNull(appointments.route_id), isNull(appointments.cancelled_at), gte(appointments.starts_at, from),
    ));
}

/** Writes an admin's changes to practitioners' working data. */
export async function updatePractitionerWorkingData(tx: DbOrTx, ids: number[], changes: PractitionerWorkingDataChanges): Promise<void> {
  if (!ids.length || !Object.keys(changes).length) return;
  await tx.update(practitioners).set({ ...changes, updated_at: new Date() }).where(inArray(practitioners.id, ids));
}

/** Every business and custom location of the business, as the places a practitioner's start and end may name. */
export async function placeSourcesOf(db: DbOrTx, businessAccountId: number): Promise<PlaceSources> {
  const [locations, customs] = await Promise.all([listBusinessLocations(db, businessAccountId), listCustomLocations(db, businessAccountId)]);
  return {
    businessLocations: new Map(locations.map((l) => [l.id, { id: l.id, name: l.name, address: businessLocationAddress(l), lat: l.lat, lng: l.lng, geo_precision: l.geo_precision }])),
    customLocations: new Map(customs.map((c) => [c.id, { id: c.id, name: c.name, address: c.address || null, lat: c.lat, lng: c.lng, geo_precision: c.geo_precision }])),
  };
}

/** What the practice management system owns of a practitioner; the reference-data pull (sync) writes it. */
export type PractitionerFromPms = Pick<typeof practitioners.$inferInsert, 'first_name' | 'last_name' | 'profession' | 'active'>
  // The appointment types the PMS lists for them (local ids, sorted); left out when the import did not read them.
  & Partial<Pick<typeof practitioners.$inferInsert, 'pms_appointment_type_ids'>>;

/** A practitioner by id, as the reference-data pull compares it with the PMS's record. */
export async function findPractitionerRow(db: DbOrTx, id: number): Promise<PractitionerRow | undefined> {
  const [row] = await db.select().from(practitioners).where(eq(practitioners.id, id));
  return row;
}

/** Writes what the PMS says of a practitioner; what Rounds keeps (places, hours, break, skills, limits, time zone, colour) stays. */
export async function updatePractitionerFromPms(db: DbOrTx, id: number, values: PractitionerFromPms): Promise<void> {
  await db.update(practitioners).set({ ...values, updated_at: new Date() }).where(eq(practitioners.id, id));
}

/** A practitioner new from the PMS, working in `timeZone` until an admin says otherwise; answers its id. */
export async function insertPractitionerFromPms(db: DbOrTx, businessAccountId: number, values: PractitionerFromPms, timeZone: string): Promise<number> {
  const [row] = await db.insert(practitioners).values({ time_zone: timeZone, ...values, business_account_id: businessAccountId })
    .returning({ id: practitioners.id });
  return row.id;
}
