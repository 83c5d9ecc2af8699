// `npm run db:migrate`: applies pending migrations to the configured database and says which.
import { loadConfig } from '../config';
import { openDatabase } from './client';
import { migrate } from './migrate';

const config = loadConfig();
const database = await openDatabase({ url: config.databaseUrl, dataDir: config.databaseUrl ? undefined : config.dataDir });
try {
  const applied = await migrate(database);
  console.log(applied.length ? `Applied ${applied.length} migration(s): ${applied.join(', ')}` : 'The database is up to date.');
} finally {
  await database.close();
}
