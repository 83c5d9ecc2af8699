// Starts Rounds: configuration, database and migrations, the demo data when asked, then the HTTP server.
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { createContext } from './context';
import { openDatabase } from './db/client';
import { migrate } from './db/migrate';
import { seedDemoIfEmpty } from './demo/seed';
import { createLogger } from './logger';

async function main() {
  const config = loadConfig();
  const log = createLogger(config.logLevel);
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.databaseUrl ? undefined : config.dataDir });
  const applied = await migrate(database);
  if (applied.length) log.info({ applied }, 'database migrations applied');
  const ctx = createContext(config, database, log);
  if (config.seedDemo) await seedDemoIfEmpty(ctx);

  const app = await buildApp({ ctx, logger: log });
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  log.info(`Rounds is ready at ${config.publicUrl} (database: ${database.kind})`);
}

main().catch((error) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});
