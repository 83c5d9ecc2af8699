-- Bookings written through to the practice management system (issue 36, ADR 0024): one row per write of a visit
-- (create, update, cancel) with its state, so a slow or failed write is shown and retried without creating twice.
-- `reference` goes into the PMS appointment's notes ("Booked in Rounds (ref …)"): after an unclear answer the write
-- job, and an import meeting the appointment before it was linked, find it by that reference.
CREATE TABLE pms_writes (
  id serial PRIMARY KEY,
  business_account_id integer NOT NULL REFERENCES business_accounts(id),
  appointment_id integer REFERENCES appointments(id) ON DELETE SET NULL,
  kind text NOT NULL CHECK (kind IN ('create', 'update', 'cancel')),
  state text NOT NULL DEFAULT 'saving' CHECK (state IN ('saving', 'saved', 'failed', 'conflict', 'discarded')),
  reference text NOT NULL UNIQUE,
  payload jsonb NOT NULL DEFAULT '{}',
  attempts integer NOT NULL DEFAULT 0,
  message text,
  differences jsonb NOT NULL DEFAULT '[]',
  request_id text,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT pms_writes_request_key UNIQUE (business_account_id, request_id)
);
CREATE INDEX pms_writes_appointment_idx ON pms_writes (appointment_id, id DESC);
CREATE INDEX pms_writes_open_idx ON pms_writes (business_account_id, state) WHERE state IN ('saving', 'failed', 'conflict');
-- The day list shows each visit's write state (saving, failed, conflict): a write's change moves the lists' version.
CREATE CONSTRAINT TRIGGER pms_writes_lists_version AFTER INSERT OR UPDATE OR DELETE ON pms_writes
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_lists_version();

-- The write job of one pms_writes row.
ALTER TABLE jobs DROP CONSTRAINT jobs_kind_check;
ALTER TABLE jobs ADD CONSTRAINT jobs_kind_check CHECK (kind IN ('IMPORT', 'EXPORT', 'PROVIDER_SETUP', 'OPTIMIZE', 'REMINDERS', 'ETA_MESSAGE', 'PMS_WRITE'));
ALTER TABLE jobs DROP CONSTRAINT jobs_dates_check;
ALTER TABLE jobs ADD CONSTRAINT jobs_dates_check
  CHECK (kind IN ('PROVIDER_SETUP', 'OPTIMIZE', 'PMS_WRITE') OR (start_date IS NOT NULL AND end_date IS NOT NULL AND start_date <= end_date));
