// Counts failed attempts per key in a sliding-start window, in the database so every process shares it.
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client';

export interface ThrottleRule { maxFailures: number; windowMinutes: number }

/** Minutes until the key may try again, or 0 when it is not blocked. */
export async function blockedForMinutes(db: Db, key: string, rule: ThrottleRule): Promise<number> {
  const rows = await queryRows<{ failures: number; remaining_seconds: number }>(db, sql`
    SELECT failures,
           extract(epoch FROM window_started_at + make_interval(mins => ${rule.windowMinutes}) - now())::int AS remaining_seconds
    FROM login_throttles
    WHERE key = ${key} AND window_started_at > now() - make_interval(mins => ${rule.windowMinutes})`);
  const row = rows[0];
  if (!row || row.failures < rule.maxFailures) return 0;
  return Math.max(1, Math.ceil(row.remaining_seconds / 60));
}

export async function recordFailure(db: Db, key: string, rule: ThrottleRule): Promise<void> {
  await db.execute(sql`
    INSERT INTO login_throttles (key, failures, window_started_at) VALUES (${key}, 1, now())
    ON CONFLICT (key) DO UPDATE SET
      failures = CASE WHEN login_throttles.window_started_at <= now() - make_interval(mins => ${rule.windowMinutes})
                      THEN 1 ELSE login_throttles.failures + 1 END,
      window_started_at = CASE WHEN login_throttles.window_started_at <= now() - make_interval(mins => ${rule.windowMinutes})
                               THEN now() ELSE login_throttles.window_started_at END`);
}

export async function clearFailures(db: Db, key: string): Promise<void> {
  await db.execute(sql`DELETE FROM login_throttles WHERE key = ${key}`);
}
