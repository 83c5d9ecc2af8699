// Applies a page of PMS patients to clients, by external id, with change-log rows for every change. Their points are
// geocoded first, outside the page's transaction (placePatients; rules in ./places.ts).
import { inArray } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { clients } from '../../db/schema';
import type { PointBatch } from '../../geo/service';
import type { GeoPoint } from '../../geo/types';
import type { PmsPatient } from '../../pms';
import { upsertImportedClients, type ImportedClient } from '../clients';
import { creation, diff, insertVersions, type VersionRow } from './changes';
import { MANUAL_PIN_REPLACED, planPoint, pointToWrite, sameAddress, type PlacePolicy, type PointFields } from './places';
import { insertMaps, mapsForExternalIds, touchMaps } from './resource-maps';

/** How an import places its clients: the policy for this provider and the batch that geocodes for it. */
export interface Placement {
  policy: PlacePolicy;
  batch: PointBatch;
}

/** A client's address and point, as the placing rules read them. */
export const STORED_PLACE = {
  id: clients.id, address_1: clients.address_1, address_2: clients.address_2, city: clients.city, state: clients.state,
  post_code: clients.post_code, country: clients.country, lat: clients.lat, lng: clients.lng, geo_precision: clients.geo_precision,
  geo_source: clients.geo_source, geo_manual: clients.geo_manual,
};

/**
 * Geocodes the patients of a page whose point the import will need (new, moved, or placed too coarsely so far), before
 * the page's transaction: an online geocoder may take a while. Answers the points by external id.
 */
export async function placePatients(db: Db, businessAccountId: number, placement: Placement, patients: PmsPatient[]): Promise<Map<string, GeoPoint | null>> {
  const maps = await mapsForExternalIds(db, businessAccountId, 'Client', patients.map((p) => p.external_id));
  const localIds = [...maps.values()].map((map) => map.resource_id);
  const rows = new Map((localIds.length ? await db.select(STORED_PLACE).from(clients).where(inArray(clients.id, localIds)) : []).map((row) => [row.id, row]));
  const wanted = patients.filter((patient) => {
    const map = maps.get(patient.external_id);
    const row = map ? rows.get(map.resource_id) : undefined;
    return planPoint(patient, row, placement.policy, placement.batch).action === 'geocode';
  });
  const points = await placement.batch.resolve(wanted);
  return new Map(wanted.map((patient, index) => [patient.external_id, points[index]]));
}

export function clientValuesOf(patient: PmsPatient, point: PointFields & { geo_manual: boolean }): ImportedClient {
  return {
    first_name: patient.first_name ?? patient.full_name,
    last_name: patient.last_name ?? '',
    dob: patient.dob,
    email: patient.email,
    phone_numbers: patient.phone_numbers.map((phone) => ({ number: phone.number, phone_type: phone.type })),
    address_1: patient.address_1,
    address_2: patient.address_2,
    city: patient.city,
    state: patient.state,
    post_code: patient.post_code,
    country: patient.country,
    time_zone: patient.time_zone,
    ...point,
  };
}

/** Applies a page of patients; `points` are placePatients' answers for the same page. */
export async function applyPatients(
  tx: Tx, businessAccountId: number, whodunnit: string, patients: PmsPatient[], placement: Placement, points: Map<string, GeoPoint | null>,
) {
  const maps = await mapsForExternalIds(tx, businessAccountId, 'Client', patients.map((p) => p.external_id));
  const localIds = [...maps.values()].map((map) => map.resource_id);
  const current = new Map((localIds.length ? await tx.select().from(clients).where(inArray(clients.id, localIds)) : []).map((row) => [row.id, row]));
  const versionRows: VersionRow[] = [];
  const touched: { id: number; externalUpdatedAt: string | null }[] = [];
  const changed: { id: number; values: ImportedClient }[] = [];
  const fresh: { patient: PmsPatient; values: ImportedClient }[] = [];
  let updated = 0;
  const seen = new Set<string>();
  for (const patient of patients) {
    if (seen.has(patient.external_id)) continue;
    seen.add(patient.external_id);
    const map = maps.get(patient.external_id);
    const row = map ? current.get(map.resource_id) : undefined;
    const plan = planPoint(patient, row, placement.policy, placement.batch);
    const point = pointToWrite(plan, patient, row, points.get(patient.external_id), placement.policy);
    const values = clientValuesOf(patient, { ...point, geo_manual: plan.action === 'keep' && (row?.geo_manual ?? false) });
    if (!map || !row) {
      if (!map) fresh.push({ patient, values });
      continue;
    }
    const changes = diff(row as unknown as Record<string, unknown>, values as Record<string, unknown>);
    if (Object.keys(changes).length > 0) {
      changed.push({ id: row.id, values });
      const replacedPin = row.geo_manual && !values.geo_manual && !sameAddress(row, patient);
      versionRows.push({ itemType: 'Client', itemId: row.id, event: 'update', changes, reason: replacedPin ? MANUAL_PIN_REPLACED : null });
      updated += 1;
    }
    touched.push({ id: map.id, externalUpdatedAt: patient.updated_at });
  }
  const ids = await upsertImportedClients(tx, businessAccountId, { changed, fresh: fresh.map(({ values }) => values) });
  if (fresh.length > 0) {
    const inserted = ids.map((id) => ({ id }));
    await insertMaps(tx, businessAccountId, 'Client', inserted.map((row, index) => ({
      resourceId: row.id, externalId: fresh[index].patient.external_id, externalUpdatedAt: fresh[index].patient.updated_at,
    })));
    versionRows.push(...inserted.map((row, index) => ({ itemType: 'Client' as const, itemId: row.id, event: 'create' as const, changes: creation(fresh[index].values as Record<string, unknown>) })));
  }
  await touchMaps(tx, touched);
  await insertVersions(tx, businessAccountId, whodunnit, versionRows);
  return { created: fresh.length, updated };
}
