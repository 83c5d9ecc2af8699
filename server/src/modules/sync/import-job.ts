// An import: reference data, changed patients, then the appointments of the range page by page (each page in one
// transaction), then cancelling local copies of appointments that vanished from the PMS. Idempotent: running it
// again changes nothing when the PMS did not change.
import { and, asc, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import { Temporal } from 'temporal-polyfill';
import { queryRows, type Tx } from '../../db/client';
import { appointments, clients, type SyncFilters } from '../../db/schema';
import { businessTimeZone } from '../../db/business-time-zone';
import { upsertImportedClients } from '../clients';
import { appointmentSyncSnapshots, syncCursors } from '../../db/schema-sync';
import { saveResultSoFar } from '../../jobs/queue';
import type { JobRun } from '../../jobs/types';
import { collectPages, ProviderAccountUnusableError, type PmsAdapter, type PmsAppointment, type PmsInvalidRecord, type PmsPage } from '../../pms';
import { adapterForAccount, findProviderAccount } from './pms-connection';
import { bulkInsert } from '../../db/bulk';
import { replaceImportedLeave, type ImportedBlock } from '../leave';
import { cancelVanishedVisits, markRoutesStale, upsertImportedVisits, type DayTouch, type ImportedVisit } from '../schedule';
import { creation, diff, insertVersions, type Changes, type VersionRow } from './changes';
import { applyPatients, placePatients, STORED_PLACE, type Placement } from './clients-upsert';
import { pointToWrite, worthRefining, type PointFields } from './places';
import { syncReferenceData } from './reference-sync';
import { externalToLocal, insertMaps, mapsForExternalIds, saveSnapshots, touchMaps, type SnapshotRow } from './resource-maps';
import { linkBookedAppointments } from './booked-appointments';
import { dayRangeToUtc } from './time-range';

export interface ImportCounts {
  appointments_created: number;
  appointments_updated: number;
  appointments_cancelled: number;
  appointments_unchanged: number;
  clients_created: number;
  clients_updated: number;
  /** Clients placed again on the map (a better geocoder answered, or the sandbox's synthetic point was replaced). */
  clients_placed: number;
  /** Practitioners' leave from the PMS's unavailable blocks of the range: added or changed, and removed. */
  leave_imported: number;
  leave_removed: number;
  records_skipped: number;
  warnings: string[];
}

const MAX_WARNINGS = 50;

export function whodunnitOf(kind: 'Import' | 'Export', job: { id: number; created_by_name: string | null; automatic: boolean }) {
  return `${kind} #${job.id}${job.created_by_name ? ` by ${job.created_by_name}` : job.automatic ? ' (automatic)' : ''}`;
}

/** The provider account and an adapter for it, or a clear error. */
export async function connectedAdapter(run: JobRun): Promise<PmsAdapter> {
  const account = await findProviderAccount(run.ctx.db, run.job.business_account_id);
  if (!account) throw new ProviderAccountUnusableError('The account setup is not complete: connect the practice management system first.');
  if (account.status === 'CONNECTION_ERROR') {
    throw new ProviderAccountUnusableError(account.last_error ?? 'The practice management system refused the API key. An admin needs to reconnect it in Settings → Provider account.');
  }
  return adapterForAccount(run.ctx, account, run.tuning);
}

/** How this job places addresses: the sandbox's synthetic streets only for the sandbox, one online budget per job. */
export function placementFor(run: JobRun, adapter: PmsAdapter): Placement {
  const sandbox = adapter.syntheticCoordinates;
  return {
    policy: { sandbox, online: run.ctx.geocoding.hasOnline },
    batch: run.ctx.geocoding.batch(run.job.business_account_id, { sandbox, signal: run.signal }),
  };
}

/** Local filter ids → external ids; null means "no filter", [] means "nothing can match". */
export async function externalFilters(run: JobRun, filters: SyncFilters) {
  const db = run.ctx.db;
  const business = run.job.business_account_id;
  const translate = async (type: 'Practitioner' | 'AppointmentType' | 'BusinessLocation', ids: number[]) => {
    if (!ids.length) return null;
    const wanted = new Set(ids);
    return [...(await externalToLocal(db, business, type)).entries()].filter(([, local]) => wanted.has(local)).map(([external]) => external);
  };
  return {
    practitionerIds: await translate('Practitioner', filters.practitioner_ids),
    appointmentTypeIds: await translate('AppointmentType', filters.appointment_type_ids),
    businessIds: await translate('BusinessLocation', filters.business_location_ids),
  };
}

/** Iterates pages while the next one is already being fetched, so applying a page overlaps the next request. */
async function* prefetched<T>(pages: AsyncIterable<PmsPage<T>>): AsyncGenerator<PmsPage<T>> {
  const iterator = pages[Symbol.asyncIterator]();
  let next = iterator.next();
  try {
    for (;;) {
      const current = await next;
      if (current.done) return;
      next = iterator.next();
      next.catch(() => undefined);
      yield current.value;
    }
  } finally {
    await iterator.return?.();
  }
}

export async function runImport(run: JobRun): Promise<ImportCounts> {
  const { ctx, job, signal } = run;
  const db = ctx.db;
  const business = job.business_account_id;
  const whodunnit = whodunnitOf('Import', job);
  const adapter = await connectedAdapter(run);
  const timeZone = await businessTimeZone(run.ctx.db, run.job.business_account_id);
  const counts: ImportCounts = {
    appointments_created: 0, appointments_updated: 0, appointments_cancelled: 0, appointments_unchanged: 0,
    clients_created: 0, clients_updated: 0, clients_placed: 0, leave_imported: 0, leave_removed: 0, records_skipped: 0, warnings: [],
    ...(job.result as Partial<ImportCounts> | null ?? {}),
  };
  // Unchanged and skipped are per run; restarting a job counts them again from zero.
  counts.appointments_unchanged = 0;
  counts.records_skipped = 0;
  counts.warnings = [];
  const warn = (message: string) => { if (counts.warnings.length < MAX_WARNINGS) counts.warnings.push(message); };
  const skip = (invalid: PmsInvalidRecord[]) => {
    counts.records_skipped += invalid.length;
    for (const record of invalid) warn(`${record.resource} ${record.external_id ?? '(no id)'} skipped: ${record.problems.join('; ')}`);
  };

  const placement = placementFor(run, adapter);
  const reference = await syncReferenceData(db, adapter, business, timeZone, { signal, guard: run.guard, placement });
  reference.warnings.forEach(warn);

  await pullChangedPatients(run, adapter, whodunnit, placement, counts, skip);
  await refineClientPoints(run, whodunnit, placement, counts);

  const filters = await externalFilters(run, job.filters);
  const nothingCanMatch = [filters.practitionerIds, filters.appointmentTypeIds, filters.businessIds].some((ids) => ids !== null && ids.length === 0);
  const { from, to } = dayRangeToUtc(job.start_date!, job.end_date!, timeZone);
  if (nothingCanMatch) {
    warn('The filters name records that are not in the practice management system; nothing was imported.');
    return counts;
  }

  const refs = {
    practitioners: await externalToLocal(db, business, 'Practitioner'),
    types: await externalToLocal(db, business, 'AppointmentType'),
    locations: await externalToLocal(db, business, 'BusinessLocation'),
  };
  const seen = new Set<string>();
  let sweepIsSafe = true;
  const pages = adapter.listIndividualAppointments({
    from, to, includeCancelledAndArchived: true, signal,
    practitionerIds: filters.practitionerIds ?? undefined,
    appointmentTypeIds: filters.appointmentTypeIds ?? undefined,
    businessIds: filters.businessIds ?? undefined,
  });
  for await (const page of prefetched(pages)) {
    skip(page.invalidRecords);
    for (const invalid of page.invalidRecords) {
      if (invalid.external_id) seen.add(invalid.external_id);
      else sweepIsSafe = false;
    }
    for (const record of page.records) seen.add(record.external_id);
    await fetchMissingPatients(run, adapter, whodunnit, placement, page.records, counts, skip);
    await db.transaction(async (tx) => {
      await run.guard(tx);
      await applyAppointmentPage(tx, business, job.id, whodunnit, page.records, refs, counts, warn, { timeZone, system: adapter.system });
      await saveResultSoFar(tx, job.id, { ...counts });
    });
  }

  if (sweepIsSafe) {
    // After a large first import the planner's statistics still describe near-empty tables (embedded PGlite has no
    // autovacuum), which turns the sweep's join into a nested loop over every row.
    if (counts.appointments_created > 200) await db.execute(sql`ANALYZE appointments, resource_maps`);
    await db.transaction(async (tx) => {
      await run.guard(tx);
      await cancelVanished(tx, business, job.id, whodunnit, { from, to, filters: job.filters, seen }, counts);
      await saveResultSoFar(tx, job.id, { ...counts });
    });
  } else {
    warn('Some appointments could not be read, so appointments missing from the practice management system were not cancelled this time.');
  }
  await importLeave(run, adapter, { from, to, practitionerIds: filters.practitionerIds }, refs.practitioners, counts, skip, warn);
  return counts;
}

/**
 * The practitioners' unavailable blocks overlapping the range, as their leave, in one transaction: each upserted by
 * its block id, and imported leave of the range whose block the PMS no longer lists removed (not when a block could
 * not be read: it might be one of those).
 */
async function importLeave(
  run: JobRun, adapter: PmsAdapter, range: { from: string; to: string; practitionerIds: string[] | null }, practitionerIds: Map<string, number>,
  counts: ImportCounts, skip: (invalid: PmsInvalidRecord[]) => void, warn: (message: string) => void,
) {
  const { records, invalidRecords } = await collectPages(adapter.listUnavailableBlocks({
    from: range.from, to: range.to, practitionerIds: range.practitionerIds ?? undefined, signal: run.signal,
  }));
  skip(invalidRecords);
  const blocks: ImportedBlock[] = records.flatMap((record) => {
    const practitionerId = practitionerIds.get(record.practitioner_id);
    if (practitionerId === undefined) {
      warn(`unavailable_blocks ${record.external_id} skipped: its practitioner ${record.practitioner_id} is not imported.`);
      return [];
    }
    return [{ blockId: record.external_id, practitionerId, startsAt: new Date(record.starts_at), endsAt: new Date(record.ends_at), notes: record.notes }];
  });
  const local = range.practitionerIds && range.practitionerIds.map((id) => practitionerIds.get(id)).filter((id): id is number => id !== undefined);
  await run.ctx.db.transaction(async (tx) => {
    await run.guard(tx);
    const result = await replaceImportedLeave(tx, run.job.business_account_id, blocks, {
      from: new Date(range.from), to: new Date(range.to), practitionerIds: local, removeMissing: invalidRecords.length === 0,
    });
    counts.leave_imported = result.upserted;
    counts.leave_removed = result.removed;
    await saveResultSoFar(tx, run.job.id, { ...counts });
  });
}

/** Patients changed since the last pull (all of them the first time), applied page by page. */
async function pullChangedPatients(
  run: JobRun, adapter: PmsAdapter, whodunnit: string, placement: Placement, counts: ImportCounts, skip: (invalid: PmsInvalidRecord[]) => void,
) {
  const db = run.ctx.db;
  const business = run.job.business_account_id;
  const [cursor] = await db.select().from(syncCursors).where(and(eq(syncCursors.business_account_id, business), eq(syncCursors.resource, 'patients')));
  let newest = cursor?.synced_through ?? null;
  for await (const page of prefetched(adapter.listPatients({ updatedSince: cursor?.synced_through.toISOString(), signal: run.signal }))) {
    skip(page.invalidRecords);
    const points = await placePatients(db, business, placement, page.records);
    await db.transaction(async (tx) => {
      await run.guard(tx);
      const result = await applyPatients(tx, business, whodunnit, page.records, placement, points);
      counts.clients_created += result.created;
      counts.clients_updated += result.updated;
    });
    for (const patient of page.records) {
      const updated = new Date(patient.updated_at);
      if (!newest || updated > newest) newest = updated;
    }
  }
  if (newest && (!cursor || newest > cursor.synced_through)) {
    // Strictly-after filters would miss a patient updated in the same second as the newest one seen.
    const through = new Date(newest.getTime() - 1000);
    await db.insert(syncCursors).values({ business_account_id: business, resource: 'patients', synced_through: through })
      .onConflictDoUpdate({ target: [syncCursors.business_account_id, syncCursors.resource], set: { synced_through: through } });
  }
}

/** Patients that appointments refer to but that are not mapped yet (created after the last patient pull, or archived). */
async function fetchMissingPatients(
  run: JobRun, adapter: PmsAdapter, whodunnit: string, placement: Placement, records: PmsAppointment[], counts: ImportCounts,
  skip: (invalid: PmsInvalidRecord[]) => void,
) {
  const business = run.job.business_account_id;
  const wanted = [...new Set(records.map((r) => r.patient_id).filter((id): id is string => id !== null))];
  const known = await mapsForExternalIds(run.ctx.db, business, 'Client', wanted);
  const missing = wanted.filter((id) => !known.has(id));
  if (missing.length === 0) return;
  for await (const page of adapter.listPatients({ ids: missing, includeArchived: true, signal: run.signal })) {
    skip(page.invalidRecords);
    const points = await placePatients(run.ctx.db, business, placement, page.records);
    await run.ctx.db.transaction(async (tx) => {
      await run.guard(tx);
      const result = await applyPatients(tx, business, whodunnit, page.records, placement, points);
      counts.clients_created += result.created;
      counts.clients_updated += result.updated;
    });
  }
}

const REFINE_PAGE = 500;
const HAS_ADDRESS = sql`(coalesce(${clients.address_1}, '') <> '' OR coalesce(${clients.city}, '') <> '' OR coalesce(${clients.post_code}, '') <> '')`;

/**
 * Clients whose point can be bettered although the PMS did not change them: no point yet, a gazetteer point while an
 * online geocoder is configured (its budget permitting; answers are cached, so each address is asked once), or —
 * for a provider that is not the sandbox — a point from the sandbox's synthetic streets. Pins placed by hand stay.
 * Runs before the appointment pages, which copy their client's point.
 */
async function refineClientPoints(run: JobRun, whodunnit: string, placement: Placement, counts: ImportCounts) {
  const db = run.ctx.db;
  const business = run.job.business_account_id;
  const { policy, batch } = placement;
  const sources: ('gazetteer' | 'sandbox')[] = [];
  if (policy.online) sources.push('gazetteer');
  if (!policy.sandbox) sources.push('sandbox');
  const candidates = or(isNull(clients.lat), ...(sources.length ? [inArray(clients.geo_source, sources)] : []));
  let after = 0;
  for (;;) {
    const rows = await db.select(STORED_PLACE).from(clients)
      .where(and(eq(clients.business_account_id, business), eq(clients.geo_manual, false), gt(clients.id, after), candidates, HAS_ADDRESS))
      .orderBy(asc(clients.id)).limit(REFINE_PAGE);
    if (rows.length === 0) return;
    after = rows[rows.length - 1].id;
    // Gazetteer points wait for the online geocoder: without budget left, only the others are worth a look.
    const wanted = rows.filter((row) => worthRefining(row, policy) && (row.geo_source !== 'gazetteer' || batch.onlineAvailable));
    const points = await batch.resolve(wanted);
    const changed = wanted.map((row, index) => ({ row, point: pointToWrite({ action: 'geocode' }, row, row, points[index], policy) }))
      .filter(({ row, point }) => Object.keys(diff(row as unknown as Record<string, unknown>, point as unknown as Record<string, unknown>)).length > 0);
    if (changed.length === 0) continue;
    await db.transaction(async (tx) => {
      await run.guard(tx);
      const versionRows: VersionRow[] = [];
      const placed: { id: number; values: PointFields }[] = [];
      for (const { row, point } of changed) {
        const [current] = await tx.select(STORED_PLACE).from(clients).where(eq(clients.id, row.id)).for('update');
        // Changed meanwhile (a user placed the pin, or the address moved): leave it to its next import.
        if (!current || current.geo_manual || Object.keys(diff(current as unknown as Record<string, unknown>, row as unknown as Record<string, unknown>)).length > 0) continue;
        placed.push({ id: row.id, values: point });
        versionRows.push({ itemType: 'Client', itemId: row.id, event: 'update', changes: diff(row as unknown as Record<string, unknown>, point as unknown as Record<string, unknown>) });
      }
      await upsertImportedClients(tx, business, { changed: placed, fresh: [] });
      await insertVersions(tx, business, whodunnit, versionRows);
      counts.clients_placed += versionRows.length;
      await saveResultSoFar(tx, run.job.id, { ...counts });
    });
  }
}

const SYSTEM_NAMES: Record<string, string> = { cliniko: 'Cliniko' };

/** A change to any of these moves a visit in, out of or within a practitioner's day: that day's route is stale. */
const ROUTE_FIELDS = ['starts_at', 'ends_at', 'arrive_at', 'practitioner_id', 'cancelled_at', 'lat', 'lng'] as const;

/**
 * The arrival time an import writes. An arrival time changed here and not exported yet (it differs from the start
 * last synced with the PMS) is kept, unless the PMS moved the appointment since the last sync (its start or end
 * differs from what was synced then): then the PMS time wins, and `reason` says so for the change log.
 */
export function importedArrival(
  row: { arrive_at: Date | null; starts_at: Date; ends_at: Date },
  synced: { starts_at: Date; ends_at: Date } | undefined,
  record: { starts_at: string; ends_at: string },
  context: { timeZone: string; system: string },
): { arriveAt: Date; reason: string | null } {
  const pmsStart = new Date(record.starts_at);
  const last = synced ?? row;
  const localStart = last.starts_at.getTime();
  const unexported = row.arrive_at !== null && row.arrive_at.getTime() !== localStart;
  if (!unexported) return { arriveAt: pmsStart, reason: null };
  const moved = pmsStart.getTime() !== localStart || Date.parse(record.ends_at) !== last.ends_at.getTime();
  if (!moved) return { arriveAt: row.arrive_at!, reason: null };
  const system = SYSTEM_NAMES[context.system] ?? context.system;
  const local = Temporal.Instant.fromEpochMilliseconds(row.arrive_at!.getTime()).toZonedDateTimeISO(context.timeZone)
    .toPlainTime().toString({ smallestUnit: 'minute' });
  return {
    arriveAt: pmsStart,
    reason: `Moved in ${system} since the last import: ${system}'s time replaced the local arrival time ${local} that was not exported.`,
  };
}

/**
 * The client's agreed start an import writes (ADR 0023). The PMS has one start field, which an export fills with the
 * planned arrival; what the PMS had after the last sync (import or export, appointment_sync_snapshots) tells the two
 * apart: a PMS start that differs from it was changed in the PMS on purpose, and becomes the agreed time; one that
 * equals it (e.g. the arrival Rounds exported, read back) leaves the agreed time as it was.
 */
export function importedAgreedStart(
  row: { agreed_starts_at: Date; starts_at: Date },
  synced: { starts_at: Date } | undefined,
  record: { starts_at: string },
  context: { timeZone: string; system: string },
): { agreedStartsAt: Date; reason: string | null } {
  const pmsStart = Date.parse(record.starts_at);
  const last = (synced ?? row).starts_at.getTime();
  if (pmsStart === last || pmsStart === row.agreed_starts_at.getTime()) return { agreedStartsAt: row.agreed_starts_at, reason: null };
  const system = SYSTEM_NAMES[context.system] ?? context.system;
  const local = Temporal.Instant.fromEpochMilliseconds(pmsStart).toZonedDateTimeISO(context.timeZone).toPlainTime().toString({ smallestUnit: 'minute' });
  return { agreedStartsAt: new Date(pmsStart), reason: `Moved in ${system} since the last sync: the client's agreed time is now ${local}.` };
}

/**
 * The times an import writes. Times moved here by hand and not exported yet (they differ from the times last synced
 * with the PMS) are kept, unless the PMS moved the appointment since the last sync too: then the PMS's times win.
 */
export function importedTimes(
  row: { starts_at: Date; ends_at: Date },
  synced: { starts_at: Date; ends_at: Date } | undefined,
  record: { starts_at: string; ends_at: string },
  context: { system: string },
): { startsAt: Date; endsAt: Date; reason: string | null } {
  const last = synced ?? row;
  const localMoved = row.starts_at.getTime() !== last.starts_at.getTime() || row.ends_at.getTime() !== last.ends_at.getTime();
  const pmsMoved = Date.parse(record.starts_at) !== last.starts_at.getTime() || Date.parse(record.ends_at) !== last.ends_at.getTime();
  if (localMoved && !pmsMoved) return { startsAt: row.starts_at, endsAt: row.ends_at, reason: null };
  const system = SYSTEM_NAMES[context.system] ?? context.system;
  return {
    startsAt: new Date(record.starts_at),
    endsAt: new Date(record.ends_at),
    reason: localMoved ? `Moved in ${system} since the last import: ${system}'s time replaced the local move that was not exported.` : null,
  };
}

/**
 * The practitioner an import writes (local id of the PMS's practitioner). A visit reassigned here and not exported yet
 * (its practitioner differs from the one last synced) keeps its practitioner, unless the PMS reassigned it since the
 * last sync too: then the PMS's practitioner wins.
 */
export function importedPractitioner(
  row: { practitioner_id: number },
  synced: { practitioner_id: number } | undefined,
  pmsPractitionerId: number,
  context: { system: string },
): { practitionerId: number; reason: string | null } {
  const last = synced ?? row;
  const localReassigned = row.practitioner_id !== last.practitioner_id;
  if (localReassigned && pmsPractitionerId === last.practitioner_id) return { practitionerId: row.practitioner_id, reason: null };
  const system = SYSTEM_NAMES[context.system] ?? context.system;
  return {
    practitionerId: pmsPractitionerId,
    reason: localReassigned && pmsPractitionerId !== row.practitioner_id
      ? `Reassigned in ${system} since the last import: ${system}'s practitioner replaced the local reassignment that was not exported.`
      : null,
  };
}

async function applyAppointmentPage(
  tx: Tx, business: number, importId: number, whodunnit: string, records: PmsAppointment[],
  refs: { practitioners: Map<string, number>; types: Map<string, number>; locations: Map<string, number> },
  counts: ImportCounts, warn: (message: string) => void, context: { timeZone: string; system: string },
) {
  const unique = [...new Map(records.map((r) => [r.external_id, r])).values()];
  const maps = await mapsForExternalIds(tx, business, 'Appointment', unique.map((r) => r.external_id));
  const localIds = [...maps.values()].map((m) => m.resource_id);
  const current = new Map((localIds.length ? await tx.select().from(appointments).where(inArray(appointments.id, localIds)) : []).map((row) => [row.id, row]));
  const synced = new Map((localIds.length ? await tx.select().from(appointmentSyncSnapshots)
    .where(inArray(appointmentSyncSnapshots.appointment_id, localIds)) : []).map((snapshot) => [snapshot.appointment_id, snapshot]));
  const patientIds = [...new Set(unique.map((r) => r.patient_id).filter((id): id is string => id !== null))];
  const clientMaps = await mapsForExternalIds(tx, business, 'Client', patientIds);
  const clientIds = [...clientMaps.values()].map((m) => m.resource_id);
  const clientRows = new Map((clientIds.length ? await tx.select({
    id: clients.id, address_1: clients.address_1, address_2: clients.address_2, city: clients.city, state: clients.state,
    post_code: clients.post_code, country: clients.country, lat: clients.lat, lng: clients.lng,
  }).from(clients).where(inArray(clients.id, clientIds)) : []).map((row) => [row.id, row]));

  const versionRows: VersionRow[] = [];
  const history: number[] = [];
  const snapshots: SnapshotRow[] = [];
  const touched: { id: number; externalUpdatedAt: string | null }[] = [];
  const changed: { id: number; values: ImportedVisit }[] = [];
  const fresh: { record: PmsAppointment; values: ImportedVisit }[] = [];
  /** The practitioners' days whose visits this page moved, cancelled or added. */
  const days: DayTouch[] = [];
  // A booking made in Rounds whose write has not linked it yet is that visit, not a new one.
  const booked = await linkBookedAppointments(tx, business, unique.filter((record) => !maps.has(record.external_id)));

  for (const record of unique) {
    if (booked.has(record.external_id)) continue;
    const practitionerId = refs.practitioners.get(record.practitioner_id);
    if (practitionerId === undefined) {
      counts.records_skipped += 1;
      warn(`individual_appointments ${record.external_id} skipped: its practitioner ${record.practitioner_id} is not in the practice management system's practitioner list`);
      continue;
    }
    if (Date.parse(record.ends_at) <= Date.parse(record.starts_at)) {
      counts.records_skipped += 1;
      warn(`individual_appointments ${record.external_id} skipped: ends_at is not after starts_at`);
      continue;
    }
    const clientId = record.patient_id ? clientMaps.get(record.patient_id)?.resource_id ?? null : null;
    const client = clientId !== null ? clientRows.get(clientId) : undefined;
    const cancelledAt = record.cancelled_at ?? record.archived_at ?? (record.deleted ? record.updated_at : null);
    const values: ImportedVisit = {
      client_id: clientId,
      practitioner_id: practitionerId,
      appointment_type_id: refs.types.get(record.appointment_type_id) ?? null,
      business_location_id: record.business_id ? refs.locations.get(record.business_id) ?? null : null,
      starts_at: new Date(record.starts_at),
      ends_at: new Date(record.ends_at),
      arrive_at: new Date(record.starts_at),
      // First imported: the client agreed to the PMS's booking.
      agreed_starts_at: new Date(record.starts_at),
      notes: record.notes,
      address_1: client?.address_1 ?? null,
      address_2: client?.address_2 ?? null,
      city: client?.city ?? null,
      state: client?.state ?? null,
      post_code: client?.post_code ?? null,
      country: client?.country ?? null,
      lat: client?.lat ?? null,
      lng: client?.lng ?? null,
      cancelled_at: cancelledAt ? new Date(cancelledAt) : null,
    };
    const map = maps.get(record.external_id);
    const row = map ? current.get(map.resource_id) : undefined;
    if (map && row) {
      touched.push({ id: map.id, externalUpdatedAt: record.updated_at });
      snapshots.push({ appointmentId: row.id, startsAt: record.starts_at, endsAt: record.ends_at, practitionerId });
      // What was changed here and not exported yet (times, arrival, practitioner) stays unless the PMS changed it too.
      const last = synced.get(row.id);
      const times = importedTimes(row, last, record, context);
      const arrival = importedArrival(row, last, record, context);
      const assigned = importedPractitioner(row, last, practitionerId, context);
      const agreed = importedAgreedStart(row, last, record, context);
      // A cancellation time that moved does not make an already-cancelled appointment "changed".
      const comparable = {
        ...values, starts_at: times.startsAt, ends_at: times.endsAt, arrive_at: arrival.arriveAt, practitioner_id: assigned.practitionerId,
        agreed_starts_at: agreed.agreedStartsAt,
        ...(row.cancelled_at && values.cancelled_at ? { cancelled_at: row.cancelled_at } : {}),
      };
      const changes: Changes = diff(row as unknown as Record<string, unknown>, comparable as Record<string, unknown>);
      if (Object.keys(changes).length === 0) {
        counts.appointments_unchanged += 1;
        continue;
      }
      const reasons = [
        changes.starts_at || changes.ends_at ? times.reason : null,
        changes.arrive_at && !times.reason ? arrival.reason : null,
        changes.practitioner_id ? assigned.reason : null,
      ].filter((reason): reason is string => reason !== null);
      // The agreed time follows a move made in the PMS on purpose: said when nothing else says why the visit changed.
      if (changes.agreed_starts_at && agreed.reason && reasons.length === 0) reasons.push(agreed.reason);
      changed.push({ id: row.id, values: comparable });
      if (ROUTE_FIELDS.some((field) => field in changes)) {
        days.push({ practitionerId: row.practitioner_id, at: row.starts_at }, { practitionerId: comparable.practitioner_id, at: comparable.starts_at });
      }
      versionRows.push({ itemType: 'Appointment', itemId: row.id, event: 'update', changes, reason: reasons.length ? reasons.join(' ') : null });
      history.push(row.id);
      if (!row.cancelled_at && comparable.cancelled_at) counts.appointments_cancelled += 1;
      else counts.appointments_updated += 1;
    } else if (!map && !cancelledAt) {
      fresh.push({ record, values });
    }
    // Cancelled in the PMS and never imported (or its local copy was deleted): nothing to keep locally.
  }

  const ids = await upsertImportedVisits(tx, business, { changed, fresh: fresh.map(({ values }) => values) });
  if (fresh.length > 0) {
    const inserted = ids.map((id) => ({ id }));
    await insertMaps(tx, business, 'Appointment', inserted.map((row, index) => ({
      resourceId: row.id, externalId: fresh[index].record.external_id, externalUpdatedAt: fresh[index].record.updated_at,
    })));
    inserted.forEach((row, index) => {
      // The agreed time of a new visit is its start: the creation's Starts says it.
      const { agreed_starts_at: _agreed, ...created } = fresh[index].values;
      versionRows.push({ itemType: 'Appointment', itemId: row.id, event: 'create', changes: creation(created as Record<string, unknown>) });
      history.push(row.id);
      snapshots.push({
        appointmentId: row.id, startsAt: fresh[index].record.starts_at, endsAt: fresh[index].record.ends_at, practitionerId: fresh[index].values.practitioner_id,
      });
    });
    counts.appointments_created += inserted.length;
    days.push(...fresh.map(({ values }) => ({ practitionerId: values.practitioner_id, at: values.starts_at })));
  }
  await markRoutesStale(tx, business, days);
  await touchMaps(tx, touched);
  await insertVersions(tx, business, whodunnit, versionRows);
  await insertHistory(tx, business, importId, whodunnit, history);
  await saveSnapshots(tx, business, snapshots);
}

async function insertHistory(tx: Tx, business: number, importId: number, author: string, appointmentIds: number[]) {
  if (appointmentIds.length === 0) return;
  await bulkInsert(tx, 'import_history_entries', {
    business_account_id: 'integer', appointment_id: 'integer', import_id: 'integer', author_full_name: 'text',
  }, appointmentIds.map((id) => ({ business_account_id: business, appointment_id: id, import_id: importId, author_full_name: author })));
}


/** Local, still-active copies in the import's scope whose PMS appointment was not listed: deleted in the PMS. */
async function cancelVanished(
  tx: Tx, business: number, importId: number, whodunnit: string,
  scope: { from: string; to: string; filters: SyncFilters; seen: Set<string> }, counts: ImportCounts,
) {
  const { practitioner_ids, appointment_type_ids, business_location_ids } = scope.filters;
  const inList = (column: string, ids: number[]) => ids.length
    ? sql`AND ${sql.raw(column)} IN (SELECT jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)::int)` : sql``;
  // The set difference is done here: an anti-join against a parameter list of ~10k ids makes PostgreSQL's
  // planner (which cannot estimate the list) pick a quadratic nested loop.
  const candidates = await queryRows<{ id: number; external_id: string; practitioner_id: number; starts_at: string | Date }>(tx as never, sql`
    SELECT a.id, rm.external_id, a.practitioner_id, a.starts_at FROM appointments a
    JOIN resource_maps rm ON rm.resource_type = 'Appointment' AND rm.resource_id = a.id AND rm.business_account_id = a.business_account_id
    WHERE a.business_account_id = ${business} AND a.cancelled_at IS NULL
      AND a.starts_at >= ${scope.from}::timestamptz AND a.starts_at < ${scope.to}::timestamptz
      ${inList('a.practitioner_id', practitioner_ids)}
      ${inList('a.appointment_type_id', appointment_type_ids)}
      ${inList('a.business_location_id', business_location_ids)}`);
  const vanished = candidates.filter((row) => !scope.seen.has(row.external_id));
  if (vanished.length === 0) return;
  const ids = vanished.map((row) => row.id);
  const now = new Date();
  await cancelVanishedVisits(tx, ids, now);
  await markRoutesStale(tx, business, vanished.map((row) => ({ practitionerId: row.practitioner_id, at: new Date(row.starts_at) })));
  await insertVersions(tx, business, whodunnit, ids.map((id) => ({
    itemType: 'Appointment' as const, itemId: id, event: 'update' as const, changes: { cancelled_at: [null, now.toISOString()] },
  })));
  await insertHistory(tx, business, importId, whodunnit, ids);
  counts.appointments_cancelled += ids.length;
}
