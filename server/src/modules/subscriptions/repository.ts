// Subscription queries: the subscriptions and billing_events tables (this module is their only writer) and the counts
// the Subscription info page shows (seats, this month's usage), read from the tables that record them.
import { eq, inArray, sql } from 'drizzle-orm';
import { billingEvents, businessAccounts, subscriptions } from '../../db/schema';
import { queryRows, type DbOrTx } from '../../db/client';

export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type SubscriptionChanges = Partial<Omit<SubscriptionRow, 'business_account_id' | 'updated_at'>>;

export interface BusinessWithSubscription {
  businessAccountId: number;
  businessCreatedAt: Date;
  timeZone: string;
  subscription: SubscriptionRow | null;
}

export async function findBusinessWithSubscription(db: DbOrTx, businessAccountId: number): Promise<BusinessWithSubscription | undefined> {
  const [row] = await db.select({ business: businessAccounts, subscription: subscriptions }).from(businessAccounts)
    .leftJoin(subscriptions, eq(subscriptions.business_account_id, businessAccounts.id))
    .where(eq(businessAccounts.id, businessAccountId));
  return row && {
    businessAccountId: row.business.id, businessCreatedAt: row.business.created_at, timeZone: row.business.time_zone,
    subscription: row.subscription,
  };
}

/** The businesses of `businessAccountIds` with their subscription rows (null where a business has none yet). */
export async function findBusinessesWithSubscriptions(db: DbOrTx, businessAccountIds: readonly number[]): Promise<BusinessWithSubscription[]> {
  if (businessAccountIds.length === 0) return [];
  const rows = await db.select({ business: businessAccounts, subscription: subscriptions }).from(businessAccounts)
    .leftJoin(subscriptions, eq(subscriptions.business_account_id, businessAccounts.id))
    .where(inArray(businessAccounts.id, [...businessAccountIds]));
  return rows.map((row) => ({
    businessAccountId: row.business.id, businessCreatedAt: row.business.created_at, timeZone: row.business.time_zone,
    subscription: row.subscription,
  }));
}

/** The business's row, created as a trial ending at `trialEndsAt` when it has none, locked for the transaction. */
export async function lockSubscription(tx: DbOrTx, businessAccountId: number, trialEndsAt: Date): Promise<SubscriptionRow> {
  await tx.insert(subscriptions).values({ business_account_id: businessAccountId, trial_ends_at: trialEndsAt }).onConflictDoNothing();
  const [row] = await tx.select().from(subscriptions).where(eq(subscriptions.business_account_id, businessAccountId)).for('update');
  return row;
}

export async function updateSubscription(tx: DbOrTx, businessAccountId: number, changes: SubscriptionChanges): Promise<SubscriptionRow> {
  const [row] = await tx.update(subscriptions).set({ ...changes, updated_at: new Date() })
    .where(eq(subscriptions.business_account_id, businessAccountId)).returning();
  return row;
}

export async function findBusinessIdByStripeCustomer(db: DbOrTx, customerId: string): Promise<number | undefined> {
  const [row] = await db.select({ id: subscriptions.business_account_id }).from(subscriptions).where(eq(subscriptions.stripe_customer_id, customerId));
  return row?.id;
}

export async function businessExists(db: DbOrTx, businessAccountId: number): Promise<boolean> {
  const [row] = await db.select({ id: businessAccounts.id }).from(businessAccounts).where(eq(businessAccounts.id, businessAccountId));
  return row !== undefined;
}

/** Records a provider event as handled; false when it was handled before (a redelivery). */
export async function recordBillingEvent(tx: DbOrTx, event: { provider: string; eventId: string; eventType: string; businessAccountId: number | null }): Promise<boolean> {
  const inserted = await tx.insert(billingEvents).values({
    provider: event.provider, event_id: event.eventId, event_type: event.eventType, business_account_id: event.businessAccountId,
  }).onConflictDoNothing().returning({ id: billingEvents.event_id });
  return inserted.length > 0;
}

export interface UsageCounts { seats_used: number; visits_optimised: number; imports: number; emails_sent: number }

/** Active practitioners, and since the start of this month in the business's time zone: visits in completed optimisation runs, completed imports, emails. */
export async function usageCounts(db: DbOrTx, businessAccountId: number, timeZone: string): Promise<UsageCounts> {
  const monthStart = sql`(date_trunc('month', now() AT TIME ZONE ${timeZone}) AT TIME ZONE ${timeZone})`;
  const [row] = await queryRows<Record<keyof UsageCounts, number | string>>(db, sql`
    SELECT
      (SELECT count(*) FROM practitioners p WHERE p.business_account_id = ${businessAccountId} AND p.active) AS seats_used,
      (SELECT coalesce(sum(jsonb_array_length(d.day -> 'fingerprints')), 0)
        FROM jobs j JOIN optimization_runs r ON r.job_id = j.id, jsonb_array_elements(coalesce(r.days, '[]'::jsonb)) AS d(day)
        WHERE j.business_account_id = ${businessAccountId} AND j.kind = 'OPTIMIZE' AND j.status = 'COMPLETE' AND j.finished_at >= ${monthStart}) AS visits_optimised,
      (SELECT count(*) FROM jobs j
        WHERE j.business_account_id = ${businessAccountId} AND j.kind = 'IMPORT' AND j.status = 'COMPLETE' AND j.finished_at >= ${monthStart}) AS imports,
      (SELECT count(*) FROM outbox_emails e WHERE e.business_account_id = ${businessAccountId} AND e.created_at >= ${monthStart}) AS emails_sent`);
  return {
    seats_used: Number(row.seats_used), visits_optimised: Number(row.visits_optimised), imports: Number(row.imports), emails_sent: Number(row.emails_sent),
  };
}

export async function currentMonth(db: DbOrTx, timeZone: string): Promise<string> {
  const [row] = await queryRows<{ month: string }>(db, sql`SELECT to_char(now() AT TIME ZONE ${timeZone}, 'YYYY-MM') AS month`);
  return row.month;
}
