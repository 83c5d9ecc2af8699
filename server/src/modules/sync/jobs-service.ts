// Imports and exports as the API sees them: creating, reading, listing and cancelling sync jobs.
import { and, count, desc, eq, gte, inArray, isNotNull, lte, sql } from 'drizzle-orm';
import type { AuthContext } from '../../auth/access';
import { businessTimeZone } from '../../db/business-time-zone';
import { practitioners, routes, type SyncFilters } from '../../db/schema';
import { jobs, type JobKind } from '../../db/schema-jobs';
import type { Schemas } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { conflict, HttpError, invalid, notFound } from '../../http/errors';
import { cancelJob, enqueueJob, jobEvents, type JobRow } from '../../jobs/queue';
import { findProviderAccount } from './pms-connection';
import { assertOwnFilterIds } from './filters';
import { exportRows, needsExport } from './export-job';
import { dayRangeToUtc, rangeProblem } from './time-range';

export type SyncJobRequest = Schemas['SyncJobRequest'];
type Direction = 'IMPORT' | 'EXPORT';

const iso = (date: Date | null) => date?.toISOString() ?? null;

function jobCommon(job: JobRow) {
  return {
    id: job.id,
    status: job.status,
    start_date: job.start_date!,
    end_date: job.end_date!,
    error_message: job.error_message,
    created_at: job.created_at.toISOString(),
    filters: job.filters,
    created_by_name: job.created_by_name,
    automatic: job.automatic,
    attempts: job.attempts,
    started_at: iso(job.started_at),
    finished_at: iso(job.finished_at),
  };
}

export function toImportDto(job: JobRow): Schemas['Import'] {
  const r = job.result as Record<string, unknown> | null;
  return {
    ...jobCommon(job),
    result: r ? {
      appointments_created: Number(r.appointments_created ?? 0),
      appointments_updated: Number(r.appointments_updated ?? 0),
      appointments_cancelled: Number(r.appointments_cancelled ?? 0),
      appointments_unchanged: Number(r.appointments_unchanged ?? 0),
      clients_created: Number(r.clients_created ?? 0),
      clients_updated: Number(r.clients_updated ?? 0),
      clients_placed: Number(r.clients_placed ?? 0),
      leave_imported: Number(r.leave_imported ?? 0),
      leave_removed: Number(r.leave_removed ?? 0),
      records_skipped: Number(r.records_skipped ?? 0),
      warnings: Array.isArray(r.warnings) ? r.warnings.map(String) : [],
    } : null,
  };
}

export function toExportDto(job: JobRow): Schemas['Export'] {
  const r = job.result as Record<string, unknown> | null;
  return {
    ...jobCommon(job),
    result: r ? {
      exported: Number(r.exported ?? 0),
      skipped_unchanged: Number(r.skipped_unchanged ?? 0),
      skipped_not_in_pms: Number(r.skipped_not_in_pms ?? 0),
      conflicts: Array.isArray(r.conflicts) ? r.conflicts as Schemas['ExportConflict'][] : [],
    } : null,
  };
}

/** The request's range checked and its filters, limited to the caller's business. */
async function checkedFilters(ctx: AppContext, auth: AuthContext, body: SyncJobRequest): Promise<SyncFilters> {
  if (!body.start_date || !body.end_date) throw invalid('Date range is required');
  const problem = rangeProblem(body.start_date, body.end_date);
  if (problem) throw invalid(problem);
  const filters: SyncFilters = {
    practitioner_ids: [...new Set(body.practitioner_ids ?? [])],
    appointment_type_ids: [...new Set(body.appointment_type_ids ?? [])],
    business_location_ids: [...new Set(body.business_location_ids ?? [])],
  };
  await assertOwnFilterIds(ctx, auth.businessAccountId, filters);
  return filters;
}

/** Imports and exports of one business that may wait for a worker at once: one business cannot fill the queue. */
export const MAX_WAITING_SYNC_JOBS = 3;

export async function createSyncJob(ctx: AppContext, auth: AuthContext, kind: Direction, body: SyncJobRequest): Promise<JobRow> {
  const filters = await checkedFilters(ctx, auth, body);
  const account = await findProviderAccount(ctx.db, auth.businessAccountId);
  if (!account) throw conflict('The account setup is not complete.', 'PROVIDER_ACCOUNT_NOT_SETUP');
  if (account.status !== 'ACTIVE') throw conflict('The account is not active.', 'PROVIDER_ACCOUNT_NOT_ACTIVE');
  const job = await ctx.db.transaction(async (tx) => {
    // Two requests at once cannot both take the last place.
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`sync-jobs:${auth.businessAccountId}`}))`);
    const [{ waiting }] = await tx.select({ waiting: count() }).from(jobs).where(and(
      eq(jobs.business_account_id, auth.businessAccountId), inArray(jobs.kind, ['IMPORT', 'EXPORT']), eq(jobs.status, 'PENDING'),
    ));
    if (waiting >= MAX_WAITING_SYNC_JOBS) {
      throw new HttpError(429, `${MAX_WAITING_SYNC_JOBS} imports and exports of this business are already waiting to start. `
        + 'Wait for one to finish, or cancel one, before starting another.', 'SYNC_JOBS_QUEUED');
    }
    return enqueueJob(tx, {
      businessAccountId: auth.businessAccountId,
      kind,
      startDate: body.start_date,
      endDate: body.end_date,
      filters,
      createdByUserId: auth.userId,
      createdByName: auth.fullName,
    });
  });
  // enqueueJob announced the job inside the transaction; announce it again now that a worker can see it.
  jobEvents.emit('enqueued', job.id);
  return job;
}

/** What an export would change (see previewExport in the contract), read without asking the PMS. */
export async function previewExport(ctx: AppContext, auth: AuthContext, body: SyncJobRequest): Promise<Schemas['ExportPreview']> {
  const filters = await checkedFilters(ctx, auth, body);
  const business = auth.businessAccountId;
  const timeZone = await businessTimeZone(ctx.db, business);
  const rows = await exportRows(ctx.db, business, dayRangeToUtc(body.start_date, body.end_date, timeZone), filters);
  const changed = await ctx.db.select({ date: routes.day, practitioner_id: routes.practitioner_id, first_name: practitioners.first_name, last_name: practitioners.last_name })
    .from(routes).innerJoin(practitioners, eq(practitioners.id, routes.practitioner_id))
    .where(and(
      eq(routes.business_account_id, business), isNotNull(routes.stale_at), gte(routes.day, body.start_date), lte(routes.day, body.end_date),
      filters.practitioner_ids.length ? inArray(routes.practitioner_id, filters.practitioner_ids) : undefined,
    ))
    .orderBy(routes.day, practitioners.first_name, practitioners.last_name, routes.practitioner_id);
  return {
    visits_to_change: rows.filter(needsExport).length,
    changed_routes: changed.map((route) => ({
      date: route.date, practitioner_id: route.practitioner_id, practitioner_name: [route.first_name, route.last_name].filter(Boolean).join(' '),
    })),
  };
}

const kindWord = (kind: JobKind) => (kind === 'IMPORT' ? 'import' : 'export');

/** A job of the caller's business, or 404 (also for another business's job). */
async function findJob(ctx: AppContext, auth: AuthContext, kind: JobKind, id: number): Promise<JobRow> {
  const [job] = await ctx.db.select().from(jobs).where(and(
    eq(jobs.id, id), eq(jobs.kind, kind), eq(jobs.business_account_id, auth.businessAccountId),
  ));
  if (!job) throw notFound(kind === 'IMPORT' ? 'Import' : 'Export');
  return job;
}

/** Whether the caller started the job (automatic jobs have no author). */
const isAuthor = (auth: AuthContext, job: JobRow) => job.created_by_user_id !== null && job.created_by_user_id === auth.userId;

/**
 * A job the caller may read: an ADMIN reads every job of the business (the import and export history is theirs,
 * listImports/listExports are ADMIN only); anyone else reads only the jobs they started (the import and export
 * modals poll them). Others answer 404 like another business's job.
 */
export async function findVisibleJob(ctx: AppContext, auth: AuthContext, kind: JobKind, id: number): Promise<JobRow> {
  const job = await findJob(ctx, auth, kind, id);
  if (auth.role !== 'ADMIN' && !isAuthor(auth, job)) throw notFound(kind === 'IMPORT' ? 'Import' : 'Export');
  return job;
}

export async function listJobs(ctx: AppContext, auth: AuthContext, kind: Direction, page: number, perPage: number) {
  const where = and(eq(jobs.business_account_id, auth.businessAccountId), eq(jobs.kind, kind));
  const [{ total }] = await ctx.db.select({ total: count() }).from(jobs).where(where);
  const rows = await ctx.db.select().from(jobs).where(where).orderBy(desc(jobs.id)).limit(perPage).offset((page - 1) * perPage);
  return { rows, meta: { page, per_page: perPage, total: Number(total) } };
}

/**
 * Cancelling is for the job's author or an ADMIN (automatic-sync jobs have no author, so only an ADMIN): exactly the
 * callers who may read it, so anyone else gets the same 404 as for reading, which does not tell that the job exists.
 */
export async function cancelSyncJob(ctx: AppContext, auth: AuthContext, kind: Direction, id: number): Promise<JobRow> {
  const job = await findVisibleJob(ctx, auth, kind, id);
  const cancelled = await cancelJob(ctx.db, job.id);
  if (!cancelled) throw conflict(`The ${kindWord(kind)} has already finished (${job.status}).`);
  return cancelled;
}


/**
 * The last import and the last export the caller may read (findVisibleJob's rule: an ADMIN the business's, anyone
 * else the last they started), in one query.
 */
export async function lastSyncJobs(ctx: AppContext, auth: AuthContext): Promise<{ import: JobRow | null; export: JobRow | null }> {
  const rows = await ctx.db.selectDistinctOn([jobs.kind]).from(jobs).where(and(
    eq(jobs.business_account_id, auth.businessAccountId), inArray(jobs.kind, ['IMPORT', 'EXPORT']),
    auth.role === 'ADMIN' ? undefined : eq(jobs.created_by_user_id, auth.userId),
  )).orderBy(jobs.kind, desc(jobs.id));
  return { import: rows.find((row) => row.kind === 'IMPORT') ?? null, export: rows.find((row) => row.kind === 'EXPORT') ?? null };
}
