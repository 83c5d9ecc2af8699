// Session and one-time-token queries (the login throttle's are in throttle.ts).
import { and, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import { businessAccounts, oneTimeTokens, sessions, subscriptions, users } from '../../db/schema';
import type { DbOrTx } from '../../db/client';
import type { SubscriptionTerms } from '../subscriptions';

export type OneTimeTokenPurpose = 'PASSWORD_RESET' | 'LOGIN_AS' | 'INVITATION';
export type OneTimeTokenRow = typeof oneTimeTokens.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;
export type UserRow = typeof users.$inferSelect;

export async function insertSession(db: DbOrTx, userId: number, tokenHash: string, expiresAt: Date): Promise<void> {
  await db.insert(sessions).values({ user_id: userId, token_hash: tokenHash, expires_at: expiresAt });
}

function liveSessionQuery(db: DbOrTx) {
  return db
    // Only what a request's AuthContext is made of: every column more is parsed and mapped on every request.
    .select({
      sessionId: sessions.id,
      user: {
        id: users.id, business_account_id: users.business_account_id, role: users.role,
        associated_practitioner_ids: users.associated_practitioner_ids, first_name: users.first_name, last_name: users.last_name,
      },
      subscription: {
        plan: subscriptions.plan, status: subscriptions.status, trial_ends_at: subscriptions.trial_ends_at,
        past_due_since: subscriptions.past_due_since, payment_method_on_file: subscriptions.payment_method_on_file,
      },
      businessCreatedAt: businessAccounts.created_at, listsVersion: businessAccounts.lists_version, timeZone: businessAccounts.time_zone,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.user_id))
    .innerJoin(businessAccounts, eq(businessAccounts.id, users.business_account_id))
    .leftJoin(subscriptions, eq(subscriptions.business_account_id, businessAccounts.id))
    .where(and(
      eq(sessions.token_hash, sql.placeholder('tokenHash')),
      isNull(sessions.revoked_at),
      gt(sessions.expires_at, sql`now()`),
      eq(users.active, true),
      eq(businessAccounts.active, true),
    ))
    .prepare('find_live_session');
}

/**
 * Every authenticated request runs it, so it is built once per database handle and prepared once per connection:
 * building this four-table select with Drizzle on each request was a fifth of an API process's CPU under load
 * (bench:load --lists --cpu-prof).
 */
const liveSessionQueries = new WeakMap<DbOrTx, ReturnType<typeof liveSessionQuery>>();

/**
 * A live session with its user, what the subscription rules read of the business, and the business's lists version
 * and time zone (the list cache's key): one query per request.
 */
export async function findLiveSession(db: DbOrTx, tokenHash: string): Promise<{
  sessionId: number;
  user: Pick<UserRow, 'id' | 'business_account_id' | 'role' | 'associated_practitioner_ids' | 'first_name' | 'last_name'>;
  businessCreatedAt: Date; subscription: SubscriptionTerms | null; listsVersion: number; timeZone: string;
} | undefined> {
  let query = liveSessionQueries.get(db);
  if (!query) {
    query = liveSessionQuery(db);
    liveSessionQueries.set(db, query);
  }
  const [row] = await query.execute({ tokenHash });
  return row;
}

/** Whether the token was one of a user's who has since been deactivated (deactivating ends their sessions). */
export async function isDeactivatedUsersToken(db: DbOrTx, tokenHash: string): Promise<boolean> {
  const [row] = await db.select({ id: sessions.id }).from(sessions)
    .innerJoin(users, eq(users.id, sessions.user_id))
    .where(and(eq(sessions.token_hash, tokenHash), eq(users.active, false)))
    .limit(1);
  return row !== undefined;
}

export async function revokeSession(db: DbOrTx, sessionId: number): Promise<void> {
  await db.update(sessions).set({ revoked_at: sql`now()` }).where(eq(sessions.id, sessionId));
}

/** Revokes every live session of the user. */
export async function revokeUserSessions(db: DbOrTx, userId: number): Promise<void> {
  await db.update(sessions).set({ revoked_at: sql`now()` }).where(and(eq(sessions.user_id, userId), isNull(sessions.revoked_at)));
}

export async function insertOneTimeToken(db: DbOrTx, userId: number, purpose: OneTimeTokenPurpose, tokenHash: string, expiresAt: Date): Promise<void> {
  await db.insert(oneTimeTokens).values({ user_id: userId, purpose, token_hash: tokenHash, expires_at: expiresAt });
}

/** Marks the token used and returns its user, in one statement so a token works once even under races. */
export async function consumeOneTimeToken(db: DbOrTx, tokenHash: string, purpose: OneTimeTokenPurpose): Promise<number | undefined> {
  const [row] = await db.update(oneTimeTokens).set({ used_at: sql`now()` })
    .where(and(
      eq(oneTimeTokens.token_hash, tokenHash),
      eq(oneTimeTokens.purpose, purpose),
      isNull(oneTimeTokens.used_at),
      gt(oneTimeTokens.expires_at, sql`now()`),
    ))
    .returning({ userId: oneTimeTokens.user_id });
  return row?.userId;
}

/** Every reset link of the user that is still usable becomes used. */
export async function revokeResetLinks(db: DbOrTx, userId: number): Promise<void> {
  await revokeOneTimeTokens(db, userId, ['PASSWORD_RESET']);
}

/** Every link of the user with one of these purposes that is still usable becomes used. */
export async function revokeOneTimeTokens(db: DbOrTx, userId: number, purposes: readonly OneTimeTokenPurpose[]): Promise<void> {
  await db.update(oneTimeTokens).set({ used_at: sql`now()` })
    .where(and(eq(oneTimeTokens.user_id, userId), inArray(oneTimeTokens.purpose, [...purposes]), isNull(oneTimeTokens.used_at)));
}

/** The token with this hash and purpose, used or expired or not (to say why a link no longer works). */
export async function findOneTimeToken(db: DbOrTx, tokenHash: string, purpose: OneTimeTokenPurpose): Promise<OneTimeTokenRow | undefined> {
  const [row] = await db.select().from(oneTimeTokens).where(and(eq(oneTimeTokens.token_hash, tokenHash), eq(oneTimeTokens.purpose, purpose)));
  return row;
}
