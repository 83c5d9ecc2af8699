// `npm run db:backup -- [file]` and `npm run db:restore -- <file> [--replace]`: the embedded database's data directory
// (DATA_DIR) to and from one file. Stop Rounds first. With DATABASE_URL set, use pg_dump / pg_restore instead.
import { resolve } from 'node:path';
import { loadConfig } from '../config';
import { backupEmbedded, BackupError, restoreEmbedded } from './backup';

const [command, ...args] = process.argv.slice(2);
const config = loadConfig();
try {
  if (config.databaseUrl) {
    throw new BackupError('DATABASE_URL is set: back up PostgreSQL with pg_dump -Fc (and restore with pg_restore), as the README shows.');
  }
  if (command === 'backup') {
    const file = resolve(args[0] ?? `rounds-backup-${new Date().toISOString().slice(0, 19).replaceAll(':', '')}.tar.gz`);
    const bytes = await backupEmbedded(config.dataDir, file);
    console.log(`Backed up ${config.dataDir} to ${file} (${(bytes / 1024 / 1024).toFixed(1)} MB).`);
  } else if (command === 'restore') {
    const file = args.find((arg) => !arg.startsWith('--'));
    if (!file) throw new BackupError('Usage: npm run db:restore -- <backup file> [--replace]');
    await restoreEmbedded(resolve(file), config.dataDir, { replace: args.includes('--replace') });
    console.log(`Restored ${resolve(file)} into ${config.dataDir}.`);
  } else {
    throw new BackupError('Usage: npm run db:backup -- [file] | npm run db:restore -- <file> [--replace]');
  }
} catch (error) {
  console.error(error instanceof BackupError ? error.message : error);
  process.exitCode = 1;
}
