import type { Logger } from 'pino';
import type { Config } from './config';
import type { Database } from './db/client';
import { geocoderSettingsOf, GeocodingService, onlineGeocoderFor } from './geo/service';
import type { AppContext } from './http/context';
import { BackgroundWork } from './lib/background-work';
import { SecretBox } from './lib/secret-box';
import { contactEmailOf, Mailer } from './mail/mailer';

export function createContext(config: Config, database: Database, log: Logger): AppContext {
  return {
    background: new BackgroundWork(log),
    config,
    database,
    db: database.db,
    geocoding: new GeocodingService(database.db, onlineGeocoderFor(geocoderSettingsOf(config, contactEmailOf(config.mailFrom))), log),
    log,
    mailer: new Mailer(database.db, log, config.smtpUrl, config.mailFrom),
    secrets: new SecretBox(config.appSecret),
  };
}
