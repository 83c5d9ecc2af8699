-- The queue's table is every background job's (imports, exports, set-ups, optimisation runs, reminders, ETA
-- messages), not only the sync's: sync_jobs becomes jobs, and its sequence, indexes and constraints with it.
ALTER TABLE sync_jobs RENAME TO jobs;
ALTER SEQUENCE sync_jobs_id_seq RENAME TO jobs_id_seq;
ALTER INDEX sync_jobs_claim_idx RENAME TO jobs_claim_idx;
ALTER INDEX sync_jobs_history_idx RENAME TO jobs_history_idx;
ALTER INDEX sync_jobs_one_automatic_key RENAME TO jobs_one_automatic_key;
ALTER INDEX sync_jobs_business_created_idx RENAME TO jobs_business_created_idx;
-- Every constraint (the primary key's index with it): the checks and foreign keys, and on servers that list them
-- (PGlite's, PostgreSQL 18) the NOT NULL constraints, which PostgreSQL 15 does not have.
DO $$
DECLARE constraint_name text;
BEGIN
  FOR constraint_name IN SELECT conname FROM pg_constraint WHERE conrelid = 'jobs'::regclass AND conname LIKE 'sync\_jobs\_%' LOOP
    EXECUTE format('ALTER TABLE jobs RENAME CONSTRAINT %I TO %I', constraint_name, 'jobs_' || substr(constraint_name, length('sync_jobs_') + 1));
  END LOOP;
END $$;
