// The job queue: rows of jobs claimed with FOR UPDATE SKIP LOCKED and held by a lease (locked_until) that the
// running worker renews. A job whose lease expired is claimed again while it has attempts left, and otherwise ends
// in ERROR, so nothing stays INPROGRESS after its worker died.
import { EventEmitter } from 'node:events';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { queryRows, type Db, type DbOrTx, type Tx } from '../db/client';
import type { SyncFilters } from '../db/schema';
import { jobs, type JobKind, type JobStatus } from '../db/schema-jobs';

export type JobRow = typeof jobs.$inferSelect;

/** In-process signal that a job was enqueued, so an idle worker in this process starts at once. */
export const jobEvents = new EventEmitter();
jobEvents.setMaxListeners(100);

export const EMPTY_FILTERS: SyncFilters = { practitioner_ids: [], appointment_type_ids: [], business_location_ids: [] };

export interface NewJob {
  businessAccountId: number;
  kind: JobKind;
  startDate?: string | null;
  endDate?: string | null;
  filters?: SyncFilters;
  createdByUserId?: number | null;
  createdByName?: string | null;
  automatic?: boolean;
  maxAttempts?: number;
  /** What the job carries beyond its dates and filters (ETA_MESSAGE: the visit and step). */
  params?: Record<string, unknown>;
}

export async function enqueueJob(db: DbOrTx, job: NewJob): Promise<JobRow> {
  const [row] = await db.insert(jobs).values({
    business_account_id: job.businessAccountId,
    kind: job.kind,
    start_date: job.startDate ?? null,
    end_date: job.endDate ?? null,
    filters: job.filters ?? EMPTY_FILTERS,
    created_by_user_id: job.createdByUserId ?? null,
    created_by_name: job.createdByName ?? null,
    automatic: job.automatic ?? false,
    max_attempts: job.maxAttempts ?? 3,
    params: job.params ?? {},
  }).returning();
  jobEvents.emit('enqueued', row.id);
  return row;
}

/** Ends jobs whose lease expired with no attempts left. Returns how many. */
export async function failExhaustedJobs(db: Db): Promise<JobRow[]> {
  const rows = await queryRows<{ id: number }>(db, sql`
    UPDATE jobs SET status = 'ERROR', finished_at = now(), updated_at = now(), locked_by = NULL, locked_until = NULL,
      error_message = 'The worker running this job stopped responding ' || attempts || ' time(s); giving up. Start it again.'
    WHERE status = 'INPROGRESS' AND locked_until < now() AND attempts >= max_attempts
    RETURNING id`);
  return rows.length ? db.select().from(jobs).where(inArray(jobs.id, rows.map((row) => row.id))) : [];
}

/**
 * Which jobs a claimer takes. A worker claims each lane in a slot of its own, so a message never waits behind an
 * import and an import never waits behind a search: `messages` the clients' ETA messages, the daily reminders and the
 * writes of single visits to the PMS (bookings), `sync` imports, exports and provider set-ups, `search` optimisation
 * runs and care-plan allocations; `any` every kind (a single loop that drains the queue).
 */
export type Lane = 'messages' | 'sync' | 'search' | 'any';

export const LANE_KINDS: Record<Exclude<Lane, 'any'>, readonly JobKind[]> = {
  messages: ['ETA_MESSAGE', 'REMINDERS', 'PMS_WRITE'],
  sync: ['IMPORT', 'EXPORT', 'PROVIDER_SETUP'],
  search: ['OPTIMIZE', 'CARE_ALLOCATION'],
};
/** The lanes in which a business has at most one job running at a time (each holds a worker's slot for long). */
const ONE_PER_BUSINESS = ['sync', 'search'] as const;

const kindsIn = (kinds: readonly JobKind[]) => sql.join(kinds.map((kind) => sql`${kind}`), sql`, `);
const laneOfKind = (kind: JobKind) => (Object.keys(LANE_KINDS) as Exclude<Lane, 'any'>[]).find((lane) => LANE_KINDS[lane].includes(kind))!;

/** When the business of the job `j` last had a turn in the job's lane (null: never). */
const LATEST_TURN = sql`CASE ${sql.join((Object.keys(LANE_KINDS) as Exclude<Lane, 'any'>[]).map((lane) => sql`
  WHEN j.kind IN (${kindsIn(LANE_KINDS[lane])}) THEN (SELECT max(turn.claimed_at) FROM jobs turn
    WHERE turn.business_account_id = j.business_account_id AND turn.kind IN (${kindsIn(LANE_KINDS[lane])}))`), sql` `)} END`;

/** True when the business of the job `j` already has a job running in its lane, for the lanes that allow one. */
const BUSINESS_BUSY = sql`(${sql.join(ONE_PER_BUSINESS.map((lane) => sql`(j.kind IN (${kindsIn(LANE_KINDS[lane])}) AND EXISTS (
  SELECT 1 FROM jobs running
  WHERE running.business_account_id = j.business_account_id AND running.kind IN (${kindsIn(LANE_KINDS[lane])}) AND running.id <> j.id
    AND running.status = 'INPROGRESS' AND running.locked_until >= now()))`), sql` OR `)})`;

/**
 * Claims a runnable job: PENDING and due, or INPROGRESS with an expired lease and attempts left. Two workers never
 * get the same job: the row is locked while it is updated and other claimers skip it.
 *
 * Each lane serves the businesses in turn: the business whose latest job in the lane was taken longest ago (or never)
 * goes first, then its oldest job, so a business with many jobs waiting does not keep the next business's behind all
 * of them. An ETA message goes before a reminders run (a client is waiting for it now). An import, export or set-up
 * is claimed only while no other of its business runs, and so is an optimisation run: one business's jobs never hold
 * every worker.
 */
export async function claimJob(db: Db, workerId: string, leaseMs: number, onlyId?: number, lane: Lane = 'any'): Promise<JobRow | null> {
  const kinds = lane === 'any' ? null : LANE_KINDS[lane];
  const claim = async (tx: DbOrTx) => queryRows<{ id: number }>(tx, sql`
    UPDATE jobs SET status = 'INPROGRESS', locked_by = ${workerId},
      locked_until = now() + ${leaseMs} * interval '1 millisecond', heartbeat_at = now(),
      attempts = attempts + 1, started_at = coalesce(started_at, now()), claimed_at = now(), updated_at = now()
    WHERE id = (
      SELECT j.id FROM jobs j
      WHERE ((j.status = 'PENDING' AND j.run_after <= now())
         OR (j.status = 'INPROGRESS' AND j.locked_until < now() AND j.attempts < j.max_attempts))
        ${kinds ? sql`AND j.kind IN (${kindsIn(kinds)})` : sql``}
        ${onlyId === undefined ? sql`` : sql`AND j.id = ${onlyId}`}
        AND NOT ${BUSINESS_BUSY}
      ORDER BY CASE j.kind WHEN 'ETA_MESSAGE' THEN 0 WHEN 'REMINDERS' THEN 1 ELSE 2 END, ${LATEST_TURN} NULLS FIRST, j.id
      LIMIT 1
      FOR UPDATE SKIP LOCKED
    )
    RETURNING id`);
  const rows = lane === 'messages'
    ? await claim(db)
    // Claims in a lane with one job per business take turns (a lock held to the end of the claim's transaction), so two
    // claimers never both see a business with nothing running; each statement after the lock sees the claims committed
    // before it.
    : await db.transaction(async (tx) => {
      for (const locked of lane === 'any' ? ONE_PER_BUSINESS : [lane]) {
        await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`rounds:claim-${locked}`}))`);
      }
      return claim(tx);
    });
  if (rows.length === 0) return null;
  return getJob(db, Number(rows[0].id));
}

/**
 * Whether another business has a job waiting in `job`'s lane that may start, and had its latest turn there before
 * `job` was taken: a job that works in steps (a week's optimisation run, day by day) gives its slot up to it between
 * steps.
 */
export async function anotherBusinessWaits(db: DbOrTx, job: JobRow): Promise<boolean> {
  const kinds = LANE_KINDS[laneOfKind(job.kind)];
  const rows = await queryRows<{ id: number }>(db, sql`
    SELECT j.id FROM jobs j
    WHERE j.status = 'PENDING' AND j.run_after <= now() AND j.kind IN (${kindsIn(kinds)})
      AND j.business_account_id <> ${job.business_account_id}
      AND NOT ${BUSINESS_BUSY}
      AND coalesce(${LATEST_TURN}, '-infinity'::timestamptz) < ${(job.claimed_at ?? new Date()).toISOString()}::timestamptz
    LIMIT 1`);
  return rows.length > 0;
}

/**
 * How many jobs the queue will start before the waiting job `id` in its lane (0: it is next), by the claim's order:
 * the businesses take turns, the one whose latest turn is oldest first, each with its oldest job. Null when the job
 * is not waiting.
 */
export async function jobsAhead(db: DbOrTx, id: number): Promise<number | null> {
  const job = await getJob(db, id);
  if (!job || job.status !== 'PENDING') return null;
  const rows = await queryRows<{ id: number; business_account_id: number; latest_turn: Date | string | null }>(db, sql`
    SELECT j.id, j.business_account_id, ${LATEST_TURN} AS latest_turn FROM jobs j
    WHERE j.status = 'PENDING' AND j.kind IN (${kindsIn(LANE_KINDS[laneOfKind(job.kind)])})
    ORDER BY j.id`);
  const waiting = new Map<number, { turn: number; ids: number[] }>();
  for (const row of rows) {
    const business = waiting.get(row.business_account_id)
      ?? { turn: row.latest_turn === null ? -Infinity : new Date(row.latest_turn).getTime(), ids: [] };
    business.ids.push(Number(row.id));
    waiting.set(row.business_account_id, business);
  }
  // Each business served goes to the back of the line, after every turn taken before it.
  let latest = Math.max(Date.now(), ...[...waiting.values()].map((business) => business.turn));
  for (let ahead = 0; ; ahead++) {
    const [next] = [...waiting.values()].filter((business) => business.ids.length > 0)
      .sort((a, b) => a.turn - b.turn || a.ids[0] - b.ids[0]);
    if (!next) return null;
    if (next.ids[0] === id) return ahead;
    next.ids.shift();
    next.turn = ++latest;
  }
}

export async function getJob(db: DbOrTx, id: number): Promise<JobRow | null> {
  const [row] = await db.select().from(jobs).where(eq(jobs.id, id));
  return row ?? null;
}

/** Renews the lease; false when this worker no longer holds the job (cancelled, or taken over after expiry). */
export async function renewLease(db: Db, id: number, workerId: string, leaseMs: number): Promise<boolean> {
  const rows = await db.update(jobs).set({
    locked_until: sql`now() + ${leaseMs} * interval '1 millisecond'`,
    heartbeat_at: sql`now()`,
  }).where(and(eq(jobs.id, id), eq(jobs.locked_by, workerId), eq(jobs.status, 'INPROGRESS')))
    .returning({ id: jobs.id });
  return rows.length > 0;
}

/** Thrown inside a job when it was cancelled or another worker took it over; the job row is left as it is. */
export class JobInterrupted extends Error {
  constructor(readonly reason: 'cancelled' | 'lease_lost' | 'shutdown' | 'gave_way') {
    super({
      cancelled: 'The job was cancelled.',
      shutdown: 'The worker is shutting down.',
      lease_lost: 'This worker lost the job\'s lease.',
      gave_way: 'The job gave its slot to another business\'s job waiting for it.',
    }[reason]);
  }
}

/**
 * Inside a transaction: locks the job row and checks this worker still holds it. Every page a job applies calls
 * this first, so a cancelled job or a job whose lease moved to another worker writes nothing more.
 */
export async function assertJobHeld(tx: Tx, id: number, workerId: string): Promise<void> {
  const rows = await queryRows<{ status: JobStatus; locked_by: string | null }>(tx,
    sql`SELECT status, locked_by FROM jobs WHERE id = ${id} FOR UPDATE`);
  const row = rows[0];
  if (!row || row.status === 'CANCELLED') throw new JobInterrupted('cancelled');
  if (row.status !== 'INPROGRESS' || row.locked_by !== workerId) throw new JobInterrupted('lease_lost');
}

/**
 * Stores what a running job has done so far as its result (an import's or export's counts), in the transaction that
 * wrote it: a job taken over or failed keeps the counts of what committed, and a retry goes on from them.
 */
export async function saveResultSoFar(db: DbOrTx, id: number, result: Record<string, unknown>): Promise<void> {
  await db.update(jobs).set({ result, updated_at: new Date() }).where(eq(jobs.id, id));
}

/** Stores how far a running job has got in jobs.progress (an optimisation's search: time used, best plan so far). */
export async function saveJobProgress(db: DbOrTx, id: number, progress: Record<string, unknown>): Promise<void> {
  await db.update(jobs).set({ progress, updated_at: new Date() }).where(eq(jobs.id, id));
}

async function finishIfHeld(db: Db, id: number, workerId: string, values: Partial<JobRow>): Promise<boolean> {
  const rows = await db.update(jobs).set({ ...values, locked_by: null, locked_until: null, updated_at: new Date() })
    .where(and(eq(jobs.id, id), eq(jobs.locked_by, workerId), eq(jobs.status, 'INPROGRESS')))
    .returning({ id: jobs.id });
  return rows.length > 0;
}

export function completeJob(db: Db, id: number, workerId: string, result: Record<string, unknown> | null) {
  return finishIfHeld(db, id, workerId, { status: 'COMPLETE', result: result ?? undefined, error_message: null, finished_at: new Date() });
}

export function failJob(db: Db, id: number, workerId: string, message: string) {
  return finishIfHeld(db, id, workerId, { status: 'ERROR', error_message: message, finished_at: new Date() });
}

/** Puts a job back in the queue to run again after `delayMs` (temporary PMS failures). */
export function retryJobLater(db: Db, id: number, workerId: string, delayMs: number, message: string) {
  return finishIfHeld(db, id, workerId, {
    status: 'PENDING',
    run_after: new Date(Date.now() + delayMs),
    // Kept visible while waiting so the history shows why the job is not done yet; cleared on success.
    error_message: message,
  });
}

/** Hands a job back to the queue when its worker shuts down cleanly or it gives way (the attempt does not count). */
export function releaseJob(db: Db, id: number, workerId: string) {
  return finishIfHeld(db, id, workerId, { status: 'PENDING', attempts: sql`greatest(attempts - 1, 0)` as unknown as number });
}

/** Cancels a job that has not finished; returns the row, or null when it had already finished. */
export async function cancelJob(db: DbOrTx, id: number, message?: string): Promise<JobRow | null> {
  const [row] = await db.update(jobs).set({
    status: 'CANCELLED', finished_at: new Date(), updated_at: new Date(), locked_by: null, locked_until: null,
    ...(message ? { error_message: message } : {}),
  }).where(and(eq(jobs.id, id), inArray(jobs.status, ['PENDING', 'INPROGRESS']))).returning();
  return row ?? null;
}

/** Cancels a business's unfinished jobs (of one kind, or all); a worker running one stops at its next step. */
export async function cancelUnfinishedJobs(db: DbOrTx, businessAccountId: number, message: string, kind?: JobKind): Promise<void> {
  await db.update(jobs).set({
    status: 'CANCELLED', finished_at: new Date(), updated_at: new Date(), locked_by: null, locked_until: null, error_message: message,
  }).where(and(
    eq(jobs.business_account_id, businessAccountId),
    inArray(jobs.status, ['PENDING', 'INPROGRESS']),
    ...(kind ? [eq(jobs.kind, kind)] : []),
  ));
}
