-- Route optimisation (issue 12): the working data the optimiser needs about each practitioner (kept in Rounds, never
-- written to the practice management system), places that are neither clients nor business locations, the business's
-- optimisation settings, optimisation runs (sync_jobs of kind OPTIMIZE) and the routes a user applied.

CREATE TABLE custom_locations (
  id serial PRIMARY KEY,
  business_account_id integer NOT NULL REFERENCES business_accounts(id) ON DELETE CASCADE,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 120),
  address text NOT NULL DEFAULT '',
  lat double precision NOT NULL CHECK (lat BETWEEN -90 AND 90),
  lng double precision NOT NULL CHECK (lng BETWEEN -180 AND 180),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX custom_locations_business_idx ON custom_locations (business_account_id);

-- Start place: the practitioner's home (home_address, home_lat, home_lng), a business location or a custom location;
-- no start place = the practitioner cannot be routed. End place: NULL kind = the same as the start place.
-- A custom location in use cannot be deleted (RESTRICT); a business location the PMS removes leaves no place (SET NULL).
ALTER TABLE practitioners
  ADD COLUMN start_place_kind text CHECK (start_place_kind IN ('home', 'business_location', 'custom_location')),
  ADD COLUMN start_business_location_id integer REFERENCES business_locations(id) ON DELETE SET NULL,
  ADD COLUMN start_custom_location_id integer REFERENCES custom_locations(id) ON DELETE RESTRICT,
  ADD COLUMN end_place_kind text CHECK (end_place_kind IN ('home', 'business_location', 'custom_location')),
  ADD COLUMN end_business_location_id integer REFERENCES business_locations(id) ON DELETE SET NULL,
  ADD COLUMN end_custom_location_id integer REFERENCES custom_locations(id) ON DELETE RESTRICT,
  -- Seven entries, Monday first: null (off) or {"start": "HH:MM", "end": "HH:MM"} on the practitioner's own clock.
  ADD COLUMN working_hours jsonb NOT NULL DEFAULT '[null, null, null, null, null, null, null]'
    CHECK (jsonb_typeof(working_hours) = 'array' AND jsonb_array_length(working_hours) = 7),
  -- Optional break: taken starting between earliest and latest, for break_minutes.
  ADD COLUMN break_earliest time,
  ADD COLUMN break_latest time,
  ADD COLUMN break_minutes integer CHECK (break_minutes BETWEEN 1 AND 240),
  -- The appointment types the practitioner delivers; NULL = every type.
  ADD COLUMN skill_appointment_type_ids integer[],
  ADD COLUMN max_visits integer CHECK (max_visits BETWEEN 1 AND 100),
  ADD COLUMN max_travel_minutes integer CHECK (max_travel_minutes BETWEEN 1 AND 1440),
  ADD CONSTRAINT practitioners_break_complete CHECK (
    (break_earliest IS NULL AND break_latest IS NULL AND break_minutes IS NULL)
    OR (break_earliest IS NOT NULL AND break_latest IS NOT NULL AND break_minutes IS NOT NULL AND break_earliest <= break_latest));

-- One row per business; a business without a row uses these defaults.
CREATE TABLE optimization_settings (
  business_account_id integer PRIMARY KEY REFERENCES business_accounts(id) ON DELETE CASCADE,
  -- 'hard': a visit starts inside the client's availability or is not placed; 'soft': up to max_lateness_minutes late.
  availability_mode text NOT NULL DEFAULT 'hard' CHECK (availability_mode IN ('hard', 'soft')),
  max_lateness_minutes integer NOT NULL DEFAULT 30 CHECK (max_lateness_minutes BETWEEN 0 AND 240),
  overtime_minutes integer NOT NULL DEFAULT 0 CHECK (overtime_minutes BETWEEN 0 AND 240),
  visit_buffer_minutes integer NOT NULL DEFAULT 0 CHECK (visit_buffer_minutes BETWEEN 0 AND 60),
  arrival_rounding_minutes integer NOT NULL DEFAULT 5 CHECK (arrival_rounding_minutes IN (0, 1, 5, 10, 15)),
  -- The plain choice shown to users; 'custom' when the weights were set under "Advanced".
  preset text NOT NULL DEFAULT 'balanced'
    CHECK (preset IN ('shortest_travel', 'balanced', 'punctual', 'continuity', 'custom')),
  weight_travel_time double precision NOT NULL DEFAULT 1 CHECK (weight_travel_time BETWEEN 0 AND 1000),
  weight_distance double precision NOT NULL DEFAULT 0 CHECK (weight_distance BETWEEN 0 AND 1000),
  weight_continuity double precision NOT NULL DEFAULT 0.25 CHECK (weight_continuity BETWEEN 0 AND 1000),
  weight_lateness double precision NOT NULL DEFAULT 0.5 CHECK (weight_lateness BETWEEN 0 AND 1000),
  weight_overtime double precision NOT NULL DEFAULT 1 CHECK (weight_overtime BETWEEN 0 AND 1000),
  search_seconds integer NOT NULL DEFAULT 10 CHECK (search_seconds BETWEEN 1 AND 120),
  allow_reassignment boolean NOT NULL DEFAULT true,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Optimisation runs are jobs of the sync queue: start_date = end_date = the day; filters.practitioner_ids = the
-- practitioners; params = the run's choices (mode, …); progress = the latest report while it runs; result = the proposal.
ALTER TABLE sync_jobs DROP CONSTRAINT sync_jobs_kind_check;
ALTER TABLE sync_jobs ADD CONSTRAINT sync_jobs_kind_check CHECK (kind IN ('IMPORT', 'EXPORT', 'PROVIDER_SETUP', 'OPTIMIZE'));
ALTER TABLE sync_jobs ADD COLUMN params jsonb NOT NULL DEFAULT '{}', ADD COLUMN progress jsonb;

-- A practitioner's applied route for one day. Stops are in visiting order:
-- [{"appointment_id", "arrive_at", "travel_seconds", "travel_metres"}] (the leg from the previous stop or the start
-- place); return_leg is the leg from the last stop to the end place. Places: {"kind", "id", "name", "lat", "lng"}.
-- metrics: {"travel_seconds", "travel_metres", "idle_seconds", "overtime_seconds", "late_visits"}.
CREATE TABLE routes (
  id serial PRIMARY KEY,
  business_account_id integer NOT NULL REFERENCES business_accounts(id) ON DELETE CASCADE,
  practitioner_id integer NOT NULL REFERENCES practitioners(id) ON DELETE CASCADE,
  day date NOT NULL,
  start_place jsonb,
  end_place jsonb,
  stops jsonb NOT NULL DEFAULT '[]',
  return_leg jsonb,
  metrics jsonb NOT NULL DEFAULT '{}',
  optimization_job_id integer REFERENCES sync_jobs(id) ON DELETE SET NULL,
  applied_by_user_id integer REFERENCES users(id) ON DELETE SET NULL,
  applied_by_name text,
  applied_at timestamptz NOT NULL DEFAULT now(),
  -- Set when an import moved, cancelled or added a visit of this route's day after it was applied.
  stale_at timestamptz,
  UNIQUE (business_account_id, practitioner_id, day)
);
CREATE INDEX routes_day_idx ON routes (business_account_id, day);

-- Nothing set route_id before this migration; make that true before the foreign key checks it.
UPDATE appointments SET route_id = NULL WHERE route_id IS NOT NULL;
ALTER TABLE appointments
  ADD CONSTRAINT appointments_route_fk FOREIGN KEY (route_id) REFERENCES routes(id) ON DELETE SET NULL,
  -- "Keep this time": the optimiser keeps this visit's arrival.
  ADD COLUMN arrival_locked boolean NOT NULL DEFAULT false;
CREATE INDEX appointments_route_idx ON appointments (route_id) WHERE route_id IS NOT NULL;
