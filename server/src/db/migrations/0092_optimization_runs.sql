-- An optimisation run is a record of its own (issue 25): what was asked (the days, the mode, the practitioners), the
-- proposal of each day with its visits as they were, and what became of it (applied, discarded, undone: by whom and
-- when, and what Undo needs). Its job row (same id) keeps only the queue's state and the search's progress. Written by
-- the optimizations module only. Existing runs are moved here from their job rows' columns and result.
CREATE TABLE optimization_runs (
  job_id integer PRIMARY KEY REFERENCES jobs(id) ON DELETE CASCADE,
  business_account_id integer NOT NULL REFERENCES business_accounts(id) ON DELETE CASCADE,
  first_date date NOT NULL,
  last_date date NOT NULL,
  mode text NOT NULL CHECK (mode IN ('keep_practitioners', 'reassign')),
  practitioner_ids integer[] NOT NULL,
  -- Each day's proposal and fingerprints ([{proposal, fingerprints}], in date order), once the search has finished.
  days jsonb,
  applied_at timestamptz,
  applied_by_user_id integer REFERENCES users(id) ON DELETE SET NULL,
  applied_by_name text,
  -- What Undo needs, kept at Apply (null for a run applied before Undo existed).
  undo jsonb,
  discarded_at timestamptz,
  discarded_by_name text,
  undone_at timestamptz,
  undone_by_name text,
  CHECK (first_date <= last_date)
);
CREATE INDEX optimization_runs_business_days_idx ON optimization_runs (business_account_id, first_date);

INSERT INTO optimization_runs (job_id, business_account_id, first_date, last_date, mode, practitioner_ids, days,
  applied_at, applied_by_user_id, applied_by_name, undo, discarded_at, discarded_by_name, undone_at, undone_by_name)
SELECT j.id, j.business_account_id, j.start_date, coalesce(j.end_date, j.start_date),
  coalesce(j.params ->> 'mode', 'keep_practitioners'),
  ARRAY(SELECT jsonb_array_elements_text(coalesce(j.filters -> 'practitioner_ids', '[]'))::integer),
  -- A run of one day made before runs of several kept its day at the top of its result.
  CASE WHEN j.result IS NULL OR NOT j.result ? 'proposal' THEN NULL
       WHEN j.result ? 'days' THEN j.result -> 'days'
       ELSE jsonb_build_array(jsonb_build_object('proposal', j.result -> 'proposal', 'fingerprints', coalesce(j.result -> 'fingerprints', '[]')))
  END,
  (j.result -> 'applied' ->> 'at')::timestamptz,
  (SELECT u.id FROM users u WHERE u.id = (j.result -> 'applied' ->> 'by_user_id')::integer),
  j.result -> 'applied' ->> 'by_name',
  j.result -> 'undo',
  (j.result -> 'discarded' ->> 'at')::timestamptz, j.result -> 'discarded' ->> 'by_name',
  (j.result -> 'undone' ->> 'at')::timestamptz, j.result -> 'undone' ->> 'by_name'
FROM jobs j
WHERE j.kind = 'OPTIMIZE';

-- A run's days are its own now: only imports, exports, reminders and ETA messages keep theirs on the job.
ALTER TABLE jobs DROP CONSTRAINT jobs_check;
UPDATE jobs SET start_date = NULL, end_date = NULL, params = '{}', result = NULL,
  filters = '{"practitioner_ids":[],"appointment_type_ids":[],"business_location_ids":[]}'
WHERE kind = 'OPTIMIZE';

ALTER TABLE jobs ADD CONSTRAINT jobs_dates_check
  CHECK (kind IN ('PROVIDER_SETUP', 'OPTIMIZE') OR (start_date IS NOT NULL AND end_date IS NOT NULL AND start_date <= end_date));
