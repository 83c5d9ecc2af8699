// Pulls the PMS's reference data — businesses (→ business locations), practitioners and appointment types — and
// upserts it by external id, one transaction per list.
import { eq, inArray } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { businessLocations, resourceMaps } from '../../db/schema';
import { findAppointmentTypeRow, insertAppointmentTypeFromPms, updateAppointmentTypeFromPms } from '../appointment-types';
import { findBusinessLocationRow, insertBusinessLocationFromPms, updateBusinessLocationFromPms } from '../business-locations';
import { findPractitionerRow, insertPractitionerFromPms, updatePractitionerFromPms } from '../practitioners';
import { collectPages, type PmsAdapter, type PmsBusiness, type PmsCallOptions } from '../../pms';
import { diff } from './changes';
import type { Placement } from './clients-upsert';
import { planPoint, pointToWrite, type PointFields } from './places';
import { insertMaps, mapsForExternalIds, touchMaps, type ResourceType } from './resource-maps';

export interface ReferenceCounts { business_locations: number; practitioners: number; appointment_types: number; warnings: string[] }

interface Upsertable<Values> {
  externalId: string;
  updatedAt: string;
  /** What the PMS owns: written on insert, and on every import that finds them changed. */
  values: Values;
}

/** One reference table's reads and writes, as its owning module offers them. */
interface ReferenceRows<Values> {
  find(tx: Tx, id: number): Promise<Record<string, unknown> | undefined>;
  /** Writes only `values`: every other column (a practitioner's places, hours, time zone…, which Rounds keeps) stays. */
  update(tx: Tx, id: number, values: Values): Promise<void>;
  insert(tx: Tx, values: Values): Promise<number>;
}

/** Upsert by external id for the small reference tables: inserts unmapped records, updates changed ones. */
async function upsertReference<Values extends Record<string, unknown>>(
  tx: Tx, businessAccountId: number, type: ResourceType, rows: ReferenceRows<Values>, records: Upsertable<Values>[],
): Promise<number> {
  const maps = await mapsForExternalIds(tx, businessAccountId, type, records.map((r) => r.externalId));
  const touched: { id: number; externalUpdatedAt: string | null }[] = [];
  const created: { resourceId: number; externalId: string; externalUpdatedAt: string | null }[] = [];
  for (const record of records) {
    const map = maps.get(record.externalId);
    if (map) {
      const current = await rows.find(tx, map.resource_id);
      if (current && Object.keys(diff(current, record.values)).length > 0) await rows.update(tx, map.resource_id, record.values);
      if (current) {
        touched.push({ id: map.id, externalUpdatedAt: record.updatedAt });
        continue;
      }
    }
    const id = await rows.insert(tx, record.values);
    if (map) {
      // The local row was deleted: point the existing map at the new one.
      await tx.update(resourceMaps).set({ resource_id: id, external_updated_at: new Date(record.updatedAt), external_object_synced_at: new Date() })
        .where(eq(resourceMaps.id, map.id));
    } else {
      created.push({ resourceId: id, externalId: record.externalId, externalUpdatedAt: record.updatedAt });
    }
  }
  await touchMaps(tx, touched);
  await insertMaps(tx, businessAccountId, type, created);
  return records.length;
}

/**
 * The point of each business location (by external id), geocoded before the transaction when its address is new,
 * moved or placed too coarsely so far (rules in ./places.ts); business locations have no manual pin.
 */
async function placeBusinesses(db: Db, businessAccountId: number, placement: Placement, records: PmsBusiness[]): Promise<Map<string, PointFields>> {
  const maps = await mapsForExternalIds(db, businessAccountId, 'BusinessLocation', records.map((b) => b.external_id));
  const ids = [...maps.values()].map((map) => map.resource_id);
  const rows = new Map((ids.length ? await db.select().from(businessLocations).where(inArray(businessLocations.id, ids)) : []).map((row) => [row.id, row]));
  const currentOf = (record: PmsBusiness) => {
    const map = maps.get(record.external_id);
    return map ? rows.get(map.resource_id) : undefined;
  };
  const plans = records.map((record) => planPoint(record, currentOf(record), placement.policy, placement.batch));
  const wanted = records.filter((_, index) => plans[index].action === 'geocode');
  const found = await placement.batch.resolve(wanted);
  const geocoded = new Map(wanted.map((record, index) => [record.external_id, found[index]]));
  return new Map(records.map((record, index) => [
    record.external_id, pointToWrite(plans[index], record, currentOf(record), geocoded.get(record.external_id), placement.policy),
  ]));
}

export async function syncReferenceData(
  db: Db, adapter: PmsAdapter, businessAccountId: number, timeZone: string,
  options: PmsCallOptions & { guard?: (tx: Tx) => Promise<void>; placement: Placement },
): Promise<ReferenceCounts> {
  const warnings: string[] = [];
  const note = (invalid: { resource: string; external_id: string | null; problems: string[] }[]) => {
    for (const record of invalid) warnings.push(`${record.resource} ${record.external_id ?? '(no id)'} skipped: ${record.problems.join('; ')}`);
  };

  const businesses = await collectPages(adapter.listBusinesses(options));
  note(businesses.invalidRecords);
  const practitionerList = await collectPages(adapter.listPractitioners(options));
  note(practitionerList.invalidRecords);
  const typeList = await collectPages(adapter.listAppointmentTypes(options));
  note(typeList.invalidRecords);
  // Each practitioner's appointment types (their qualifications), read before the transaction as the lists are: a read
  // that fails fails the import before anything is written.
  const deliveredTypes = new Map<string, string[]>();
  for (const practitioner of practitionerList.records) {
    const delivered = await collectPages(adapter.listPractitionerAppointmentTypes(practitioner.external_id, options));
    note(delivered.invalidRecords);
    deliveredTypes.set(practitioner.external_id, delivered.records.map((type) => type.external_id));
  }
  const points = await placeBusinesses(db, businessAccountId, options.placement, businesses.records);

  return db.transaction(async (tx) => {
    await options.guard?.(tx);
    const locations = await upsertReference(tx, businessAccountId, 'BusinessLocation', {
      find: findBusinessLocationRow,
      update: updateBusinessLocationFromPms,
      insert: (tx, values) => insertBusinessLocationFromPms(tx, businessAccountId, values),
    }, businesses.records.map((b) => ({
      externalId: b.external_id,
      updatedAt: b.updated_at,
      values: {
        name: b.name, address_1: b.address_1, address_2: b.address_2, city: b.city, state: b.state, post_code: b.post_code,
        country: b.country, ...points.get(b.external_id)!,
      },
    })));
    const types = await upsertReference(tx, businessAccountId, 'AppointmentType', {
      find: findAppointmentTypeRow,
      update: updateAppointmentTypeFromPms,
      insert: (tx, values) => insertAppointmentTypeFromPms(tx, businessAccountId, values),
    }, typeList.records.map((t) => ({
      externalId: t.external_id,
      updatedAt: t.updated_at,
      values: { name: t.name, duration: t.duration_in_minutes > 0 ? t.duration_in_minutes : 60, color: t.color },
    })));
    // Their appointment types as local ids, written with the practitioner (a type the PMS no longer lists goes; one
    // not imported, being archived, is left out).
    const typeMaps = await mapsForExternalIds(tx, businessAccountId, 'AppointmentType', [...new Set([...deliveredTypes.values()].flat())]);
    const localTypeIds = (externalId: string) => [...new Set((deliveredTypes.get(externalId) ?? [])
      .flatMap((type) => { const map = typeMaps.get(type); return map ? [map.resource_id] : []; }))].sort((a, b) => a - b);
    const staff = await upsertReference(tx, businessAccountId, 'Practitioner', {
      find: findPractitionerRow,
      update: updatePractitionerFromPms,
      // A new practitioner works in the business's time zone until an admin says otherwise (PATCH /practitioners/{id}).
      insert: (tx, values) => insertPractitionerFromPms(tx, businessAccountId, values, timeZone),
    }, practitionerList.records.map((p) => ({
      externalId: p.external_id,
      updatedAt: p.updated_at,
      values: {
        first_name: p.first_name ?? p.full_name, last_name: p.last_name ?? '', profession: p.designation, active: p.active,
        pms_appointment_type_ids: localTypeIds(p.external_id),
      },
    })));
    return { business_locations: locations, practitioners: staff, appointment_types: types, warnings };
  });
}
