-- ETA messages to clients (issue 26, "The client"): when a practitioner taps On my way, the client is told by SMS
-- (else e-mail) about when they will arrive. The step's transaction enqueues an ETA_MESSAGE job (so the step is never
-- slowed or failed by a send); the job records the message here before sending. One row per visit, kind of message
-- and planned arrival (the change told about): a retried or repeated On my way (reopened and tapped again while the
-- planned arrival is the same) finds its row and sends nothing. A row is inserted SENDING, then ends SENT, FAILED (the
-- channel refused it: error says why) or NOT_SENT (opted out, no mobile or e-mail, too late: error says why). Written by
-- the reminders module only.
ALTER TABLE business_accounts ADD COLUMN eta_messages_enabled boolean NOT NULL DEFAULT true;

CREATE TABLE eta_messages (
  id serial PRIMARY KEY,
  business_account_id integer NOT NULL REFERENCES business_accounts(id) ON DELETE CASCADE,
  appointment_id integer NOT NULL REFERENCES appointments(id) ON DELETE CASCADE,
  -- on_my_way: the practitioner set off; replan: a re-plan moved the arrival (not sent yet by anything).
  kind text NOT NULL CHECK (kind IN ('on_my_way', 'replan')),
  -- The visit's planned arrival (arrive_at, else its booked start) when the message was due: the change it tells of.
  planned_arrival timestamptz NOT NULL,
  visit_step_id integer REFERENCES visit_steps(id) ON DELETE SET NULL,
  status text NOT NULL DEFAULT 'SENDING' CHECK (status IN ('SENDING', 'SENT', 'FAILED', 'NOT_SENT')),
  channel text CHECK (channel IN ('email', 'sms')),
  -- The arrival time told to the client (null: none could be told).
  eta timestamptz,
  error text,
  sent_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT eta_messages_once_key UNIQUE (appointment_id, kind, planned_arrival)
);
CREATE INDEX eta_messages_business_idx ON eta_messages (business_account_id, appointment_id);

-- The message is sent by a job of the queue (params: appointment_id, visit_step_id; start_date = end_date = the visit's day).
ALTER TABLE sync_jobs DROP CONSTRAINT sync_jobs_kind_check;
ALTER TABLE sync_jobs ADD CONSTRAINT sync_jobs_kind_check CHECK (kind IN ('IMPORT', 'EXPORT', 'PROVIDER_SETUP', 'OPTIMIZE', 'REMINDERS', 'ETA_MESSAGE'));
