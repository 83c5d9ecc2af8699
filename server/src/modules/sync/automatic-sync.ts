// Which automatic imports and exports are due (docs/decisions/0003-sync-jobs.md), for the jobs layer's scheduler: the
// businesses with an ACTIVE provider account that turned the direction on in their sync settings and do not need a
// payment method (subscriptions' rule: they resume at the first slot after paying), over today..today+ahead_days in
// the business's zone, with the settings' filters.
import { sql } from 'drizzle-orm';
import { Temporal } from 'temporal-polyfill';
import { queryRows, type Db } from '../../db/client';
import type { SyncFilters } from '../../db/schema';
import { businessesRequiringPayment } from '../subscriptions';
import type { AutomaticJobKind, DueAutomaticJob } from '../../jobs/scheduler';
import { MAX_RANGE_DAYS } from './time-range';

interface Candidate {
  business_account_id: number;
  time_zone: string;
  ahead_days: number;
  filters: SyncFilters;
}

/**
 * The jobs of `kind` due for `slot`. Each business's slot is claimed once across all processes by a conditional
 * upsert of its `automatic_import` / `automatic_export` cursor, so a second caller for the same slot gets nothing.
 */
export async function claimDueAutomaticJobs(db: Db, kind: AutomaticJobKind, slot: Date, now: Date): Promise<DueAutomaticJob[]> {
  const enabled = kind === 'IMPORT' ? sql`s.enable_auto_import` : sql`s.enable_auto_export`;
  const candidates = await queryRows<Candidate>(db, sql`
    SELECT s.business_account_id, b.time_zone, s.ahead_days, s.filters
    FROM sync_settings s
    JOIN business_accounts b ON b.id = s.business_account_id AND b.active
    JOIN provider_accounts p ON p.business_account_id = s.business_account_id AND p.status = 'ACTIVE'
    WHERE ${enabled}`);
  const unpaid = await businessesRequiringPayment(db, candidates.map((candidate) => candidate.business_account_id), now);
  const due: DueAutomaticJob[] = [];
  for (const candidate of candidates) {
    if (unpaid.has(candidate.business_account_id)) continue;
    const claimed = await queryRows<{ resource: string }>(db, sql`
      INSERT INTO sync_cursors (business_account_id, resource, synced_through)
      VALUES (${candidate.business_account_id}, ${`automatic_${kind.toLowerCase()}`}, ${slot.toISOString()}::timestamptz)
      ON CONFLICT (business_account_id, resource) DO UPDATE SET synced_through = excluded.synced_through
      WHERE sync_cursors.synced_through < excluded.synced_through
      RETURNING resource`);
    if (claimed.length === 0) continue;
    const today = Temporal.Instant.fromEpochMilliseconds(now.getTime()).toZonedDateTimeISO(candidate.time_zone).toPlainDate();
    const end = today.add({ days: Math.min(candidate.ahead_days, MAX_RANGE_DAYS - 1) });
    due.push({ businessAccountId: candidate.business_account_id, startDate: today.toString(), endDate: end.toString(), filters: candidate.filters });
  }
  return due;
}
