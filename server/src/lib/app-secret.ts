// The key that encrypts PMS API keys and signs client links. Production requires APP_SECRET; elsewhere (the demo,
// a developer's machine) the installation generates a random one the first time it starts and keeps it in its
// database, so nothing is ever signed with a key anyone could read in this repository.
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Config } from '../config';
import { queryRows, type Database } from '../db/client';
import { SecretBox } from './secret-box';

/** What Rounds used before it generated secrets: still opens PMS keys sealed with it, never seals or signs. */
const FORMER_DEVELOPMENT_SECRET = 'rounds-development-secret-change-me-0123456789';

/** Sets `config.appSecret` from the database when APP_SECRET was not given, generating it on the first start. */
export async function resolveAppSecret(config: Config, database: Database, log: Logger): Promise<void> {
  if (config.appSecret) return;
  const candidate = randomBytes(32).toString('base64url');
  const inserted = await queryRows<{ value: string }>(database.db, sql`
    INSERT INTO instance_secrets (name, value) VALUES ('app_secret', ${candidate}) ON CONFLICT (name) DO NOTHING RETURNING value`);
  const [{ value }] = inserted.length ? inserted
    : await queryRows<{ value: string }>(database.db, sql`SELECT value FROM instance_secrets WHERE name = 'app_secret'`);
  config.appSecret = value;
  if (inserted.length) {
    const resealed = await resealFormerSecrets(database, value);
    log.info({ resealed }, 'APP_SECRET is not set: generated a random one and kept it in the database (set APP_SECRET to choose your own)');
  } else {
    log.info('APP_SECRET is not set: using the random one this database generated on its first start');
  }
}

/** PMS keys sealed with the former development constant, sealed again with the new secret. */
async function resealFormerSecrets(database: Database, appSecret: string): Promise<number> {
  const former = new SecretBox(FORMER_DEVELOPMENT_SECRET);
  const current = new SecretBox(appSecret);
  const rows = await queryRows<{ id: number; api_key_encrypted: string }>(database.db, sql`
    SELECT id, api_key_encrypted FROM provider_accounts WHERE api_key_encrypted IS NOT NULL`);
  let resealed = 0;
  for (const row of rows) {
    let plain: string;
    try {
      plain = former.open(row.api_key_encrypted);
    } catch {
      continue;
    }
    await database.db.execute(sql`UPDATE provider_accounts SET api_key_encrypted = ${current.seal(plain)} WHERE id = ${row.id}`);
    resealed += 1;
  }
  return resealed;
}
