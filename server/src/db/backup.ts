// Backing up and restoring the embedded database (PGlite): the whole data directory as one gzipped tar file, taken
// and put back while Rounds is stopped (PGlite is one process's database). PostgreSQL has pg_dump (see the README).
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { PGLITE_EXTENSIONS as extensions } from './client';

export class BackupError extends Error {}

const isEmptyDir = (dir: string) => !existsSync(dir) || readdirSync(dir).length === 0;

/** Writes the data directory's database to `file`; returns its size in bytes. */
export async function backupEmbedded(dataDir: string, file: string): Promise<number> {
  if (isEmptyDir(dataDir)) throw new BackupError(`There is no database in ${dataDir} to back up.`);
  const client = await PGlite.create(dataDir, { extensions });
  try {
    const dump = await client.dumpDataDir('gzip');
    const bytes = Buffer.from(await dump.arrayBuffer());
    await writeFile(file, bytes);
    return bytes.length;
  } finally {
    await client.close();
  }
}

/** Puts the database in `file` into the data directory, which must be empty unless `replace`. */
export async function restoreEmbedded(file: string, dataDir: string, { replace = false } = {}): Promise<void> {
  if (!existsSync(file)) throw new BackupError(`There is no backup file ${file}.`);
  if (!isEmptyDir(dataDir) && !replace) {
    throw new BackupError(`${dataDir} already holds a database: restore into an empty directory, or pass --replace to overwrite it.`);
  }
  if (replace) await rm(dataDir, { recursive: true, force: true });
  await mkdir(dataDir, { recursive: true });
  const archive = new Blob([await readFile(file)], { type: 'application/x-gzip' });
  const client = await PGlite.create(dataDir, { extensions, loadDataDir: archive });
  await client.close();
}
