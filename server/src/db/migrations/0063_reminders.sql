-- Appointment reminders to clients (issue 14). Once a day, at the business's reminder hour, each client with visits
-- the next day gets one message per channel. sent_reminders is the ledger that makes that exactly once across
-- workers: a row per (client, visit day, channel) is inserted before anything is sent (the unique key), then claimed
-- with a lease (locked_by/locked_until), sent, and marked SENT. A claim whose worker died is claimed again when its
-- lease has expired; a failed send goes back to PENDING after a delay until max attempts, then FAILED (the dashboard
-- counts those).
ALTER TABLE clients ADD COLUMN reminders_enabled boolean NOT NULL DEFAULT true;

CREATE TABLE sent_reminders (
  id bigserial PRIMARY KEY,
  business_account_id integer NOT NULL REFERENCES business_accounts(id) ON DELETE CASCADE,
  client_id integer NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
  visit_date date NOT NULL,
  channel text NOT NULL CHECK (channel IN ('email', 'sms')),
  status text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'SENDING', 'SENT', 'FAILED', 'SKIPPED')),
  attempts integer NOT NULL DEFAULT 0,
  run_after timestamptz NOT NULL DEFAULT now(),
  locked_by text,
  locked_until timestamptz,
  last_error text,
  sent_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT sent_reminders_once_key UNIQUE (client_id, visit_date, channel)
);
-- What is left to send (or to take over from a dead worker), per business.
CREATE INDEX sent_reminders_open_idx ON sent_reminders (business_account_id, visit_date, id) WHERE status IN ('PENDING', 'SENDING');
-- The dashboard's failed reminders.
CREATE INDEX sent_reminders_failed_idx ON sent_reminders (business_account_id, visit_date) WHERE status = 'FAILED';

-- The daily reminder batch is a job of the queue; start_date = end_date = the visit day it reminds of.
ALTER TABLE sync_jobs DROP CONSTRAINT sync_jobs_kind_check;
ALTER TABLE sync_jobs ADD CONSTRAINT sync_jobs_kind_check CHECK (kind IN ('IMPORT', 'EXPORT', 'PROVIDER_SETUP', 'OPTIMIZE', 'REMINDERS'));

-- The daily batch of each business and visit day, handed out once across all worker processes: the scheduler inserts
-- the row when the reminder hour has come; the next reminders job of the business inserts that day's sent_reminders
-- rows and sets enumerated_at.
CREATE TABLE reminder_runs (
  business_account_id integer NOT NULL REFERENCES business_accounts(id) ON DELETE CASCADE,
  visit_date date NOT NULL,
  due_at timestamptz NOT NULL,
  enumerated_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (business_account_id, visit_date)
);
CREATE INDEX reminder_runs_to_enumerate_idx ON reminder_runs (business_account_id) WHERE enumerated_at IS NULL;
