// Applies a page of PMS patients to clients, by external id, with change-log rows for every change.
import { inArray } from 'drizzle-orm';
import { clients } from '../../db/schema';
import { geocodeBrisbaneAddress } from '../../geo/brisbane-gazetteer';
import type { Tx } from '../../jobs/queue';
import type { PmsPatient } from '../../pms';
import { bulkInsert, reserveIds } from '../../db/bulk';
import { creation, diff, insertVersions, type VersionRow } from './changes';
import { insertMaps, mapsForExternalIds, touchMaps } from './resource-maps';

const CLIENT_COLUMNS = {
  id: 'integer', business_account_id: 'integer', first_name: 'text', last_name: 'text', dob: 'date', email: 'text', phone_numbers: 'jsonb',
  address_1: 'text', address_2: 'text', city: 'text', state: 'text', post_code: 'text', country: 'text', time_zone: 'text',
  lat: 'double precision', lng: 'double precision',
};

export type ClientValues = Omit<typeof clients.$inferInsert, 'id' | 'business_account_id' | 'created_at' | 'updated_at' | 'availability'>;

export function clientValuesOf(patient: PmsPatient): ClientValues {
  const point = patient.latitude !== null && patient.longitude !== null
    ? { lat: patient.latitude, lng: patient.longitude }
    : geocodeBrisbaneAddress({ address_1: patient.address_1, address_2: patient.address_2, city: patient.city, post_code: patient.post_code });
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
    lat: point?.lat ?? null,
    lng: point?.lng ?? null,
  };
}

export async function applyPatients(tx: Tx, businessAccountId: number, whodunnit: string, patients: PmsPatient[]) {
  const maps = await mapsForExternalIds(tx, businessAccountId, 'Client', patients.map((p) => p.external_id));
  const localIds = [...maps.values()].map((map) => map.resource_id);
  const current = new Map((localIds.length ? await tx.select().from(clients).where(inArray(clients.id, localIds)) : []).map((row) => [row.id, row]));
  const versionRows: VersionRow[] = [];
  const touched: { id: number; externalUpdatedAt: string | null }[] = [];
  const fresh: { patient: PmsPatient; values: ClientValues }[] = [];
  let updated = 0;
  const seen = new Set<string>();
  for (const patient of patients) {
    if (seen.has(patient.external_id)) continue;
    seen.add(patient.external_id);
    const values = clientValuesOf(patient);
    const map = maps.get(patient.external_id);
    const row = map ? current.get(map.resource_id) : undefined;
    if (!map || !row) {
      if (!map) fresh.push({ patient, values });
      continue;
    }
    const changes = diff(row as unknown as Record<string, unknown>, values as Record<string, unknown>);
    if (Object.keys(changes).length > 0) {
      await tx.update(clients).set({ ...values, updated_at: new Date() }).where(inArray(clients.id, [row.id]));
      versionRows.push({ itemType: 'Client', itemId: row.id, event: 'update', changes });
      updated += 1;
    }
    touched.push({ id: map.id, externalUpdatedAt: patient.updated_at });
  }
  if (fresh.length > 0) {
    const ids = await reserveIds(tx, 'clients', fresh.length);
    await bulkInsert(tx, 'clients', CLIENT_COLUMNS, fresh.map(({ values }, index) => ({ ...values, id: ids[index], business_account_id: businessAccountId })));
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
