// The reminders' SQL: which businesses are due, the sent_reminders ledger (insert, claim with a lease, mark), and what
// a claimed reminder says (the client and their visits). Every query is scoped to the business passed.
import { sql } from 'drizzle-orm';
import { queryRows, type Db, type DbOrTx } from '../../db/client';
import type { PhoneNumber } from '../../db/schema';
import type { ReminderChannel, SentReminderStatus } from '../../db/schema-reminders';

export interface ReminderBusiness {
  id: number;
  name: string;
  time_zone: string;
  reminder_hour: number;
  reminders_enabled: boolean;
  contact_email: string;
  contact_phone: string;
}

/** Active businesses that have reminders on and whose next day at `now` (in their zone) is not handed out yet. */
export async function businessesWithReminders(db: Db, now: Date): Promise<Pick<ReminderBusiness, 'id' | 'time_zone' | 'reminder_hour'>[]> {
  return queryRows(db, sql`
    SELECT b.id, b.time_zone, b.reminder_hour FROM business_accounts b
    WHERE b.active AND b.reminders_enabled AND NOT EXISTS (
      SELECT 1 FROM reminder_runs r
      WHERE r.business_account_id = b.id AND r.visit_date = (${now.toISOString()}::timestamptz AT TIME ZONE b.time_zone)::date + 1)
    ORDER BY b.id`);
}

export async function findReminderBusiness(db: Db, businessAccountId: number): Promise<ReminderBusiness | undefined> {
  const [row] = await queryRows<ReminderBusiness>(db, sql`
    SELECT id, name, time_zone, reminder_hour, reminders_enabled AND active AS reminders_enabled, contact_email, contact_phone
    FROM business_accounts WHERE id = ${businessAccountId}`);
  return row;
}

/** Hands out a business's batch of a visit day once across all processes: true for the one caller that got it. */
export async function claimRun(db: Db, businessAccountId: number, visitDate: string, dueAt: Date): Promise<boolean> {
  const rows = await queryRows(db, sql`
    INSERT INTO reminder_runs (business_account_id, visit_date, due_at) VALUES (${businessAccountId}, ${visitDate}::date, ${dueAt.toISOString()}::timestamptz)
    ON CONFLICT DO NOTHING RETURNING visit_date`);
  return rows.length > 0;
}

/**
 * Businesses (with reminders on) that have work for a reminders job: a claimed day whose reminders are not listed yet,
 * or reminders waiting for a retry or left behind by a worker that died. With the first visit day concerned.
 */
export async function businessesWithReminderWork(db: Db): Promise<{ business_account_id: number; visit_date: string }[]> {
  return queryRows(db, sql`
    SELECT w.business_account_id, to_char(min(w.visit_date), 'YYYY-MM-DD') AS visit_date
    FROM (
      SELECT business_account_id, visit_date FROM reminder_runs WHERE enumerated_at IS NULL
      UNION ALL
      SELECT business_account_id, visit_date FROM sent_reminders
      WHERE (status = 'PENDING' AND run_after <= now()) OR (status = 'SENDING' AND locked_until < now())
    ) w
    JOIN business_accounts b ON b.id = w.business_account_id AND b.active AND b.reminders_enabled
    GROUP BY w.business_account_id
    ORDER BY w.business_account_id`);
}

/** The business's claimed days whose reminders are not listed yet. */
export async function runsToEnumerate(db: Db, businessAccountId: number): Promise<string[]> {
  const rows = await queryRows<{ visit_date: string }>(db, sql`
    SELECT to_char(visit_date, 'YYYY-MM-DD') AS visit_date FROM reminder_runs
    WHERE business_account_id = ${businessAccountId} AND enumerated_at IS NULL ORDER BY visit_date`);
  return rows.map((row) => row.visit_date);
}

export async function markRunEnumerated(db: Db, businessAccountId: number, visitDate: string): Promise<void> {
  await queryRows(db, sql`
    UPDATE reminder_runs SET enumerated_at = now()
    WHERE business_account_id = ${businessAccountId} AND visit_date = ${visitDate}::date RETURNING visit_date`);
}

const MOBILE = sql`EXISTS (SELECT 1 FROM jsonb_array_elements(c.phone_numbers) phone
  WHERE lower(phone->>'phone_type') = 'mobile' AND btrim(coalesce(phone->>'number', '')) <> '')`;
const HAS_EMAIL = sql`position('@' IN coalesce(c.email, '')) > 1`;

/**
 * Inserts a PENDING reminder per channel for each client of the business with reminders on, a way to reach them on
 * that channel, and a visit that is not cancelled in [from, to). Rows already there (another worker's, or an
 * earlier run's) are left as they are. Returns how many were inserted.
 */
export async function insertDueReminders(
  db: Db, businessAccountId: number, visitDate: string, range: { from: Date; to: Date }, channels: ReminderChannel[],
): Promise<number> {
  if (channels.length === 0) return 0;
  const reachable = sql.join(channels.map((channel) => (channel === 'email' ? sql`(ch.channel = 'email' AND ${HAS_EMAIL})` : sql`(ch.channel = 'sms' AND ${MOBILE})`)), sql` OR `);
  const rows = await queryRows(db, sql`
    INSERT INTO sent_reminders (business_account_id, client_id, visit_date, channel)
    SELECT c.business_account_id, c.id, ${visitDate}::date, ch.channel
    FROM clients c
    CROSS JOIN (VALUES ${sql.join(channels.map((channel) => sql`(${channel})`), sql`, `)}) AS ch(channel)
    WHERE c.business_account_id = ${businessAccountId} AND c.reminders_enabled AND (${reachable})
      AND c.id IN (
        SELECT a.client_id FROM appointments a
        WHERE a.business_account_id = ${businessAccountId} AND a.cancelled_at IS NULL AND a.client_id IS NOT NULL
          AND a.starts_at >= ${range.from.toISOString()}::timestamptz AND a.starts_at < ${range.to.toISOString()}::timestamptz)
    ORDER BY c.id, ch.channel
    ON CONFLICT (client_id, visit_date, channel) DO NOTHING
    RETURNING id`);
  return rows.length;
}

/** Reminders still unsent for visit days before `today`: too late now, so they count as failed. */
export async function failOverdueReminders(db: Db, businessAccountId: number, today: string): Promise<number> {
  const rows = await queryRows(db, sql`
    UPDATE sent_reminders SET status = 'FAILED', locked_by = NULL, locked_until = NULL, updated_at = now(),
      last_error = coalesce(last_error || ' ', '') || 'The visit day passed before the reminder could be sent.'
    WHERE business_account_id = ${businessAccountId} AND status IN ('PENDING', 'SENDING') AND visit_date < ${today}::date
      AND (status = 'PENDING' OR locked_until < now())
    RETURNING id`);
  return rows.length;
}

/** Claims whose worker died after the last attempt: failed, the attempts are used up. */
export async function failAbandonedReminders(db: Db, businessAccountId: number, maxAttempts: number): Promise<number> {
  const rows = await queryRows(db, sql`
    UPDATE sent_reminders SET status = 'FAILED', locked_by = NULL, locked_until = NULL, updated_at = now(),
      last_error = 'The worker sending this reminder stopped responding ' || attempts || ' time(s).'
    WHERE business_account_id = ${businessAccountId} AND status = 'SENDING' AND locked_until < now() AND attempts >= ${maxAttempts}
    RETURNING id`);
  return rows.length;
}

export interface ClaimedReminder {
  id: number;
  client_id: number;
  visit_date: string;
  channel: ReminderChannel;
  attempts: number;
}

/**
 * Claims up to `limit` of the business's reminders from `today` on that are PENDING and due, or SENDING with an
 * expired lease (their worker died) and attempts left: SENDING, held by `workerId` until the lease ends. Two workers
 * never claim the same row (locked while updated; other claimers skip it).
 */
export async function claimReminders(
  db: Db, businessAccountId: number, today: string, claim: { workerId: string; leaseMs: number; limit: number; maxAttempts: number },
): Promise<ClaimedReminder[]> {
  const rows = await queryRows<ClaimedReminder & { id: number | string }>(db, sql`
    UPDATE sent_reminders SET status = 'SENDING', locked_by = ${claim.workerId},
      locked_until = now() + ${claim.leaseMs} * interval '1 millisecond', attempts = attempts + 1, updated_at = now()
    WHERE id IN (
      SELECT id FROM sent_reminders
      WHERE business_account_id = ${businessAccountId} AND visit_date >= ${today}::date
        AND ((status = 'PENDING' AND run_after <= now()) OR (status = 'SENDING' AND locked_until < now()))
        AND attempts < ${claim.maxAttempts}
      ORDER BY id
      LIMIT ${claim.limit}
      FOR UPDATE SKIP LOCKED)
    RETURNING id, client_id, to_char(visit_date, 'YYYY-MM-DD') AS visit_date, channel, attempts`);
  return rows.map((row) => ({ ...row, id: Number(row.id) })).sort((a, b) => a.id - b.id);
}

export interface ReminderClient {
  id: number;
  first_name: string;
  email: string | null;
  phone_numbers: PhoneNumber[];
  time_zone: string | null;
  reminders_enabled: boolean;
}

export async function reminderClients(db: Db, businessAccountId: number, clientIds: number[]): Promise<ReminderClient[]> {
  if (clientIds.length === 0) return [];
  return queryRows(db, sql`
    SELECT id, first_name, email, phone_numbers, time_zone, reminders_enabled FROM clients
    WHERE business_account_id = ${businessAccountId} AND id = ANY(${`{${clientIds.join(',')}}`}::int[])`);
}

export interface ReminderVisitRow {
  client_id: number;
  day: string;
  starts_at: Date | string;
  arrive_at: Date | string | null;
  practitioner_first_name: string;
}

/** The clients' visits that are not cancelled in [from, to), with the day they fall on in `timeZone`, by arrival. */
export async function reminderVisits(
  db: Db, businessAccountId: number, clientIds: number[], range: { from: Date; to: Date }, timeZone: string,
): Promise<ReminderVisitRow[]> {
  if (clientIds.length === 0) return [];
  return queryRows(db, sql`
    SELECT a.client_id, to_char((a.starts_at AT TIME ZONE ${timeZone})::date, 'YYYY-MM-DD') AS day, a.starts_at, a.arrive_at,
           p.first_name AS practitioner_first_name
    FROM appointments a
    JOIN practitioners p ON p.id = a.practitioner_id AND p.business_account_id = ${businessAccountId}
    WHERE a.business_account_id = ${businessAccountId} AND a.cancelled_at IS NULL
      AND a.client_id = ANY(${`{${clientIds.join(',')}}`}::int[])
      AND a.starts_at >= ${range.from.toISOString()}::timestamptz AND a.starts_at < ${range.to.toISOString()}::timestamptz
    ORDER BY a.client_id, coalesce(a.arrive_at, a.starts_at), a.id`);
}

/** Ends a claim this worker still holds; false when it no longer does (its lease expired and another took it). */
async function finish(db: DbOrTx, id: number, workerId: string, status: SentReminderStatus, extra = sql``): Promise<boolean> {
  const rows = await queryRows(db, sql`
    UPDATE sent_reminders SET status = ${status}, locked_by = NULL, locked_until = NULL, updated_at = now() ${extra}
    WHERE id = ${id} AND locked_by = ${workerId} AND status = 'SENDING'
    RETURNING id`);
  return rows.length > 0;
}

/** Marks claims this worker holds as sent, all or none: false (nothing marked) when any of them is no longer held. */
export async function markAllSent(db: Db, ids: number[], workerId: string): Promise<boolean> {
  if (ids.length === 0) return true;
  const rows = await queryRows(db, sql`
    UPDATE sent_reminders SET status = 'SENT', locked_by = NULL, locked_until = NULL, updated_at = now(), sent_at = now(), last_error = NULL
    WHERE id = ANY(${`{${ids.join(',')}}`}::bigint[]) AND locked_by = ${workerId} AND status = 'SENDING'
    RETURNING id`);
  return rows.length === ids.length;
}

export const markSent = (db: Db, id: number, workerId: string) => finish(db, id, workerId, 'SENT', sql`, sent_at = now(), last_error = NULL`);

/** Nothing to send any more (opted out, no visits or no address left since the batch began). */
export const markSkipped = (db: Db, id: number, workerId: string, reason: string) => finish(db, id, workerId, 'SKIPPED', sql`, last_error = ${reason}`);

/** A failed send: tried again after `retryInMs`, or FAILED when `retryInMs` is null. */
export function markFailed(db: Db, id: number, workerId: string, error: string, retryInMs: number | null): Promise<boolean> {
  return retryInMs === null
    ? finish(db, id, workerId, 'FAILED', sql`, last_error = ${error}`)
    : finish(db, id, workerId, 'PENDING', sql`, last_error = ${error}, run_after = now() + ${retryInMs} * interval '1 millisecond'`);
}

/** Hands claims back unsent (the worker is stopping): PENDING again, the attempt not counted. */
export async function releaseClaims(db: Db, ids: number[], workerId: string): Promise<void> {
  if (ids.length === 0) return;
  await queryRows(db, sql`
    UPDATE sent_reminders SET status = 'PENDING', locked_by = NULL, locked_until = NULL, attempts = attempts - 1, updated_at = now()
    WHERE id = ANY(${`{${ids.join(',')}}`}::bigint[]) AND locked_by = ${workerId} AND status = 'SENDING'
    RETURNING id`);
}

export interface FailedReminderRow {
  client_id: number;
  client_name: string;
  visit_date: string;
  channel: ReminderChannel;
  last_error: string | null;
  total: number | string;
}

/** The business's reminders that failed for good for visit days from `today` on: the first `limit`, and how many. */
export async function failedReminders(db: Db, businessAccountId: number, today: string, limit: number): Promise<FailedReminderRow[]> {
  return queryRows(db, sql`
    SELECT s.client_id, btrim(c.first_name || ' ' || c.last_name) AS client_name, to_char(s.visit_date, 'YYYY-MM-DD') AS visit_date,
           s.channel, s.last_error, count(*) OVER () AS total
    FROM sent_reminders s JOIN clients c ON c.id = s.client_id
    WHERE s.business_account_id = ${businessAccountId} AND s.status = 'FAILED' AND s.visit_date >= ${today}::date
    ORDER BY s.visit_date, client_name, s.id
    LIMIT ${limit}`);
}

/** A client's id, business and business name (the unsubscribe link names only the client). */
export async function clientBusiness(db: Db, clientId: number): Promise<{ id: number; business_account_id: number; business_name: string } | undefined> {
  const [row] = await queryRows<{ id: number; business_account_id: number; business_name: string }>(db, sql`
    SELECT c.id, c.business_account_id, b.name AS business_name FROM clients c JOIN business_accounts b ON b.id = c.business_account_id
    WHERE c.id = ${clientId}`);
  return row;
}
