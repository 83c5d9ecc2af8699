// Optimisation runs' records: each run is a job (the queue's state and the search's progress, jobs/queue.ts) and a
// row of optimization_runs with the same id (what was asked, the days' proposals, and what became of them). Every
// query is scoped to the business passed first.
import { and, asc, eq, getTableColumns, gte, inArray, lte, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { jobs } from '../../db/schema-jobs';
import { optimizationRuns } from '../../db/schema-optimizations';
import type { OptimizationMode } from './problem';
import type { Proposal, VisitFingerprint } from './proposal';
import type { SavedRoute } from '../schedule';
import type { WrittenVisit } from './repository';
import type { VisitCarers } from './week';

/** One day of a run: its proposal and its visits as they were. */
export interface RunDay {
  proposal: Proposal;
  fingerprints: VisitFingerprint[];
  /** Kept only while the run goes on (reassigning): [client, the practitioner this day's plan gave them], for continuity on the days after. */
  planned_clients?: [number, number][];
  /** [client, practitioner as booked, as proposed] per visit of the run's practitioners that day (the run's continuity; runs before it have none). */
  carers?: VisitCarers[];
}

/** What Undo needs: each visit as it was before Apply and as Apply left it, and the routes Apply replaced. */
export interface AppliedChanges {
  visits: { id: number; arrive_at: string | null; practitioner_id: number; route_id: number | null }[];
  written: WrittenVisit[];
  routes: SavedRoute[];
}

const { start_date: _start, end_date: _end, filters: _filters, params: _params, result: _result, ...jobColumns } = getTableColumns(jobs);
const { job_id: _jobId, business_account_id: _business, ...runColumns } = getTableColumns(optimizationRuns);

/** A run: its job's queue state and progress, and its own record. */
export type RunRow = Omit<typeof jobs.$inferSelect, 'start_date' | 'end_date' | 'filters' | 'params' | 'result'>
  & Omit<typeof optimizationRuns.$inferSelect, 'job_id' | 'business_account_id' | 'days' | 'undo'>
  & { days: RunDay[] | null; undo: AppliedChanges | null; plan_number: number };

/** Which plan of its days a run is: the business's runs of the same first and last day up to it. */
const planNumber = sql<number>`(SELECT count(*)::int FROM optimization_runs AS same
  WHERE same.business_account_id = ${optimizationRuns.business_account_id} AND same.first_date = ${optimizationRuns.first_date}
    AND same.last_date = ${optimizationRuns.last_date} AND same.job_id <= ${optimizationRuns.job_id})`;

const selectRuns = (db: DbOrTx) => db.select({ ...jobColumns, ...runColumns, plan_number: planNumber }).from(jobs)
  .innerJoin(optimizationRuns, eq(optimizationRuns.job_id, jobs.id));

/** Waits for any other transaction creating a run of the same business, so the overlap and queue checks cannot race. */
export async function lockBusinessForRuns(tx: DbOrTx, businessAccountId: number): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`optimize:${businessAccountId}`}))`);
}

/** How many of the business's runs wait for a worker. */
export async function waitingRunCount(db: DbOrTx, businessAccountId: number): Promise<number> {
  const [row] = await db.select({ count: sql<number>`count(*)::int` }).from(jobs).where(and(
    eq(jobs.business_account_id, businessAccountId), eq(jobs.kind, 'OPTIMIZE'), eq(jobs.status, 'PENDING'),
  ));
  return row.count;
}

export interface NewRun { firstDate: string; lastDate: string; mode: OptimizationMode; practitionerIds: number[]; seed: number }

/** Records what a run queued as job `jobId` was asked to plan. */
export async function insertRun(tx: DbOrTx, businessAccountId: number, jobId: number, run: NewRun): Promise<void> {
  await tx.insert(optimizationRuns).values({
    job_id: jobId, business_account_id: businessAccountId, first_date: run.firstDate, last_date: run.lastDate,
    mode: run.mode, practitioner_ids: run.practitionerIds, seed: run.seed,
  });
}

/** The business's runs that have not finished and plan any day from `first` to `last`. */
export async function unfinishedRuns(db: DbOrTx, businessAccountId: number, first: string, last = first): Promise<RunRow[]> {
  return (await selectRuns(db).where(and(
    eq(jobs.business_account_id, businessAccountId), eq(optimizationRuns.business_account_id, businessAccountId),
    lte(optimizationRuns.first_date, last), gte(optimizationRuns.last_date, first),
    inArray(jobs.status, ['PENDING', 'INPROGRESS']),
  )).orderBy(asc(jobs.id))) as RunRow[];
}

/** A run of the business, with its job row and its record locked for the rest of the transaction when `lock`. */
export async function findRun(db: DbOrTx, businessAccountId: number, id: number, lock = false): Promise<RunRow | undefined> {
  const query = selectRuns(db).where(and(
    eq(jobs.id, id), eq(jobs.kind, 'OPTIMIZE'), eq(jobs.business_account_id, businessAccountId), eq(optimizationRuns.business_account_id, businessAccountId),
  ));
  const [row] = lock ? await query.for('update') : await query;
  return row as RunRow | undefined;
}

/** Stores the days' proposals a run's search made, so far or all (in the job's guarded transaction). */
export async function saveRunDays(tx: DbOrTx, jobId: number, days: RunDay[]): Promise<void> {
  await tx.update(optimizationRuns).set({ days }).where(eq(optimizationRuns.job_id, jobId));
}

export async function markRunApplied(tx: DbOrTx, jobId: number, applied: { at: Date; userId: number; name: string; undo: AppliedChanges }): Promise<void> {
  await tx.update(optimizationRuns).set({
    applied_at: applied.at, applied_by_user_id: applied.userId, applied_by_name: applied.name, undo: applied.undo,
  }).where(eq(optimizationRuns.job_id, jobId));
}

export async function markRunDiscarded(tx: DbOrTx, jobId: number, discarded: { at: Date; name: string }): Promise<void> {
  await tx.update(optimizationRuns).set({ discarded_at: discarded.at, discarded_by_name: discarded.name }).where(eq(optimizationRuns.job_id, jobId));
}

export async function markRunUndone(tx: DbOrTx, jobId: number, undone: { at: Date; name: string }): Promise<void> {
  await tx.update(optimizationRuns).set({ undone_at: undone.at, undone_by_name: undone.name }).where(eq(optimizationRuns.job_id, jobId));
}
