-- Practice-management sync: job queue (imports, exports, provider-account setup), per-appointment import and
-- export history, incremental cursors and the times last synced for each appointment.
CREATE TABLE sync_jobs (
  id serial PRIMARY KEY,
  business_account_id integer NOT NULL REFERENCES business_accounts(id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('IMPORT', 'EXPORT', 'PROVIDER_SETUP')),
  status text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'INPROGRESS', 'COMPLETE', 'ERROR', 'CANCELLED')),
  start_date date,
  end_date date,
  filters jsonb NOT NULL DEFAULT '{"practitioner_ids":[],"appointment_type_ids":[],"business_location_ids":[]}',
  created_by_user_id integer REFERENCES users(id) ON DELETE SET NULL,
  created_by_name text,
  automatic boolean NOT NULL DEFAULT false,
  result jsonb,
  error_message text,
  attempts integer NOT NULL DEFAULT 0,
  max_attempts integer NOT NULL DEFAULT 3,
  run_after timestamptz NOT NULL DEFAULT now(),
  locked_by text,
  locked_until timestamptz,
  heartbeat_at timestamptz,
  started_at timestamptz,
  finished_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (kind = 'PROVIDER_SETUP' OR (start_date IS NOT NULL AND end_date IS NOT NULL AND start_date <= end_date))
);
CREATE INDEX sync_jobs_claim_idx ON sync_jobs (status, run_after, id);
CREATE INDEX sync_jobs_history_idx ON sync_jobs (business_account_id, kind, id DESC);
-- The scheduler enqueues at most one unfinished automatic job per business and kind.
CREATE UNIQUE INDEX sync_jobs_one_automatic_key ON sync_jobs (business_account_id, kind)
  WHERE automatic AND status IN ('PENDING', 'INPROGRESS');

CREATE TABLE import_history_entries (
  id bigserial PRIMARY KEY,
  business_account_id integer NOT NULL REFERENCES business_accounts(id) ON DELETE CASCADE,
  appointment_id integer NOT NULL REFERENCES appointments(id) ON DELETE CASCADE,
  import_id integer REFERENCES sync_jobs(id) ON DELETE SET NULL,
  author_full_name text,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX import_history_entries_appointment_idx ON import_history_entries (appointment_id, created_at);

CREATE TABLE export_history_entries (
  id bigserial PRIMARY KEY,
  business_account_id integer NOT NULL REFERENCES business_accounts(id) ON DELETE CASCADE,
  appointment_id integer NOT NULL REFERENCES appointments(id) ON DELETE CASCADE,
  export_id integer REFERENCES sync_jobs(id) ON DELETE SET NULL,
  author_full_name text,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX export_history_entries_appointment_idx ON export_history_entries (appointment_id, created_at);

-- The appointment times as the PMS had them at the last import or export: an export sends only appointments
-- whose local times differ from these.
CREATE TABLE appointment_sync_snapshots (
  appointment_id integer PRIMARY KEY REFERENCES appointments(id) ON DELETE CASCADE,
  business_account_id integer NOT NULL REFERENCES business_accounts(id) ON DELETE CASCADE,
  starts_at timestamptz NOT NULL,
  ends_at timestamptz NOT NULL,
  synced_at timestamptz NOT NULL DEFAULT now()
);

-- High-water marks of incremental pulls (e.g. patients updated after this instant).
CREATE TABLE sync_cursors (
  business_account_id integer NOT NULL REFERENCES business_accounts(id) ON DELETE CASCADE,
  resource text NOT NULL,
  synced_through timestamptz NOT NULL,
  PRIMARY KEY (business_account_id, resource)
);
