import type { Logger } from 'pino';
import type { Config } from '../config';
import type { Database, Db } from '../db/client';
import type { SecretBox } from '../lib/secret-box';
import type { Mailer } from '../mail/mailer';

/** What every module's handlers and services are built from. */
export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  log: Logger;
  mailer: Mailer;
  secrets: SecretBox;
}
