// resource_maps: which local record mirrors which PMS record, per business and resource type.
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { resourceMaps } from '../../db/schema';
import { bulkInsert } from '../../db/bulk';

export type ResourceType = 'Appointment' | 'Client' | 'Practitioner' | 'AppointmentType' | 'BusinessLocation';

export interface MapRow { id: number; resource_id: number; external_id: string; external_updated_at: Date | null }

/** external id → local id for every mapped record of a type (reference data is small). */
export async function externalToLocal(db: DbOrTx, businessAccountId: number, type: ResourceType): Promise<Map<string, number>> {
  const rows = await db.select({ resource_id: resourceMaps.resource_id, external_id: resourceMaps.external_id }).from(resourceMaps)
    .where(and(eq(resourceMaps.business_account_id, businessAccountId), eq(resourceMaps.resource_type, type)));
  return new Map(rows.map((row) => [row.external_id, row.resource_id]));
}

export async function mapsForExternalIds(db: DbOrTx, businessAccountId: number, type: ResourceType, externalIds: string[]): Promise<Map<string, MapRow>> {
  if (externalIds.length === 0) return new Map();
  const rows = await db.select({
    id: resourceMaps.id, resource_id: resourceMaps.resource_id, external_id: resourceMaps.external_id,
    external_updated_at: resourceMaps.external_updated_at,
  }).from(resourceMaps).where(and(
    eq(resourceMaps.business_account_id, businessAccountId), eq(resourceMaps.resource_type, type),
    inArray(resourceMaps.external_id, externalIds),
  ));
  return new Map(rows.map((row) => [row.external_id, row]));
}

export async function insertMaps(tx: DbOrTx, businessAccountId: number, type: ResourceType, rows: { resourceId: number; externalId: string; externalUpdatedAt: string | null }[]) {
  if (rows.length === 0) return;
  const now = new Date();
  await bulkInsert(tx, 'resource_maps', {
    business_account_id: 'integer', resource_type: 'text', resource_id: 'integer', external_id: 'text',
    external_object_synced_at: 'timestamptz', external_updated_at: 'timestamptz',
  }, rows.map((row) => ({
    business_account_id: businessAccountId,
    resource_type: type,
    resource_id: row.resourceId,
    external_id: row.externalId,
    external_object_synced_at: now,
    external_updated_at: row.externalUpdatedAt,
  })));
}

/** Marks mapped records as seen now, with the PMS's updated_at of each. */
export async function touchMaps(tx: DbOrTx, rows: { id: number; externalUpdatedAt: string | null }[]) {
  if (rows.length === 0) return;
  const values = sql.join(rows.map((row) => sql`(${row.id}::int, ${row.externalUpdatedAt}::timestamptz)`), sql`, `);
  await tx.execute(sql`
    UPDATE resource_maps AS m SET external_object_synced_at = now(), external_updated_at = v.updated_at
    FROM (VALUES ${values}) AS v(id, updated_at) WHERE m.id = v.id`);
}

/** What the PMS has for an appointment after an import or export: its times and (local id of) its practitioner. */
export interface SnapshotRow { appointmentId: number; startsAt: string; endsAt: string; practitionerId: number }

export async function saveSnapshots(tx: DbOrTx, business: number, rows: SnapshotRow[]) {
  if (rows.length === 0) return;
  await bulkInsert(tx, 'appointment_sync_snapshots', {
    appointment_id: 'integer', business_account_id: 'integer', starts_at: 'timestamptz', ends_at: 'timestamptz', practitioner_id: 'integer',
  }, rows.map((row) => ({
    appointment_id: row.appointmentId, business_account_id: business, starts_at: row.startsAt, ends_at: row.endsAt, practitioner_id: row.practitionerId,
  })),
  'ON CONFLICT (appointment_id) DO UPDATE SET starts_at = excluded.starts_at, ends_at = excluded.ends_at, practitioner_id = excluded.practitioner_id, synced_at = now()');
}
