// Appointment reminders to clients. A reminders job of a business lists the reminders of every day whose
// reminder hour has come (sent_reminders rows, unique per client, day and channel), then claims them in chunks with a
// lease, sends each and marks it: claim → send → mark. Two workers claim different rows; a claim whose worker died
// is claimed again once its lease expires; a failed send is tried again later, up to maxAttempts, then FAILED and
// shown on the dashboard. The one duplicate left possible is a worker dying between an SMTP or SMS send and its mark;
// without SMTP the outbox rows and their marks commit together, a chunk at a time.
import { TransactionRollbackError } from 'drizzle-orm';
import type { AppContext } from '../../http/context';
import { invalid } from '../../http/errors';
import type { PhoneNumber } from '../../db/schema';
import { issueReminderAvailabilityLinks, turnOffRemindersByLink } from '../clients';
import { reminderChannels, type ReminderChannel } from './channels';
import type { ReminderContent, ReminderVisit } from './message';
import {
  claimReminders, failAbandonedReminders, failedReminders, failOverdueReminders, findReminderBusiness, insertDueReminders,
  markAllSent, markFailed, markRunEnumerated, markSent, markSkipped, releaseClaims, reminderClients, reminderVisits, runsToEnumerate,
  clientBusiness, type ClaimedReminder, type ReminderBusiness, type ReminderClient,
} from './repository';
import { dayRange, todayIn } from './schedule';
import { unsubscribeToken, clientOfUnsubscribeToken } from './unsubscribe-tokens';

export interface ReminderSettings {
  /** How long a claimed reminder is held by its worker before another may take it over. */
  leaseMs: number;
  /** Reminders claimed at once. */
  chunkSize: number;
  /** Tries of one reminder before it is FAILED. */
  maxAttempts: number;
  /** Wait before a failed send is tried again, times the attempts made. */
  retryDelayMs: number;
}

export const REMINDER_SETTINGS: ReminderSettings = { leaseMs: 5 * 60_000, chunkSize: 100, maxAttempts: 3, retryDelayMs: 5 * 60_000 };

export interface ReminderBatchResult {
  /** Reminders listed by this run (days whose hour came). */
  listed: number;
  sent: number;
  skipped: number;
  retrying: number;
  failed: number;
}

export interface ReminderBatchOptions {
  businessAccountId: number;
  workerId: string;
  /** Aborted: stop between sends and hand the unsent claims back. */
  signal?: AbortSignal;
  settings?: Partial<ReminderSettings>;
  /** Default: email, and SMS when configured. */
  channels?: ReminderChannel[];
  now?: Date;
}

export const UNSUBSCRIBE_AUTHOR = 'Client (reminder unsubscribe link)';
export const UNSUBSCRIBED_MESSAGE = "You won't get appointment reminders any more.";

const isTimeZone = (zone: string | null): zone is string => {
  if (!zone) return false;
  try {
    new Intl.DateTimeFormat('en-AU', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

/** The client's first mobile number (the PMS's phone type 'Mobile'). */
export function firstMobile(phones: PhoneNumber[]): string | null {
  const mobile = phones.find((phone) => phone.phone_type?.toLowerCase() === 'mobile' && phone.number.trim() !== '');
  return mobile ? mobile.number.trim() : null;
}

function addressOf(client: ReminderClient, channel: ReminderChannel['name']): string | null {
  if (channel === 'sms') return firstMobile(client.phone_numbers);
  const email = client.email?.trim() ?? '';
  return email.indexOf('@') > 0 ? email : null;
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 500);

/** One run of a business's reminders job. */
export async function runReminderBatch(ctx: AppContext, options: ReminderBatchOptions): Promise<ReminderBatchResult> {
  const settings = { ...REMINDER_SETTINGS, ...options.settings };
  const { db } = ctx;
  const { businessAccountId, workerId } = options;
  const result: ReminderBatchResult = { listed: 0, sent: 0, skipped: 0, retrying: 0, failed: 0 };
  const business = await findReminderBusiness(db, businessAccountId);
  if (!business?.reminders_enabled) return result;
  const channels = options.channels ?? reminderChannels(ctx);
  const today = todayIn(business.time_zone, options.now);

  for (const visitDate of await runsToEnumerate(db, businessAccountId)) {
    if (visitDate >= today) {
      result.listed += await insertDueReminders(db, businessAccountId, visitDate, dayRange(visitDate, business.time_zone), channels.map((channel) => channel.name));
    }
    await markRunEnumerated(db, businessAccountId, visitDate);
  }
  result.failed += await failOverdueReminders(db, businessAccountId, today);
  result.failed += await failAbandonedReminders(db, businessAccountId, settings.maxAttempts);

  const channelOf = new Map(channels.map((channel) => [channel.name, channel]));
  for (;;) {
    options.signal?.throwIfAborted();
    const claimed = await claimReminders(db, businessAccountId, today, {
      workerId, leaseMs: settings.leaseMs, limit: settings.chunkSize, maxAttempts: settings.maxAttempts,
    });
    if (claimed.length === 0) break;
    await sendChunk(ctx, business, claimed, channelOf, settings, options, result);
  }
  return result;
}

async function sendChunk(
  ctx: AppContext, business: ReminderBusiness, claimed: ClaimedReminder[], channelOf: Map<string, ReminderChannel>,
  settings: ReminderSettings, options: ReminderBatchOptions, result: ReminderBatchResult,
): Promise<void> {
  const { db } = ctx;
  const { workerId } = options;
  const clientIds = [...new Set(claimed.map((row) => row.client_id))];
  const dates = [...new Set(claimed.map((row) => row.visit_date))].sort();
  const range = { from: dayRange(dates[0], business.time_zone).from, to: dayRange(dates.at(-1)!, business.time_zone).to };
  const [clientRows, visitRows] = await Promise.all([
    reminderClients(db, business.id, clientIds),
    reminderVisits(db, business.id, clientIds, range, business.time_zone),
  ]);
  const clientsById = new Map(clientRows.map((client) => [client.id, client]));
  const visitsOf = new Map<string, ReminderVisit[]>();
  for (const row of visitRows) {
    const key = `${row.client_id}|${row.day}`;
    const visit = { startsAt: new Date(row.starts_at), arriveAt: row.arrive_at === null ? null : new Date(row.arrive_at), practitionerFirstName: row.practitioner_first_name };
    const list = visitsOf.get(key);
    if (list) list.push(visit);
    else visitsOf.set(key, [visit]);
  }

  // What each claim sends, or why it is skipped now (the client changed since the reminders were listed).
  const plans = claimed.map((row) => {
    const client = clientsById.get(row.client_id);
    const visits = visitsOf.get(`${row.client_id}|${row.visit_date}`) ?? [];
    const channel = channelOf.get(row.channel);
    const to = client ? addressOf(client, row.channel) : null;
    const skip = !client || !client.reminders_enabled ? 'The client turned reminders off.'
      : visits.length === 0 ? 'The client has no visits that day any more.'
        : !to ? `The client has no ${row.channel === 'sms' ? 'mobile number' : 'email address'} any more.`
          : !channel ? `Reminders by ${row.channel} are not configured on this server.` : null;
    return { row, client, visits, channel, to, skip };
  });
  const emailed = plans.filter((plan) => !plan.skip && plan.row.channel === 'email');
  const links = await issueReminderAvailabilityLinks(ctx, db, business.id, emailed.map((plan) => ({ clientId: plan.row.client_id, email: plan.to! })));
  const linkOf = new Map(emailed.map((plan, index) => [plan.row.id, links[index]]));

  const contentOf = (plan: typeof plans[number], client: ReminderClient): ReminderContent => ({
    business: { name: business.name, contactEmail: business.contact_email, contactPhone: business.contact_phone },
    clientFirstName: client.first_name,
    visitDate: plan.row.visit_date,
    timeZone: isTimeZone(client.time_zone) ? client.time_zone : business.time_zone,
    visits: plan.visits,
    availabilityLink: linkOf.get(plan.row.id) ?? null,
    unsubscribeLink: unsubscribeLinkOf(ctx, client.id),
  });

  // Channels that only write rows (the outbox) deliver a chunk and mark it sent in one transaction: exactly once.
  const kept = new Set<number>();
  for (const channel of channelOf.values()) {
    if (!channel.keepAll) continue;
    const batch = plans.filter((plan) => !plan.skip && plan.client && plan.to && plan.row.channel === channel.name);
    if (batch.length === 0) continue;
    const ids = batch.map((plan) => plan.row.id);
    const marked = await db.transaction(async (tx) => {
      await channel.keepAll!(tx, batch.map((plan) => ({ to: plan.to!, content: contentOf(plan, plan.client!) })), business.id);
      if (await markAllSent(tx, ids, workerId)) return true;
      tx.rollback();
      return false;
    }).catch((error: unknown) => {
      if (error instanceof TransactionRollbackError) return false;
      throw error;
    });
    if (!marked) continue; // another worker took these claims over (this one's lease ran out): theirs to send
    for (const id of ids) kept.add(id);
    result.sent += ids.length;
  }

  for (const [index, plan] of plans.entries()) {
    if (kept.has(plan.row.id)) continue;
    if (options.signal?.aborted) {
      await releaseClaims(db, plans.slice(index).map((rest) => rest.row.id), workerId);
      options.signal.throwIfAborted();
    }
    const { row, client } = plan;
    if (plan.skip || !client || !plan.channel || !plan.to) {
      if (await markSkipped(db, row.id, workerId, plan.skip ?? 'Nothing to send.')) result.skipped++;
      continue;
    }
    try {
      await plan.channel.send(plan.to, contentOf(plan, client), business.id);
    } catch (error) {
      const lastTry = row.attempts >= settings.maxAttempts;
      await markFailed(db, row.id, workerId, describe(error), lastTry ? null : settings.retryDelayMs * row.attempts);
      if (lastTry) result.failed++;
      else result.retrying++;
      ctx.log.warn({ err: error, sentReminderId: row.id, channel: row.channel, attempt: row.attempts }, lastTry ? 'reminder failed' : 'reminder will be retried');
      continue;
    }
    if (await markSent(db, row.id, workerId)) result.sent++;
  }
}

export function unsubscribeLinkOf(ctx: AppContext, clientId: number): string {
  return `${ctx.config.publicUrl}/client/reminders/unsubscribe?token=${encodeURIComponent(unsubscribeToken(ctx.config.appSecret, clientId))}`;
}

/** The unsubscribe link: the client gets no more reminders (using it again answers the same). */
export async function unsubscribe(ctx: AppContext, token: string): Promise<{ message: string; business_name: string }> {
  const clientId = clientOfUnsubscribeToken(ctx.config.appSecret, token);
  const client = clientId === null ? undefined : await clientBusiness(ctx.db, clientId);
  if (!client) throw invalid('This link is not valid. Please use the link from your most recent reminder, or ask your care provider to stop the reminders.');
  await turnOffRemindersByLink(ctx.db, client.business_account_id, client.id, UNSUBSCRIBE_AUTHOR);
  return { message: UNSUBSCRIBED_MESSAGE, business_name: client.business_name };
}

/** The dashboard's failed reminders: visit days from today on, the first 5 and how many. */
export async function failedReminderSummary(ctx: AppContext, businessAccountId: number, today: string) {
  const rows = await failedReminders(ctx.db, businessAccountId, today, 5);
  return {
    count: rows.length ? Number(rows[0].total) : 0,
    clients: rows.map((row) => ({ client_id: row.client_id, client_name: row.client_name, visit_date: row.visit_date, channel: row.channel, error: row.last_error })),
  };
}
