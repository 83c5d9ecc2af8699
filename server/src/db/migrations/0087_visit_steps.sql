-- A visit as it happens (issue 26, first slice): the practitioner's steps On my way → Arrived → Done, or Could not
-- attend with a reason, and a coordinator's reopening. Each step is a row of visit_steps (the record: its time, the
-- phone's place and accuracy, the distance to the client's point, who recorded it, and the phone's idempotency key so
-- a step sent twice is stored once); the visit's state now is appointments.visit_state, changed in the same
-- transaction (so the lists' version moves, and the desk and the optimiser can filter on it). Both tables are written
-- by the appointments module only.
ALTER TABLE appointments ADD COLUMN visit_state text NOT NULL DEFAULT 'not_started'
  CHECK (visit_state IN ('not_started', 'on_my_way', 'arrived', 'done', 'could_not_attend'));

-- An arrival further than this from the client's point is recorded and flagged, not refused.
ALTER TABLE business_accounts ADD COLUMN arrival_far_metres integer NOT NULL DEFAULT 300
  CHECK (arrival_far_metres BETWEEN 25 AND 100000);

CREATE TABLE visit_steps (
  id serial PRIMARY KEY,
  business_account_id integer NOT NULL REFERENCES business_accounts(id) ON DELETE CASCADE,
  appointment_id integer NOT NULL REFERENCES appointments(id) ON DELETE CASCADE,
  step text NOT NULL CHECK (step IN ('on_my_way', 'arrived', 'done', 'could_not_attend', 'reopened')),
  -- When it happened: the phone's original time when it sent one, else the server's.
  at timestamptz NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT now(),
  lat double precision CHECK (lat BETWEEN -90 AND 90),
  lng double precision CHECK (lng BETWEEN -180 AND 180),
  accuracy_m double precision CHECK (accuracy_m >= 0),
  -- From the phone's place to the visit's point, when both are known.
  distance_m integer,
  far_from_client boolean NOT NULL DEFAULT false,
  reason text CHECK (reason IN ('client_not_home', 'refused', 'hospital', 'other')),
  reason_text text,
  note text,
  idempotency_key text NOT NULL,
  recorded_by_user_id integer REFERENCES users(id) ON DELETE SET NULL,
  recorded_by_name text,
  CHECK ((lat IS NULL) = (lng IS NULL)),
  CHECK ((step = 'could_not_attend') = (reason IS NOT NULL))
);
CREATE UNIQUE INDEX visit_steps_idempotency_key ON visit_steps (business_account_id, idempotency_key);
CREATE INDEX visit_steps_appointment_idx ON visit_steps (appointment_id, id);
