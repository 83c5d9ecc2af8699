// Turns a business's provider account into a PmsAdapter: decrypts the stored key and points the adapter at
// config.clinikoBaseUrl (the sandbox) when set, otherwise at the key's shard.
import { eq } from 'drizzle-orm';
import type { Config } from '../../config';
import type { DbOrTx } from '../../db/client';
import { providerAccounts } from '../../db/schema';
import type { SecretBox } from '../../lib/secret-box';
import { contactEmailOf } from '../../mail/mailer';
import { createPmsAdapter, ProviderAccountUnusableError, type AdapterTuning, type PmsAdapter, type PmsSystem } from '../../pms';

export type ProviderAccountRow = typeof providerAccounts.$inferSelect;

export function adapterForKey(config: Config, apiKey: string, tuning: AdapterTuning = {}, system: PmsSystem = 'cliniko'): PmsAdapter {
  return createPmsAdapter({
    ...tuning,
    system,
    apiKey,
    contactEmail: contactEmailOf(config.mailFrom),
    baseUrl: config.clinikoBaseUrl ?? null,
  });
}

export function adapterForAccount(
  deps: { config: Config; secrets: SecretBox },
  account: ProviderAccountRow,
  tuning: AdapterTuning = {},
): PmsAdapter {
  if (account.status === 'DISCONNECTED' || !account.api_key_encrypted) {
    throw new ProviderAccountUnusableError('The practice management system is not connected. An admin can connect it in Settings → Provider account.');
  }
  let apiKey: string;
  try {
    apiKey = deps.secrets.open(account.api_key_encrypted);
  } catch {
    throw new ProviderAccountUnusableError('The stored API key cannot be decrypted (APP_SECRET changed?). An admin needs to connect the practice management system again.');
  }
  return adapterForKey(deps.config, apiKey, tuning, account.provider);
}

export async function findProviderAccount(db: DbOrTx, businessAccountId: number): Promise<ProviderAccountRow | null> {
  const [row] = await db.select().from(providerAccounts).where(eq(providerAccounts.business_account_id, businessAccountId));
  return row ?? null;
}
