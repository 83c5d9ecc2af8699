-- The Activity report reads a business's change log, jobs and used login-as links newest first within a range of
-- days: each by business and time, so a month is an index range rather than a scan of every business's history.
CREATE INDEX versions_business_created_idx ON versions (business_account_id, created_at DESC, id DESC);
CREATE INDEX sync_jobs_business_created_idx ON sync_jobs (business_account_id, created_at DESC, id DESC);
CREATE INDEX one_time_tokens_used_idx ON one_time_tokens (user_id, used_at) WHERE purpose = 'LOGIN_AS' AND used_at IS NOT NULL;
