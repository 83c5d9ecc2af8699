// `npm run db:backup` / `db:restore` on the embedded database: a backup restored into a new data directory holds the
// data; a directory that already holds a database is not overwritten unless asked.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, queryRows } from '../../server/src/db/client';
import { migrate } from '../../server/src/db/migrate';
import { createBusinessAccount } from '../../server/src/modules/business-account';
import { repoRoot } from '../../server/src/paths';

const run = promisify(execFile);
let work: string;

/** Runs an npm script of the repo with DATA_DIR set; answers its output, or its failure's. */
async function npmRun(script: string, dataDir: string, ...args: string[]) {
  try {
    const { stdout } = await run('npm', ['run', '--silent', script, '--', ...args], {
      cwd: repoRoot, env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
    });
    return { ok: true, output: stdout };
  } catch (error) {
    const failed = error as { stdout: string; stderr: string };
    return { ok: false, output: failed.stderr + failed.stdout };
  }
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'rounds-backup-'));
});
afterAll(() => rm(work, { recursive: true, force: true }));

// The embedded database only: the PostgreSQL run of the API tests has nothing more to prove here.
describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('backing up and restoring the embedded database', () => {
  it('restores a backup into a new directory with its data, and refuses to overwrite one unless asked', async () => {
    const source = join(work, 'source');
    const database = await openDatabase({ dataDir: source });
    await migrate(database);
    await createBusinessAccount(database.db, {
      name: 'Backed Up Care', admin: { email: 'ada@backed-up.test', password: 'correct horse battery', first_name: 'Ada' },
    });
    await database.close();

    const file = join(work, 'rounds.tar.gz');
    const backup = await npmRun('db:backup', source, file);
    expect(backup.output).toMatch(/^Backed up .* to .*rounds\.tar\.gz \(\d+\.\d MB\)\./);

    const target = join(work, 'target');
    expect((await npmRun('db:restore', target, file)).ok).toBe(true);
    const restored = await openDatabase({ dataDir: target });
    try {
      expect(await queryRows(restored.db, sql`SELECT name FROM business_accounts`)).toEqual([{ name: 'Backed Up Care' }]);
      expect(await migrate(restored)).toEqual([]);
    } finally {
      await restored.close();
    }

    const again = await npmRun('db:restore', target, file);
    expect(again.ok).toBe(false);
    expect(again.output).toContain('already holds a database: restore into an empty directory, or pass --replace to overwrite it.');
    expect((await npmRun('db:restore', target, file, '--replace')).ok).toBe(true);
  }, 120_000);
});
