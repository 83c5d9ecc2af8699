// Appointments booked in Rounds (the bookings module writes them to the PMS, ADR 0024) as the sync keeps them: the
// reference a booking puts in the PMS appointment's notes, the link from the local visit to the PMS's appointment, and
// an import that meets a booked appointment before its write linked it (it links it instead of importing a copy).
import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { appointments, resourceMaps } from '../../db/schema';
import { pmsWrites } from '../../db/schema-bookings';
import type { PmsAppointment } from '../../pms';
import { insertMaps, saveSnapshots, type ResourceType } from './resource-maps';

/** What a booking writes into the PMS appointment's notes, after the coordinator's own notes. */
export const bookingNote = (reference: string) => `Booked in Rounds (ref ${reference})`;

/** The booking reference in a PMS appointment's notes, or null. */
export function bookingReferenceIn(notes: string | null): string | null {
  return notes?.match(/Booked in Rounds \(ref (R-[A-Za-z0-9-]+)\)/)?.[1] ?? null;
}

/** A visit's notes without the booking's reference (what the coordinator wrote), or null when nothing else is left. */
export const notesWithoutBookingNote = (notes: string | null): string | null =>
  notes?.replace(/\s*Booked in Rounds \(ref R-[A-Za-z0-9-]+\)/g, '').trim() || null;

/**
 * Links a local visit to its PMS appointment (the map the import and export go by) and records what the PMS now has
 * of it (times, practitioner), so the export does not write it back. A visit already linked gets the PMS's updated_at.
 */
export async function linkAppointmentToPms(
  tx: DbOrTx, businessAccountId: number, appointmentId: number, record: Pick<PmsAppointment, 'external_id' | 'starts_at' | 'ends_at' | 'updated_at'>,
  practitionerId: number,
): Promise<void> {
  const updated = await tx.update(resourceMaps).set({ external_id: record.external_id, external_updated_at: new Date(record.updated_at), external_object_synced_at: new Date() })
    .where(and(eq(resourceMaps.business_account_id, businessAccountId), eq(resourceMaps.resource_type, 'Appointment'), eq(resourceMaps.resource_id, appointmentId)))
    .returning({ id: resourceMaps.id });
  if (updated.length === 0) {
    await insertMaps(tx, businessAccountId, 'Appointment', [{ resourceId: appointmentId, externalId: record.external_id, externalUpdatedAt: record.updated_at }]);
  }
  await saveSnapshots(tx, businessAccountId, [{ appointmentId, startsAt: record.starts_at, endsAt: record.ends_at, practitionerId }]);
}

/** The PMS id of a linked visit and the PMS's updated_at Rounds last read; undefined when it is not linked. */
export async function pmsLinkOf(db: DbOrTx, businessAccountId: number, appointmentId: number) {
  const [row] = await db.select({ externalId: resourceMaps.external_id, externalUpdatedAt: resourceMaps.external_updated_at }).from(resourceMaps)
    .where(and(eq(resourceMaps.business_account_id, businessAccountId), eq(resourceMaps.resource_type, 'Appointment'), eq(resourceMaps.resource_id, appointmentId)));
  return row;
}

/**
 * An import's unlinked PMS appointments whose notes carry the reference of one of the business's bookings not saved
 * yet: each is linked to the booking's visit (and its write saved) instead of being imported as a second visit.
 * Answers the external ids it linked.
 */
export async function linkBookedAppointments(tx: DbOrTx, businessAccountId: number, records: readonly PmsAppointment[]): Promise<Set<string>> {
  const byReference = new Map(records.flatMap((record) => {
    const reference = bookingReferenceIn(record.notes);
    return reference ? [[reference, record] as const] : [];
  }));
  if (byReference.size === 0) return new Set();
  const writes = await tx.select({ id: pmsWrites.id, reference: pmsWrites.reference, appointmentId: pmsWrites.appointment_id, practitionerId: appointments.practitioner_id })
    .from(pmsWrites).innerJoin(appointments, eq(appointments.id, pmsWrites.appointment_id))
    .where(and(eq(pmsWrites.business_account_id, businessAccountId), eq(pmsWrites.kind, 'create'), isNotNull(pmsWrites.appointment_id),
      inArray(pmsWrites.state, ['saving', 'failed']), inArray(pmsWrites.reference, [...byReference.keys()])));
  const linked = new Set<string>();
  for (const write of writes) {
    const record = byReference.get(write.reference)!;
    await linkAppointmentToPms(tx, businessAccountId, write.appointmentId!, record, write.practitionerId);
    await tx.update(pmsWrites).set({ state: 'saved', message: null, updated_at: new Date() }).where(eq(pmsWrites.id, write.id));
    linked.add(record.external_id);
  }
  return linked;
}

/** The PMS id of a local record (a practitioner, client, type, location), or undefined when the PMS has no copy of it. */
export async function externalIdOf(db: DbOrTx, businessAccountId: number, type: ResourceType, localId: number | null): Promise<string | undefined> {
  if (localId === null) return undefined;
  const [row] = await db.select({ externalId: resourceMaps.external_id }).from(resourceMaps)
    .where(and(eq(resourceMaps.business_account_id, businessAccountId), eq(resourceMaps.resource_type, type), eq(resourceMaps.resource_id, localId)));
  return row?.externalId;
}
