import type { Logger } from 'pino';
import type { Config } from '../config';
import type { Database, Db } from '../db/client';
import type { GeocodingService } from '../geo/service';
import type { BackgroundWork } from '../lib/background-work';
import type { SecretBox } from '../lib/secret-box';
import type { Mailer } from '../mail/mailer';

/** What every module's handlers and services are built from. */
export interface AppContext {
  /** Work started by a request that runs after its answer (the password reset's email). */
  background: BackgroundWork;
  config: Config;
  database: Database;
  db: Db;
  /** Geocoding with the configured online geocoder, the bundled gazetteer and the per-business cache. */
  geocoding: GeocodingService;
  log: Logger;
  mailer: Mailer;
  secrets: SecretBox;
}
