// Whether this process can serve: GET /healthz says the process is up (nothing else is asked, so a slow database never
// gets a live process restarted); GET /readyz says whether it should get traffic — the database answers, every
// migration this code knows is applied, and some job worker has said it is alive lately (see worker heartbeats).
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client';
import { listMigrations } from '../db/migrate';

/** A worker beats every WORKER_HEARTBEAT_MS; one silent for this long is taken for dead. */
export const WORKER_HEARTBEAT_MS = 5_000;
export const WORKER_SILENT_MS = 30_000;

export interface Readiness {
  ready: boolean;
  checks: { database: string; migrations: string; worker: string };
}

export async function readiness(db: Db): Promise<Readiness> {
  let applied: string[];
  let alive: number;
  try {
    applied = (await queryRows<{ name: string }>(db, sql`SELECT name FROM schema_migrations`)).map((row) => row.name);
    [{ alive }] = await queryRows<{ alive: number }>(db, sql`
      SELECT count(*)::int AS alive FROM worker_heartbeats WHERE beat_at > now() - ${WORKER_SILENT_MS} * interval '1 millisecond'`);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ready: false, checks: { database: `unreachable: ${reason}`, migrations: 'unknown', worker: 'unknown' } };
  }
  const pending = listMigrations().filter((name) => !applied.includes(name));
  const checks = {
    database: 'ok',
    migrations: pending.length === 0 ? 'ok' : `${pending.length} not applied: ${pending.join(', ')}`,
    worker: alive > 0 ? 'ok' : `no job worker has reported in the last ${WORKER_SILENT_MS / 1000} s`,
  };
  return { ready: Object.values(checks).every((check) => check === 'ok'), checks };
}

/** Says this worker is alive (upsert); `stopped` removes its row. */
export async function workerHeartbeat(db: Db, workerId: string, stopped = false): Promise<void> {
  if (stopped) await db.execute(sql`DELETE FROM worker_heartbeats WHERE worker_id = ${workerId}`);
  else {
    await db.execute(sql`
      INSERT INTO worker_heartbeats (worker_id, beat_at) VALUES (${workerId}, now())
      ON CONFLICT (worker_id) DO UPDATE SET beat_at = now()`);
  }
}
