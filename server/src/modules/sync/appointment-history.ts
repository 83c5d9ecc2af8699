// What the sync module knows about one appointment, for its extra details: the PMS record it mirrors and when it
// was imported and exported, for the extra details the sync handlers answer (with the appointments module's change log).
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { resourceMaps } from '../../db/schema';
import { exportHistoryEntries, importHistoryEntries } from '../../db/schema-sync';

export interface SyncHistoryEntry { timestamp: string; author_full_name: string | null }

export interface AppointmentSyncHistory {
  resource_map: { external_id: string; external_object_synced_at: string | null } | null;
  import_history: SyncHistoryEntry[];
  export_history: SyncHistoryEntry[];
}

export async function appointmentSyncHistory(db: Db, businessAccountId: number, appointmentId: number): Promise<AppointmentSyncHistory> {
  const [[map], imports, exports] = await Promise.all([
    db.select().from(resourceMaps).where(and(
      eq(resourceMaps.business_account_id, businessAccountId), eq(resourceMaps.resource_type, 'Appointment'), eq(resourceMaps.resource_id, appointmentId),
    )),
    db.select().from(importHistoryEntries)
      .where(and(eq(importHistoryEntries.business_account_id, businessAccountId), eq(importHistoryEntries.appointment_id, appointmentId)))
      .orderBy(asc(importHistoryEntries.created_at), asc(importHistoryEntries.id)),
    db.select().from(exportHistoryEntries)
      .where(and(eq(exportHistoryEntries.business_account_id, businessAccountId), eq(exportHistoryEntries.appointment_id, appointmentId)))
      .orderBy(asc(exportHistoryEntries.created_at), asc(exportHistoryEntries.id)),
  ]);
  return {
    resource_map: map ? { external_id: map.external_id, external_object_synced_at: map.external_object_synced_at?.toISOString() ?? null } : null,
    import_history: imports.map((entry) => ({ timestamp: entry.created_at.toISOString(), author_full_name: entry.author_full_name })),
    export_history: exports.map((entry) => ({ timestamp: entry.created_at.toISOString(), author_full_name: entry.author_full_name })),
  };
}
