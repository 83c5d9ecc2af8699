// The PMS_WRITE job: writes one pms_writes row (a booking, a reschedule or a cancellation) to the PMS (ADR 0024).
//
// Cliniko has no idempotency keys, so a create is never sent twice blindly: every try first counts itself (attempts),
// and a try after an earlier one looks the appointment up by the booking's reference (in its notes) before creating.
// An answer that may or may not have been committed, a 5xx, a timeout or a 429 leaves the write saving and the worker
// tries the job again with its backoff; after WRITE_ATTEMPTS tries the write is failed ("Try again"). A refusal (422),
// a visit gone from the PMS, or no connection fail it at once with the reason in words. A reschedule is guarded by the
// PMS's updated_at Rounds last read: a visit changed in the PMS since is a conflict with its differences.
import { eq } from 'drizzle-orm';
import { Temporal } from 'temporal-polyfill';
import { businessTimeZone } from '../../db/business-time-zone';
import type { Db, DbOrTx } from '../../db/client';
import { appointments, practitioners } from '../../db/schema';
import type { PmsDifference } from '../../db/schema-bookings';
import type { AppContext } from '../../http/context';
import type { JobRow } from '../../jobs/queue';
import type { JobFailure, JobResult, JobRun } from '../../jobs/types';
import {
  PmsAuthError, PmsConflictError, PmsNotFoundError, PmsRateLimitError, PmsUnavailableError, PmsUnclearWriteError, PmsValidationError,
  ProviderAccountUnusableError, type PmsAdapter, type PmsAppointment,
} from '../../pms';
import { adapterForAccount, bookingNote, bookingReferenceIn, externalIdOf, externalToLocal, findProviderAccount, linkAppointmentToPms, pmsLinkOf } from '../sync';
import { recordVersion } from '../audit';
import { writeBackExportedVisit } from '../schedule';
import { findWrite, updateWrite, writesOfVisit, type PmsWriteRow } from './repository';

const SYSTEM = 'Cliniko';
const NOT_CONNECTED = `${SYSTEM} is not connected, so Rounds cannot write this visit to it. An admin can connect it in Settings → Provider account; then Try again.`;
const DAY_MS = 86_400_000;

const KIND_WORDS = { create: 'Booking', update: 'New time', cancel: 'Cancellation' } as const;

/** Every write's outcome is in the visit's change log (and so in the activity report). */
async function logOutcome(db: DbOrTx, write: PmsWriteRow, outcome: string): Promise<void> {
  if (write.appointment_id === null) return;
  await recordVersion(db, {
    businessAccountId: write.business_account_id, itemType: 'Appointment', itemId: write.appointment_id, event: 'update',
    whodunnit: `Rounds (write to ${SYSTEM})`, changes: { pms_write: [null, `${KIND_WORDS[write.kind]} ${outcome}`] },
  });
}

/** A write that cannot go ahead for a reason the coordinator can act on: the write fails with these words. */
class WriteRefused extends Error {}

type VisitRow = typeof appointments.$inferSelect;

export async function runPmsWrite(run: JobRun): Promise<JobResult> {
  const { ctx, job } = run;
  const business = job.business_account_id;
  const write = await findWrite(ctx.db, business, Number(job.params.pms_write_id));
  // Discarded or saved meanwhile (an import linked the booking), or its visit left Rounds.
  if (!write || write.state !== 'saving') return { state: write?.state ?? 'gone' };
  if (write.appointment_id === null) return { state: (await updateWrite(ctx.db, write.id, { state: 'discarded' })).state };
  const triedBefore = write.attempts > 0;
  await updateWrite(ctx.db, write.id, { attempts: write.attempts + 1 });
  try {
    const account = await findProviderAccount(ctx.db, business);
    if (!account) throw new WriteRefused(NOT_CONNECTED);
    const adapter = adapterForAccount(ctx, account, run.tuning);
    const [visit] = await ctx.db.select().from(appointments).where(eq(appointments.id, write.appointment_id));
    if (!visit) return { state: (await updateWrite(ctx.db, write.id, { state: 'discarded' })).state };
    if (write.kind === 'create') await create(run, adapter, write, visit, triedBefore);
    else if (write.kind === 'update') await update(run, adapter, write, visit);
    else await cancel(run, adapter, write, visit, triedBefore);
    return { state: 'saved' };
  } catch (error) {
    const words = refusalWords(error);
    if (words !== null) {
      await updateWrite(ctx.db, write.id, { state: 'failed', message: words });
      await logOutcome(ctx.db, write, `not saved in ${SYSTEM}: ${words}`);
      // The worker marks the connection as needing a reconnect.
      if (error instanceof PmsAuthError) throw error;
      return { state: 'failed', message: words };
    }
    if (error instanceof PmsConflictError) return { state: 'conflict' };
    // Not answered (or not clearly): still saving; the worker tries again, and a create looks before creating.
    const reason = error instanceof Error ? error.message : String(error);
    await updateWrite(ctx.db, write.id, { message: `${SYSTEM} is not answering (${reason}); Rounds will keep trying.` });
    if (error instanceof PmsUnavailableError || error instanceof PmsRateLimitError) throw error;
    if (error instanceof PmsUnclearWriteError) throw new PmsUnavailableError(reason, { attempts: 1, cause: error });
    throw error;
  }
}

/** After the last try (or a failure of ours): the write shows as failed, with Try again. */
export async function pmsWriteFailed(ctx: AppContext, job: JobRow, failure: JobFailure): Promise<void> {
  if (failure.cause !== 'gave-up') return;
  const write = await findWrite(ctx.db, job.business_account_id, Number(job.params.pms_write_id));
  if (!write || write.state !== 'saving') return;
  // Abandoned: Rounds itself stopped mid-write; Try again looks a booking up by its reference before creating it.
  const message = failure.abandoned
    ? `Rounds stopped while writing it to ${SYSTEM} (${job.attempts} tries), so it may or may not be there. Try again.`
    : `${SYSTEM} is not answering: ${failure.reason} Try again.`;
  await updateWrite(ctx.db, write.id, { state: 'failed', message });
  await logOutcome(ctx.db, write, `not saved in ${SYSTEM}: ${message}`);
}

/** The reason in words of a write that must not be tried again as it is; null for one to retry. */
function refusalWords(error: unknown): string | null {
  if (error instanceof WriteRefused || error instanceof ProviderAccountUnusableError) return error.message;
  if (error instanceof PmsAuthError) return `${SYSTEM} refused Rounds' API key. An admin needs to reconnect it in Settings → Provider account; then Try again.`;
  if (error instanceof PmsValidationError) {
    const fields = Object.entries(error.errors).map(([field, message]) => `${field.replaceAll('_', ' ')} ${message}`);
    return `${SYSTEM} refused it: ${fields.length ? fields.join('; ') : error.message}.`;
  }
  if (error instanceof PmsNotFoundError) return `This visit's appointment is no longer in ${SYSTEM} (it was deleted or archived there).`;
  return null;
}

/** The PMS ids of what a booking names; refused in words when one of them has no copy in the PMS. */
async function externalIdsOf(db: Db, business: number, visit: VisitRow) {
  const [practitioner, type, patient, location] = await Promise.all([
    externalIdOf(db, business, 'Practitioner', visit.practitioner_id), externalIdOf(db, business, 'AppointmentType', visit.appointment_type_id),
    externalIdOf(db, business, 'Client', visit.client_id), externalIdOf(db, business, 'BusinessLocation', visit.business_location_id),
  ]);
  const missing = [!practitioner && 'its practitioner', !type && 'its appointment type', !patient && 'its client', !location && 'its business location']
    .filter((what): what is string => typeof what === 'string');
  if (missing.length) {
    const what = missing.join(', ');
    throw new WriteRefused(`${what[0].toUpperCase()}${what.slice(1)} ${missing.length > 1 ? 'are' : 'is'} not in ${SYSTEM} (not imported from it), so the visit cannot be booked there.`);
  }
  return { practitioner: practitioner!, type: type!, patient: patient!, location: location! };
}

export async function saved(ctx: AppContext, write: PmsWriteRow, visit: VisitRow, record: PmsAppointment): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await linkAppointmentToPms(tx, write.business_account_id, visit.id, record, visit.practitioner_id);
    // The visit's notes as the PMS has them (with the booking's reference), as an import would read them.
    if (write.kind === 'create' && record.notes !== visit.notes) {
      await writeBackExportedVisit(tx, visit.id, { starts_at: visit.starts_at, ends_at: visit.ends_at, practitioner_id: visit.practitioner_id, notes: record.notes });
    }
    await updateWrite(tx, write.id, { state: 'saved', message: null, differences: [] });
    await logOutcome(tx, write, `saved in ${SYSTEM} (${record.external_id})`);
  });
}

async function create(run: JobRun, adapter: PmsAdapter, write: PmsWriteRow, visit: VisitRow, triedBefore: boolean): Promise<void> {
  const { ctx, signal } = run;
  const business = write.business_account_id;
  // Linked already (an import met it): saved.
  if (await pmsLinkOf(ctx.db, business, visit.id)) {
    await updateWrite(ctx.db, write.id, { state: 'saved', message: null });
    return;
  }
  const ids = await externalIdsOf(ctx.db, business, visit);
  let record = triedBefore ? await lookUp(adapter, write, visit, signal) : undefined;
  record ??= await adapter.createIndividualAppointment({
    practitioner_id: ids.practitioner, appointment_type_id: ids.type, patient_id: ids.patient, business_id: ids.location,
    starts_at: visit.starts_at.toISOString(), ends_at: visit.ends_at.toISOString(),
    notes: [visit.notes?.trim(), bookingNote(write.reference)].filter(Boolean).join('\n\n'),
  }, { signal });
  // Rescheduled in Rounds before the booking reached the PMS: the PMS gets the visit as Rounds has it now.
  if (Date.parse(record.starts_at) !== visit.starts_at.getTime() || Date.parse(record.ends_at) !== visit.ends_at.getTime() || record.practitioner_id !== ids.practitioner) {
    record = await adapter.updateAppointmentTimes(record.external_id, {
      starts_at: visit.starts_at.toISOString(), ends_at: visit.ends_at.toISOString(), practitioner_id: ids.practitioner,
    }, { signal });
  }
  await saved(ctx, write, visit, record);
}

/** The booking's appointment if an earlier try created it: listed since the booking, its notes carrying the reference. */
export async function lookUp(adapter: PmsAdapter, write: PmsWriteRow, visit: VisitRow, signal?: AbortSignal): Promise<PmsAppointment | undefined> {
  const starts = [visit.starts_at.getTime(), write.payload.starts_at ? Date.parse(write.payload.starts_at) : visit.starts_at.getTime()];
  const pages = adapter.listIndividualAppointments({
    from: new Date(Math.min(...starts) - DAY_MS).toISOString(), to: new Date(Math.max(...starts) + DAY_MS).toISOString(),
    updatedSince: new Date(write.created_at.getTime() - 60_000).toISOString(), includeCancelledAndArchived: false, signal,
  });
  for await (const page of pages) {
    const found = page.records.find((record) => bookingReferenceIn(record.notes) === write.reference);
    if (found) return found;
  }
  return undefined;
}

async function update(run: JobRun, adapter: PmsAdapter, write: PmsWriteRow, visit: VisitRow): Promise<void> {
  const { ctx, signal } = run;
  const business = write.business_account_id;
  const link = await pmsLinkOf(ctx.db, business, visit.id);
  if (!link) throw new WriteRefused(`This visit is not in ${SYSTEM} (it was never imported from it or booked in it), so its new time cannot be written there.`);
  const practitioner = await externalIdOf(ctx.db, business, 'Practitioner', visit.practitioner_id);
  if (!practitioner) throw new WriteRefused(`Its practitioner is not in ${SYSTEM} (not imported from it), so the visit cannot be moved to them there.`);
  try {
    const record = await adapter.updateAppointmentTimes(link.externalId, {
      starts_at: visit.starts_at.toISOString(), ends_at: visit.ends_at.toISOString(), practitioner_id: practitioner,
      expectedUpdatedAt: write.payload.overwrite ? undefined : link.externalUpdatedAt?.toISOString(),
    }, { signal });
    await saved(ctx, write, visit, record);
  } catch (error) {
    if (!(error instanceof PmsConflictError)) throw error;
    const now = await adapter.getIndividualAppointment(link.externalId, { signal });
    const differences = await differencesOf(ctx.db, business, visit, now);
    const conflicted = await updateWrite(ctx.db, write.id, {
      state: 'conflict', differences,
      message: `Changed in ${SYSTEM} since Rounds read it${differences.length ? `: ${differences.map((d) => `${d.label} ${d.pms ?? 'none'} there, ${d.rounds ?? 'none'} in Rounds`).join('; ')}` : ''}. Overwrite it, or take ${SYSTEM}'s version.`,
    });
    await logOutcome(ctx.db, write, `not saved: ${conflicted.message}`);
    throw error;
  }
}

async function cancel(run: JobRun, adapter: PmsAdapter, write: PmsWriteRow, visit: VisitRow, triedBefore: boolean): Promise<void> {
  const { ctx, signal } = run;
  const business = write.business_account_id;
  const link = await pmsLinkOf(ctx.db, business, visit.id);
  if (!link) {
    const booking = (await writesOfVisit(ctx.db, business, visit.id)).find((other) => other.kind === 'create' && other.id < write.id);
    if (booking?.state === 'saving') throw new PmsUnavailableError('the booking is not saved yet', { attempts: 1 });
    throw new WriteRefused(`This visit is not in ${SYSTEM} (it was never imported from it or booked in it), so there is nothing to cancel there.`);
  }
  const already = async () => {
    const record = await adapter.getIndividualAppointment(link.externalId, { signal });
    return record.cancelled_at !== null ? record : undefined;
  };
  let record = triedBefore ? await already() : undefined;
  if (!record) {
    try {
      await adapter.cancelIndividualAppointment(link.externalId, {
        cancellation_reason: write.payload.cancellation_reason as 10, cancellation_note: write.payload.cancellation_note ?? null,
      }, { signal });
    } catch (error) {
      // Cancelled there already (by someone else, or by an earlier try): what Rounds wanted.
      if (!(error instanceof PmsValidationError) || !(await already())) throw error;
    }
    record = await adapter.getIndividualAppointment(link.externalId, { signal });
  }
  await saved(ctx, write, visit, record);
}

/** How the PMS's appointment differs from Rounds' visit, in words (times in the business's zone, names). */
export async function differencesOf(db: Db, business: number, visit: VisitRow, record: PmsAppointment): Promise<PmsDifference[]> {
  const timeZone = await businessTimeZone(db, business);
  const when = (at: Date | string | null) => at === null ? null : Temporal.Instant.fromEpochMilliseconds(new Date(at).getTime()).toZonedDateTimeISO(timeZone)
    .toLocaleString('en-AU', { weekday: 'short', day: 'numeric', month: 'short', hour: 'numeric', minute: '2-digit' });
  const local = (await externalToLocal(db, business, 'Practitioner')).get(record.practitioner_id) ?? null;
  const names = new Map((await db.select({ id: practitioners.id, first: practitioners.first_name, last: practitioners.last_name }).from(practitioners)
    .where(eq(practitioners.business_account_id, business))).map((row) => [row.id, `${row.first} ${row.last}`.trim()]));
  const differences: PmsDifference[] = [];
  const add = (field: string, label: string, rounds: string | null, pms: string | null) => {
    if (rounds !== pms) differences.push({ field, label, rounds, pms });
  };
  add('starts_at', 'Start', when(visit.starts_at), when(record.starts_at));
  add('ends_at', 'End', when(visit.ends_at), when(record.ends_at));
  add('practitioner_id', 'Practitioner', names.get(visit.practitioner_id) ?? null, local === null ? `another practitioner (${record.practitioner_id})` : names.get(local) ?? null);
  const cancelledThere = record.cancelled_at ?? record.archived_at ?? (record.deleted ? record.updated_at : null);
  add('cancelled_at', 'Cancelled', visit.cancelled_at ? `Cancelled ${when(visit.cancelled_at)}` : 'Not cancelled', cancelledThere ? `Cancelled ${when(cancelledThere)}` : 'Not cancelled');
  return differences;
}
