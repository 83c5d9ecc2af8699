// Counts attempts per key in a sliding-start window, in the database so every process shares it. An attempt takes its
// place in the count and learns whether it may go on in one statement, so that simultaneous attempts cannot all pass a
// check made before any of them was counted.
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client';

export interface ThrottleRule { maxFailures: number; windowMinutes: number }

/**
 * Counts one attempt for the key and answers the minutes until it may try again: 0 when this attempt is within the
 * rule (it then counts as a failure unless given back), more when it is over it.
 */
export async function takeAttempt(db: Db, key: string, rule: ThrottleRule): Promise<number> {
  const [row] = await queryRows<{ failures: number; remaining_seconds: number }>(db, sql`
    INSERT INTO login_throttles (key, failures, window_started_at) VALUES (${key}, 1, now())
    ON CONFLICT (key) DO UPDATE SET
      failures = CASE WHEN login_throttles.window_started_at <= now() - make_interval(mins => ${rule.windowMinutes})
                      THEN 1 ELSE login_throttles.failures + 1 END,
      window_started_at = CASE WHEN login_throttles.window_started_at <= now() - make_interval(mins => ${rule.windowMinutes})
                               THEN now() ELSE login_throttles.window_started_at END
    RETURNING failures,
              extract(epoch FROM window_started_at + make_interval(mins => ${rule.windowMinutes}) - now())::int AS remaining_seconds`);
  if (row.failures <= rule.maxFailures) return 0;
  return Math.max(1, Math.ceil(row.remaining_seconds / 60));
}

/** Takes back one attempt that turned out not to be a failure (a successful login), keeping the window. */
export async function giveBackAttempt(db: Db, key: string): Promise<void> {
  await db.execute(sql`UPDATE login_throttles SET failures = greatest(failures - 1, 0) WHERE key = ${key}`);
}

export async function clearFailures(db: Db, key: string): Promise<void> {
  await db.execute(sql`DELETE FROM login_throttles WHERE key = ${key}`);
}
