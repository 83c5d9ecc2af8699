// The provider account (the practice management system connection) of a business. The sync module is the one
// writer of provider_accounts: connecting, disconnecting, and the status its setup and sync jobs leave it in.
import { eq } from 'drizzle-orm';
import type { AuthContext } from '../../auth/access';
import { providerAccounts } from '../../db/schema';
import type { Schemas } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { HttpError, invalid, notFound } from '../../http/errors';
import { cancelUnfinishedJobs, enqueueJob, jobEvents } from '../../jobs/queue';
import { RECONNECT_MESSAGE } from '../../jobs/worker';
import { PmsAuthError } from '../../pms';
import { adapterForKey, findProviderAccount, type ProviderAccountRow } from './pms-connection';

const iso = (date: Date | null) => date?.toISOString() ?? null;

export function toProviderAccountDto(row: ProviderAccountRow): Schemas['ProviderAccount'] {
  return {
    id: row.id,
    provider: row.provider,
    status: row.status,
    api_key_last4: row.api_key_last4,
    last_error: row.last_error,
    connected_at: iso(row.connected_at),
  };
}

export async function connectProviderAccount(ctx: AppContext, auth: AuthContext, rawKey: string): Promise<ProviderAccountRow> {
  const apiKey = rawKey.trim();
  if (apiKey.length < 8) throw invalid('api_key is too short to be an API key');
  try {
    await adapterForKey(ctx.config, apiKey, { maxAttempts: 2, requestTimeoutMs: 10_000, maxRateLimitWaits: 1, maxRateLimitWaitMs: 10_000 }).checkConnection();
  } catch (error) {
    if (error instanceof PmsAuthError) throw invalid('The practice management system refused this API key.');
    ctx.log.warn({ err: error }, 'provider account check failed');
    throw new HttpError(502, `Could not reach the practice management system to check the key (${(error as Error).message}). Try again shortly.`, 'PMS_UNAVAILABLE');
  }
  const values = {
    status: 'INITIALIZING' as const,
    api_key_encrypted: ctx.secrets.seal(apiKey),
    api_key_last4: apiKey.slice(-4),
    last_error: null,
    connected_at: new Date(),
    updated_at: new Date(),
  };
  const account = await ctx.db.transaction(async (tx) => {
    const [row] = await tx.insert(providerAccounts).values({ business_account_id: auth.businessAccountId, ...values })
      .onConflictDoUpdate({ target: providerAccounts.business_account_id, set: values }).returning();
    await cancelUnfinishedJobs(tx, auth.businessAccountId, 'Replaced by a newer connection.', 'PROVIDER_SETUP');
    await enqueueJob(tx, {
      businessAccountId: auth.businessAccountId, kind: 'PROVIDER_SETUP', createdByUserId: auth.userId, createdByName: auth.fullName, maxAttempts: 5,
    });
    return row;
  });
  jobEvents.emit('enqueued');
  return account;
}

export async function disconnectProviderAccount(ctx: AppContext, auth: AuthContext): Promise<ProviderAccountRow> {
  const account = await findProviderAccount(ctx.db, auth.businessAccountId);
  if (!account) throw notFound('Provider account');
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx.update(providerAccounts).set({
      status: 'DISCONNECTED', api_key_encrypted: null, api_key_last4: null, last_error: null, updated_at: new Date(),
    }).where(eq(providerAccounts.id, account.id)).returning();
    await cancelUnfinishedJobs(tx, auth.businessAccountId, 'Cancelled because the practice management system was disconnected.');
    return row;
  });
}

/** The first pull of reference data is done: the account is ready for imports and exports. */
export async function markSetupComplete(ctx: AppContext, providerAccountId: number): Promise<void> {
  await ctx.db.update(providerAccounts).set({ status: 'ACTIVE', last_error: null, updated_at: new Date() })
    .where(eq(providerAccounts.id, providerAccountId));
}

/** The PMS refused the API key: an admin has to reconnect. */
export async function markCredentialsRefused(ctx: AppContext, businessAccountId: number): Promise<void> {
  await ctx.db.update(providerAccounts).set({ status: 'CONNECTION_ERROR', last_error: RECONNECT_MESSAGE, updated_at: new Date() })
    .where(eq(providerAccounts.business_account_id, businessAccountId));
}

/** The first pull of reference data failed for good. */
export async function markSetupFailed(ctx: AppContext, businessAccountId: number, reason: string): Promise<void> {
  await ctx.db.update(providerAccounts).set({
    status: 'CONNECTION_ERROR', updated_at: new Date(),
    last_error: `Loading businesses, practitioners and appointment types failed (${reason}). An admin can reconnect in Settings → Provider account to try again.`,
  }).where(eq(providerAccounts.business_account_id, businessAccountId));
}
