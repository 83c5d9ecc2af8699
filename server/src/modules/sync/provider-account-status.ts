// The provider account's status as its sync jobs leave it. The sync module is the one writer of provider_accounts.
import { eq } from 'drizzle-orm';
import { providerAccounts } from '../../db/schema';
import type { AppContext } from '../../http/context';
import { RECONNECT_MESSAGE } from '../../jobs/worker';

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
