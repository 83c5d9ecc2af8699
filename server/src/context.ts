import type { Logger } from 'pino';
import type { Config } from './config';
import type { Database } from './db/client';
import type { AppContext } from './http/context';
import { SecretBox } from './lib/secret-box';
import { Mailer } from './mail/mailer';

export function createContext(config: Config, database: Database, log: Logger): AppContext {
  return {
    config,
    database,
    db: database.db,
    log,
    mailer: new Mailer(database.db, log, config.smtpUrl, config.mailFrom),
    secrets: new SecretBox(config.appSecret),
  };
}
