-- Each business's turn in the queue (issue 34): `claimed_at` is when a worker last took the job (a week's
-- optimisation run gives its slot up between days and is taken again, so its first start is not its latest turn).
-- The business whose latest claim of a lane is oldest goes next in that lane.
ALTER TABLE jobs ADD COLUMN claimed_at timestamptz;
UPDATE jobs SET claimed_at = started_at WHERE started_at IS NOT NULL;
CREATE INDEX jobs_turns_idx ON jobs (business_account_id, kind, claimed_at DESC);
