-- Care plans, open visits, client absences and public holidays (issue 36, ADR 0025). A care plan line repeats visits
-- of one type on ISO weekdays inside a local time window; an allocation generates its occurrences for the weeks
-- ahead as open visits (one per carer), then proposes a practitioner for each (a CARE_ALLOCATION job); Apply books
-- them. An occurrence is generated once: its key (plan, date, window start, carer) is unique whatever its state.
CREATE TABLE care_plans (
  id serial PRIMARY KEY,
  business_account_id integer NOT NULL REFERENCES business_accounts(id),
  client_id integer NOT NULL REFERENCES clients(id),
  appointment_type_id integer NOT NULL REFERENCES appointment_types(id),
  weekdays integer[] NOT NULL CHECK (cardinality(weekdays) BETWEEN 1 AND 7 AND weekdays <@ ARRAY[1, 2, 3, 4, 5, 6, 7]),
  -- Minutes from local midnight in the business's time zone.
  window_start integer NOT NULL CHECK (window_start BETWEEN 0 AND 1439),
  window_end integer NOT NULL CHECK (window_end BETWEEN 1 AND 1440 AND window_end > window_start),
  duration_minutes integer NOT NULL CHECK (duration_minutes BETWEEN 5 AND 720),
  carers integer NOT NULL DEFAULT 1 CHECK (carers IN (1, 2)),
  starts_on date NOT NULL,
  ends_on date CHECK (ends_on IS NULL OR ends_on >= starts_on),
  preferred_practitioner_ids integer[] NOT NULL DEFAULT '{}',
  notes text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX care_plans_client_idx ON care_plans (business_account_id, client_id);

CREATE TABLE client_absences (
  id serial PRIMARY KEY,
  business_account_id integer NOT NULL REFERENCES business_accounts(id),
  client_id integer NOT NULL REFERENCES clients(id),
  starts_on date NOT NULL,
  ends_on date NOT NULL CHECK (ends_on >= starts_on),
  reason text NOT NULL CHECK (reason IN ('hospital', 'away', 'other')),
  note text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX client_absences_client_idx ON client_absences (business_account_id, client_id, starts_on);

CREATE TABLE open_visits (
  id serial PRIMARY KEY,
  business_account_id integer NOT NULL REFERENCES business_accounts(id),
  client_id integer NOT NULL REFERENCES clients(id),
  appointment_type_id integer NOT NULL REFERENCES appointment_types(id),
  care_plan_id integer REFERENCES care_plans(id),
  date date NOT NULL,
  window_start integer NOT NULL CHECK (window_start BETWEEN 0 AND 1439),
  window_end integer NOT NULL CHECK (window_end BETWEEN 1 AND 1440 AND window_end > window_start),
  duration_minutes integer NOT NULL CHECK (duration_minutes BETWEEN 5 AND 720),
  -- 0, or 1 for the second carer of a two-carer occurrence.
  carer_index integer NOT NULL DEFAULT 0 CHECK (carer_index IN (0, 1)),
  reason text NOT NULL,
  notes text,
  state text NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'filled', 'removed')),
  appointment_id integer REFERENCES appointments(id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  -- The absence that removed it: deleting the absence forgets the occurrence, so it is generated again.
  absence_id integer REFERENCES client_absences(id) ON DELETE CASCADE,
  CHECK (state <> 'filled' OR appointment_id IS NOT NULL)
);
CREATE UNIQUE INDEX open_visits_occurrence_key ON open_visits (care_plan_id, date, window_start, carer_index) WHERE care_plan_id IS NOT NULL;
CREATE INDEX open_visits_open_idx ON open_visits (business_account_id, date) WHERE state = 'open';
CREATE INDEX open_visits_appointment_idx ON open_visits (appointment_id) WHERE appointment_id IS NOT NULL;

-- A booking that filled an open visit and then left Rounds (discarded: it never reached the PMS) leaves its open visit
-- open again, with why; without this its row would block the delete.
CREATE FUNCTION reopen_open_visit_of_deleted_appointment() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE open_visits
  SET state = 'open', appointment_id = NULL, updated_at = now(),
      reason = 'Its booking was discarded before Cliniko had it'
  WHERE appointment_id = OLD.id;
  RETURN OLD;
END;
$$;
CREATE TRIGGER appointments_reopen_open_visit BEFORE DELETE ON appointments
  FOR EACH ROW EXECUTE FUNCTION reopen_open_visit_of_deleted_appointment();

CREATE TABLE public_holidays (
  id serial PRIMARY KEY,
  business_account_id integer NOT NULL REFERENCES business_accounts(id),
  date date NOT NULL,
  name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (business_account_id, date)
);

CREATE TABLE care_plan_allocations (
  id serial PRIMARY KEY,
  business_account_id integer NOT NULL REFERENCES business_accounts(id),
  job_id integer REFERENCES jobs(id),
  status text NOT NULL DEFAULT 'RUNNING' CHECK (status IN ('RUNNING', 'DONE', 'ERROR', 'APPLIED')),
  start_date date NOT NULL,
  end_date date NOT NULL CHECK (end_date >= start_date),
  message text,
  generated integer NOT NULL DEFAULT 0,
  -- The proposal once DONE: { visits: CarePlanAllocationVisit[], figures }.
  result jsonb,
  created_by_name text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX care_plan_allocations_business_idx ON care_plan_allocations (business_account_id, created_at DESC);

ALTER TABLE jobs DROP CONSTRAINT jobs_kind_check;
ALTER TABLE jobs ADD CONSTRAINT jobs_kind_check CHECK (kind IN ('IMPORT', 'EXPORT', 'PROVIDER_SETUP', 'OPTIMIZE', 'REMINDERS', 'ETA_MESSAGE', 'PMS_WRITE', 'CARE_ALLOCATION'));
