// Migrations 0091 and 0092 on a database with jobs: sync_jobs becomes jobs, and each optimisation run moves out of
// its job row (dates, mode, practitioners, result) into optimization_runs, keeping what the API answers from it.
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/src/db/client';
import { migrate } from '../../server/src/db/migrate';
import { createTestDatabase, type TestDatabase } from './support/database';

let test: TestDatabase;
const proposal = (date: string) => ({ date, lanes: [], kpis: { before: { travel_seconds: 600 }, after: { travel_seconds: 300 } } });
const fingerprint = (id: number) => ({ appointment_id: id, updated_at: '2026-11-20T01:02:03.456Z', arrive_at: null });
const undo = { visits: [{ id: 7, arrive_at: null, practitioner_id: 3, route_id: null }], written: [], routes: [] };
/** An instant as the API writes it (Date.prototype.toISOString). */
const iso = (column: SQL) => sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const filters = (ids: number[]) => JSON.stringify({ practitioner_ids: ids, appointment_type_ids: [], business_location_ids: [] });

beforeAll(async () => {
  test = await createTestDatabase({ migrateBefore: '0091' });
  const db = test.database.db;
  await db.execute(sql`INSERT INTO business_accounts (id, name) VALUES (1, 'Acme')`);
  const oneDay = { proposal: proposal('2026-11-24'), fingerprints: [fingerprint(7), fingerprint(8)],
    applied: { at: '2026-11-23T04:05:06.789Z', by_user_id: 999, by_name: 'Ada' }, undo, undone: { at: '2026-11-23T05:00:00.001Z', by_name: 'Bea' } };
  const days = [{ proposal: proposal('2026-11-24'), fingerprints: [fingerprint(7)] }, { proposal: proposal('2026-11-25'), fingerprints: [fingerprint(9)] }];
  const week = { proposal: days[0].proposal, fingerprints: [fingerprint(7), fingerprint(9)], days, discarded: { at: '2026-11-23T06:00:00.000Z', by_name: 'Cy' } };
  await db.execute(sql`INSERT INTO sync_jobs (id, business_account_id, kind, status, start_date, end_date, filters, params, result, created_by_name) VALUES
    (1, 1, 'OPTIMIZE', 'COMPLETE', '2026-11-24', '2026-11-24', ${filters([3, 4])}::jsonb, '{"mode":"reassign"}', ${JSON.stringify(oneDay)}::jsonb, 'Ada'),
    (2, 1, 'OPTIMIZE', 'COMPLETE', '2026-11-24', '2026-11-25', ${filters([4])}::jsonb, '{}', ${JSON.stringify(week)}::jsonb, 'Cy'),
    (3, 1, 'OPTIMIZE', 'PENDING', '2026-11-26', '2026-11-26', ${filters([3])}::jsonb, '{"mode":"keep_practitioners"}', NULL, 'Ada'),
    (4, 1, 'IMPORT', 'COMPLETE', '2026-11-24', '2026-11-30', ${filters([])}::jsonb, '{}', '{"appointments_created":2}', 'Ada')`);
  await db.execute(sql`SELECT setval('sync_jobs_id_seq', 4)`);
  const applied = await migrate(test.database);
  expect(applied).toContain('0091_jobs.sql');
  expect(applied).toContain('0092_optimization_runs.sql');
}, 60_000);
afterAll(() => test?.drop());

describe('migrations 0091 and 0092', () => {
  it('moves each run into optimization_runs: its days, mode, practitioners and what became of it', async () => {
    const runs = await queryRows(test.database.db, sql`
      SELECT job_id, business_account_id, first_date::text, last_date::text, mode, practitioner_ids, days, undo,
        ${iso(sql`applied_at`)} AS applied_at, applied_by_user_id, applied_by_name, ${iso(sql`discarded_at`)} AS discarded_at, discarded_by_name,
        ${iso(sql`undone_at`)} AS undone_at, undone_by_name
      FROM optimization_runs ORDER BY job_id`);
    const nothing = { applied_at: null, applied_by_user_id: null, applied_by_name: null, undo: null, discarded_at: null, discarded_by_name: null, undone_at: null, undone_by_name: null };
    expect(runs).toEqual([
      {
        ...nothing, job_id: 1, business_account_id: 1, first_date: '2026-11-24', last_date: '2026-11-24', mode: 'reassign', practitioner_ids: [3, 4],
        // A run of one day from before runs of several: its day becomes the only one. Instants read as they were written.
        days: [{ proposal: proposal('2026-11-24'), fingerprints: [fingerprint(7), fingerprint(8)] }], undo,
        // The user no longer exists: the name stays, the id does not.
        applied_at: '2026-11-23T04:05:06.789Z', applied_by_name: 'Ada', undone_at: '2026-11-23T05:00:00.001Z', undone_by_name: 'Bea',
      },
      {
        ...nothing, job_id: 2, business_account_id: 1, first_date: '2026-11-24', last_date: '2026-11-25', mode: 'keep_practitioners', practitioner_ids: [4],
        days: [{ proposal: proposal('2026-11-24'), fingerprints: [fingerprint(7)] }, { proposal: proposal('2026-11-25'), fingerprints: [fingerprint(9)] }],
        discarded_at: '2026-11-23T06:00:00.000Z', discarded_by_name: 'Cy',
      },
      { ...nothing, job_id: 3, business_account_id: 1, first_date: '2026-11-26', last_date: '2026-11-26', mode: 'keep_practitioners', practitioner_ids: [3], days: null },
    ]);
  });

  it('leaves the runs\' job rows with the queue\'s state only, and other jobs as they were', async () => {
    expect(await queryRows(test.database.db, sql`
      SELECT id, kind, status, start_date::text, end_date::text, filters, params, result, created_by_name FROM jobs ORDER BY id`)).toEqual([
      ...[[1, 'COMPLETE'], [2, 'COMPLETE'], [3, 'PENDING']].map(([id, status]) => ({
        id, kind: 'OPTIMIZE', status, start_date: null, end_date: null, filters: JSON.parse(filters([])), params: {}, result: null,
        created_by_name: id === 2 ? 'Cy' : 'Ada',
      })),
      { id: 4, kind: 'IMPORT', status: 'COMPLETE', start_date: '2026-11-24', end_date: '2026-11-30', filters: JSON.parse(filters([])), params: {}, result: { appointments_created: 2 }, created_by_name: 'Ada' },
    ]);
  });

  it('names the table\'s sequence, indexes and constraints for jobs, and still asks an import for its dates', async () => {
    const db = test.database.db;
    const [job] = await queryRows<{ id: number }>(db, sql`INSERT INTO jobs (business_account_id, kind, filters) VALUES (1, 'OPTIMIZE', '{}') RETURNING id`);
    expect(job.id).toBe(5);
    const names = await queryRows<{ name: string }>(db, sql`
      SELECT conname AS name FROM pg_constraint WHERE conrelid = 'jobs'::regclass
      UNION SELECT indexname FROM pg_indexes WHERE tablename = 'jobs'`);
    expect(names.filter(({ name }) => name.includes('sync_jobs'))).toEqual([]);
    expect(names.map(({ name }) => name)).toEqual(expect.arrayContaining(['jobs_pkey', 'jobs_claim_idx', 'jobs_kind_check', 'jobs_dates_check']));
    expect(await queryRows(db, sql`SELECT pg_get_serial_sequence('jobs', 'id') AS sequence`)).toEqual([{ sequence: 'public.jobs_id_seq' }]);
    await expect(db.execute(sql`INSERT INTO jobs (business_account_id, kind, filters) VALUES (1, 'IMPORT', '{}')`)).rejects.toThrow();
  });
});
