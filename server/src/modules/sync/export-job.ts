// An export: writes local appointment times and practitioners that differ from what was last synced back to the PMS,
// one appointment at a time, guarded by the PMS's updated_at so a record changed in the PMS since it was imported is
// reported as a conflict instead of being overwritten.
import { and, eq, gte, inArray, isNull, lt, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { Temporal } from 'temporal-polyfill';
import type { DbOrTx } from '../../db/client';
import { appointments, resourceMaps, type SyncFilters } from '../../db/schema';
import { writeBackExportedVisit } from '../schedule';
import { businessTimeZone } from '../../db/business-time-zone';
import { appointmentSyncSnapshots, exportHistoryEntries } from '../../db/schema-sync';
import { saveResultSoFar } from '../../jobs/queue';
import type { JobRun } from '../../jobs/types';
import { PmsConflictError, PmsNotFoundError, PmsValidationError, type PmsAdapter, type PmsAppointment } from '../../pms';
import { diff, insertVersions } from './changes';
import { connectedAdapter, whodunnitOf } from './import-job';
import { saveSnapshots } from './resource-maps';
import { dayRangeToUtc } from './time-range';

export interface ExportConflict { appointment_id: number; external_id: string; reason: string }
export interface ExportCounts { exported: number; skipped_unchanged: number; skipped_not_in_pms: number; conflicts: ExportConflict[] }

/**
 * The times to write: the visit begins at the arrival time when one is set (that is what the optimizer and the
 * arrival-time editor change), keeping the booked duration.
 */
export function desiredTimes(row: { arrive_at: Date | null; starts_at: Date; ends_at: Date }) {
  const start = row.arrive_at ?? row.starts_at;
  const duration = row.ends_at.getTime() - row.starts_at.getTime();
  return { starts_at: start.toISOString(), ends_at: new Date(start.getTime() + duration).toISOString() };
}

type ExportRow = Awaited<ReturnType<typeof exportRows>>[number];

/** The business's visits an export of the range (UTC instants) and filters reads, with what the PMS last had of them. */
export function exportRows(db: DbOrTx, business: number, { from, to }: { from: string; to: string }, filters: SyncFilters) {
  const { practitioner_ids, appointment_type_ids, business_location_ids } = filters;
  const practitionerMaps = alias(resourceMaps, 'practitioner_maps');
  return db.select({
    id: appointments.id, starts_at: appointments.starts_at, ends_at: appointments.ends_at, arrive_at: appointments.arrive_at,
    practitioner_id: appointments.practitioner_id,
    map_id: resourceMaps.id, external_id: resourceMaps.external_id, external_updated_at: resourceMaps.external_updated_at,
    synced_starts_at: appointmentSyncSnapshots.starts_at, synced_ends_at: appointmentSyncSnapshots.ends_at,
    synced_practitioner_id: appointmentSyncSnapshots.practitioner_id, practitioner_external_id: practitionerMaps.external_id,
  }).from(appointments)
    .leftJoin(resourceMaps, and(eq(resourceMaps.resource_type, 'Appointment'), eq(resourceMaps.resource_id, appointments.id), eq(resourceMaps.business_account_id, business)))
    .leftJoin(appointmentSyncSnapshots, eq(appointmentSyncSnapshots.appointment_id, appointments.id))
    .leftJoin(practitionerMaps, and(
      eq(practitionerMaps.resource_type, 'Practitioner'), eq(practitionerMaps.resource_id, appointments.practitioner_id), eq(practitionerMaps.business_account_id, business),
    ))
    .where(and(
      eq(appointments.business_account_id, business), isNull(appointments.cancelled_at),
      gte(appointments.starts_at, new Date(from)), lt(appointments.starts_at, new Date(to)),
      practitioner_ids.length ? inArray(appointments.practitioner_id, practitioner_ids) : undefined,
      appointment_type_ids.length ? inArray(appointments.appointment_type_id, appointment_type_ids) : undefined,
      business_location_ids.length ? inArray(appointments.business_location_id, business_location_ids) : undefined,
    )).orderBy(appointments.starts_at, appointments.id);
}

/** Reassigned here (an optimisation, a move by hand) since the PMS last had it. */
const isReassigned = (row: ExportRow) => row.synced_practitioner_id !== null && row.synced_practitioner_id !== row.practitioner_id;

/** Whether the export would write the visit: the PMS has it, with another time or practitioner than Rounds. */
export function needsExport(row: ExportRow): boolean {
  if (!row.external_id || !row.map_id) return false;
  const wanted = desiredTimes(row);
  const sameTimes = row.synced_starts_at && row.synced_ends_at
    && row.synced_starts_at.toISOString() === wanted.starts_at && row.synced_ends_at.toISOString() === wanted.ends_at;
  return !sameTimes || isReassigned(row);
}

export async function runExport(run: JobRun): Promise<ExportCounts> {
  const { ctx, job, signal } = run;
  const db = ctx.db;
  const business = job.business_account_id;
  const whodunnit = whodunnitOf('Export', job);
  const adapter = await connectedAdapter(run);
  const timeZone = await businessTimeZone(run.ctx.db, run.job.business_account_id);
  const { from, to } = dayRangeToUtc(job.start_date!, job.end_date!, timeZone);
  const previous = job.result as Partial<ExportCounts> | null;
  const counts: ExportCounts = { exported: previous?.exported ?? 0, skipped_unchanged: 0, skipped_not_in_pms: 0, conflicts: [] };
  const rows = await exportRows(db, business, { from, to }, job.filters);

  for (const row of rows) {
    signal.throwIfAborted();
    if (!row.external_id || !row.map_id) {
      counts.skipped_not_in_pms += 1;
      continue;
    }
    const wanted = desiredTimes(row);
    const reassigned = isReassigned(row);
    if (!needsExport(row)) {
      counts.skipped_unchanged += 1;
      continue;
    }
    if (reassigned && !row.practitioner_external_id) {
      counts.conflicts.push({
        appointment_id: row.id, external_id: row.external_id,
        reason: 'Its new practitioner is not in the practice management system, so the change was not exported.',
      });
      continue;
    }
    const written = await writeTimes(adapter, row.external_id, {
      ...wanted, ...(reassigned ? { practitioner_id: row.practitioner_external_id! } : {}),
    }, row.external_updated_at, signal);
    if ('conflict' in written) {
      counts.conflicts.push({ appointment_id: row.id, external_id: row.external_id, reason: written.conflict });
      continue;
    }
    await db.transaction(async (tx) => {
      await run.guard(tx);
      const [current] = await tx.select().from(appointments).where(eq(appointments.id, row.id));
      // The practitioner the PMS now has, as the local one (the one sent, unless the PMS did otherwise).
      const [practitionerMap] = await tx.select({ id: resourceMaps.resource_id }).from(resourceMaps).where(and(
        eq(resourceMaps.business_account_id, business), eq(resourceMaps.resource_type, 'Practitioner'),
        eq(resourceMaps.external_id, written.appointment.practitioner_id),
      ));
      const practitionerId = practitionerMap?.id ?? row.practitioner_id;
      const next = {
        starts_at: new Date(written.appointment.starts_at), ends_at: new Date(written.appointment.ends_at), practitioner_id: practitionerId,
      };
      const changes = current ? diff(current as unknown as Record<string, unknown>, next) : {};
      if (current && Object.keys(changes).length > 0) {
        await writeBackExportedVisit(tx, row.id, next);
        // The PMS's one start field now holds the planned arrival; the client's agreed time stays (ADR 0023).
        const reason = changes.starts_at ? `Exported the planned arrival as the start in the practice management system; the client's agreed time is unchanged (${clockIn(current.agreed_starts_at, timeZone)}).` : null;
        await insertVersions(tx, business, whodunnit, [{ itemType: 'Appointment', itemId: row.id, event: 'update', changes, reason }]);
      }
      await tx.update(resourceMaps).set({ external_updated_at: new Date(written.appointment.updated_at), external_object_synced_at: sql`now()` })
        .where(eq(resourceMaps.id, row.map_id!));
      await saveSnapshots(tx, business, [{
        appointmentId: row.id, startsAt: written.appointment.starts_at, endsAt: written.appointment.ends_at, practitionerId,
      }]);
      await tx.insert(exportHistoryEntries).values({ business_account_id: business, appointment_id: row.id, export_id: job.id, author_full_name: whodunnit });
      counts.exported += 1;
      await saveResultSoFar(tx, job.id, { ...counts });
    });
  }
  return counts;
}

const clockIn = (instant: Date, timeZone: string) =>
  Temporal.Instant.fromEpochMilliseconds(instant.getTime()).toZonedDateTimeISO(timeZone).toPlainTime().toString({ smallestUnit: 'minute' });

async function writeTimes(
  adapter: PmsAdapter, externalId: string, wanted: { starts_at: string; ends_at: string; practitioner_id?: string }, expected: Date | null,
  signal: AbortSignal,
): Promise<{ appointment: PmsAppointment } | { conflict: string }> {
  try {
    const appointment = await adapter.updateAppointmentTimes(externalId, {
      ...wanted, expectedUpdatedAt: expected?.toISOString(),
    }, { signal });
    return { appointment };
  } catch (error) {
    if (error instanceof PmsConflictError) {
      // A previous attempt of this export may have written it already and died before recording it.
      const current = await adapter.getIndividualAppointment(externalId, { signal });
      if (Date.parse(current.starts_at) === Date.parse(wanted.starts_at) && Date.parse(current.ends_at) === Date.parse(wanted.ends_at)
        && (wanted.practitioner_id === undefined || current.practitioner_id === wanted.practitioner_id)
        && !current.cancelled_at && !current.archived_at && !current.deleted) {
        return { appointment: current };
      }
      const what = current.deleted ? 'was deleted' : current.cancelled_at ? 'was cancelled' : current.archived_at ? 'was archived' : 'changed';
      return { conflict: `The appointment ${what} in the practice management system after it was imported (at ${error.actualUpdatedAt}); it was not overwritten. Import again, then export.` };
    }
    if (error instanceof PmsNotFoundError) return { conflict: 'The appointment no longer exists in the practice management system.' };
    if (error instanceof PmsValidationError) {
      const fields = Object.entries(error.errors).map(([field, problem]) => `${field} ${problem}`).join('; ');
      return { conflict: `The practice management system refused the new ${wanted.practitioner_id === undefined ? 'times' : 'times or practitioner'}: ${fields || error.message}` };
    }
    throw error;
  }
}
