// `npm run worker`: an extra worker process for imports, exports, optimisations and automatic sync against the shared PostgreSQL
// database (DATABASE_URL). Several can run, on several machines; jobs are claimed with FOR UPDATE SKIP LOCKED.
import { ConfigError, loadConfig } from './config';
import { createContext } from './context';
import { resolveAppSecret } from './lib/app-secret';
import { openDatabase } from './db/client';
import { migrate } from './db/migrate';
import { createLogger } from './logger';
import { automaticSyncRules, jobHandlers } from './modules/job-handlers';
import { startWorker } from './jobs/worker';
import { prewarmOptimizerWorkers } from './optimizer';

async function main() {
  const config = loadConfig();
  if (!config.databaseUrl) {
    throw new ConfigError('npm run worker needs DATABASE_URL (a PostgreSQL database shared with the API). The embedded database belongs to one process: the API process already runs a worker (RUN_WORKER=true).');
  }
  const log = createLogger(config.logLevel);
  const database = await openDatabase({ url: config.databaseUrl, poolSize: 4 });
  await migrate(database);
  await resolveAppSecret(config, database, log);
  const ctx = createContext(config, database, log);
  const worker = startWorker(ctx, jobHandlers, { scheduler: automaticSyncRules, leaseMs: config.jobLeaseMs });
  prewarmOptimizerWorkers(1);
  log.info({ workerId: worker.workerId }, 'worker started');
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'worker shutting down');
    try {
      await worker.close();
      await database.close();
    } catch (error) {
      log.error({ err: error }, 'worker shutdown failed');
      process.exit(1);
    }
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
