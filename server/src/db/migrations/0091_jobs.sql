-- The queue's table is every background job's (imports, exports, set-ups, optimisation runs, reminders, ETA
-- messages), not only the sync's: sync_jobs becomes jobs, and its sequence, indexes and constraints with it.
ALTER TABLE sync_jobs RENAME TO jobs;
ALTER SEQUENCE sync_jobs_id_seq RENAME TO jobs_id_seq;
ALTER INDEX sync_jobs_pkey RENAME TO jobs_pkey;
ALTER INDEX sync_jobs_claim_idx RENAME TO jobs_claim_idx;
ALTER INDEX sync_jobs_history_idx RENAME TO jobs_history_idx;
ALTER INDEX sync_jobs_one_automatic_key RENAME TO jobs_one_automatic_key;
ALTER INDEX sync_jobs_business_created_idx RENAME TO jobs_business_created_idx;
ALTER TABLE jobs RENAME CONSTRAINT sync_jobs_check TO jobs_check;
ALTER TABLE jobs RENAME CONSTRAINT sync_jobs_kind_check TO jobs_kind_check;
ALTER TABLE jobs RENAME CONSTRAINT sync_jobs_status_check TO jobs_status_check;
ALTER TABLE jobs RENAME CONSTRAINT sync_jobs_business_account_id_fkey TO jobs_business_account_id_fkey;
ALTER TABLE jobs RENAME CONSTRAINT sync_jobs_created_by_user_id_fkey TO jobs_created_by_user_id_fkey;
