// Without APP_SECRET (the demo's `npm start`), every installation generates its own random secret on its first start
// and keeps it in its database: nothing is sealed or signed with a key anyone could read in the repository.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/src/config';
import { providerAccounts } from '../../server/src/db/schema';
import { createBusinessAccount } from '../../server/src/modules/business-account';
import { resolveAppSecret } from '../../server/src/lib/app-secret';
import { SecretBox } from '../../server/src/lib/secret-box';
import { clientOfUnsubscribeToken, unsubscribeToken } from '../../server/src/modules/reminders';
import { createLogger } from '../../server/src/logger';
import { createTestDatabase, type TestDatabase } from './support/database';

const FORMER_CONSTANT = 'rounds-development-secret-change-me-0123456789';
const databases: TestDatabase[] = [];

function capturedLog() {
  const lines: string[] = [];
  return { log: createLogger('info', { write: (line: string) => { lines.push(line); } }), text: () => lines.join('') };
}
const devConfig = () => loadConfig({ NODE_ENV: 'development' });

beforeAll(async () => {
  databases.push(await createTestDatabase(), await createTestDatabase());
}, 60_000);
afterAll(async () => {
  for (const database of databases) await database.drop();
});

describe('APP_SECRET', () => {
  it('is required in production and, when given, at least 32 characters', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'development', APP_SECRET: 'short' })).toThrow(/APP_SECRET must be at least 32/);
    expect(devConfig().appSecret).toBe('');
  });

  it('without it, the first start generates a random secret, says so, and every later start reads the same one', async () => {
    const [database, another] = databases;
    const first = devConfig();
    const firstLog = capturedLog();
    await resolveAppSecret(first, database.database, firstLog.log);
    expect(first.appSecret.length).toBeGreaterThanOrEqual(32);
    expect(first.appSecret).not.toBe(FORMER_CONSTANT);
    expect(firstLog.text()).toMatch(/APP_SECRET is not set: generated a random one/);
    expect(firstLog.text()).not.toContain(first.appSecret);

    const [later, simultaneous] = [devConfig(), devConfig()];
    const laterLog = capturedLog();
    await Promise.all([resolveAppSecret(later, database.database, laterLog.log), resolveAppSecret(simultaneous, database.database, laterLog.log)]);
    expect([later.appSecret, simultaneous.appSecret]).toEqual([first.appSecret, first.appSecret]);
    expect(laterLog.text()).toMatch(/using the random one this database generated/);

    const elsewhere = devConfig();
    await resolveAppSecret(elsewhere, another.database, capturedLog().log);
    expect(elsewhere.appSecret).not.toBe(first.appSecret);
  });

  it('an unsubscribe link signed with the former constant is refused; one signed with the installation’s secret works', async () => {
    const config = devConfig();
    await resolveAppSecret(config, databases[0].database, capturedLog().log);
    expect(clientOfUnsubscribeToken(config.appSecret, unsubscribeToken(FORMER_CONSTANT, 7))).toBeNull();
    expect(clientOfUnsubscribeToken(config.appSecret, unsubscribeToken(config.appSecret, 7))).toBe(7);
    expect(() => new SecretBox('')).toThrow(/at least 32/);
  });

  it('a PMS key sealed with the former constant is sealed again with the generated secret', async () => {
    const database = await createTestDatabase();
    databases.push(database);
    const { business } = await createBusinessAccount(database.database.db, {
      name: 'Former Care', admin: { email: 'ada@former.test', password: 'correct horse battery', first_name: 'Ada' },
    });
    await database.database.db.insert(providerAccounts).values({
      business_account_id: business.id, status: 'ACTIVE', api_key_encrypted: new SecretBox(FORMER_CONSTANT).seal('key-0123456789-au1'),
    });
    const config = devConfig();
    await resolveAppSecret(config, database.database, capturedLog().log);
    const [row] = await database.database.db.select().from(providerAccounts);
    expect(new SecretBox(config.appSecret).open(row.api_key_encrypted!)).toBe('key-0123456789-au1');
    expect(() => new SecretBox(FORMER_CONSTANT).open(row.api_key_encrypted!)).toThrow();
  });
});
