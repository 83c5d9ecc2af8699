-- Travel summaries (ADR 0017): per practitioner-day and per visit, the figures the travel-legs module computes
-- (legs, working day, idle time, punctuality), so reports over a month of 200,000 visits add up rows instead of
-- computing ~10,000 days of legs on every request.
--
-- Every (business, practitioner, day) that has or had a visit has a row in travel_summary_days. Triggers move its
-- `version` whenever anything the day's figures depend on changes (its appointments, its route, the practitioner,
-- the clients visited, the business's places and time zone); a reader recomputes the rows whose `computed_version`
-- is not their `version` (or whose travel model differs) and stores the result only if `version` did not move while
-- it computed. So a summary row is either fresh or known to be stale, never silently old.
--
-- Like the list cache's lists_version triggers (0030), the triggers are deferred to commit: a writer locks the
-- summary rows last, after its own rows.
CREATE TABLE travel_summary_days (
  business_account_id integer NOT NULL REFERENCES business_accounts(id),
  practitioner_id integer NOT NULL,
  day date NOT NULL,
  version bigint NOT NULL DEFAULT 1,
  computed_version bigint,
  model text,
  -- The day's totals over all its visits (what a report without type or location filters adds up).
  working_seconds integer,
  visits integer,
  visit_seconds integer,
  travel_seconds integer,
  travel_metres integer,
  route_legs integer,
  estimate_legs integer,
  unlocated_visits integer,
  idle_seconds integer,
  punctual_visits integer,
  PRIMARY KEY (business_account_id, day, practitioner_id)
);

CREATE TABLE travel_summary_visits (
  business_account_id integer NOT NULL,
  day date NOT NULL,
  practitioner_id integer NOT NULL,
  appointment_id integer NOT NULL,
  client_id integer,
  client_name text,
  appointment_type_id integer,
  business_location_id integer,
  starts_at timestamptz NOT NULL,
  visit_ms bigint NOT NULL,
  located boolean NOT NULL,
  punctual boolean NOT NULL,
  -- The leg that reaches the visit (start or between), and for the day's last located visit the leg home.
  in_from_name text,
  in_seconds integer,
  in_metres integer,
  in_source text,
  in_idle_seconds integer,
  out_seconds integer,
  out_metres integer,
  out_source text,
  PRIMARY KEY (business_account_id, day, practitioner_id, appointment_id)
);
CREATE INDEX travel_summary_visits_client_idx ON travel_summary_visits (business_account_id, client_id, day);

-- Moves the version of one practitioner-day (creating its row).
CREATE FUNCTION travel_summary_touch(business integer, practitioner integer, touched date) RETURNS void LANGUAGE sql AS $$
  INSERT INTO travel_summary_days (business_account_id, practitioner_id, day) VALUES (business, practitioner, touched)
  ON CONFLICT (business_account_id, day, practitioner_id) DO UPDATE SET version = travel_summary_days.version + 1;
$$;

CREATE FUNCTION travel_summary_appointment_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  zone text;
BEGIN
  IF TG_OP = 'UPDATE' AND (OLD.practitioner_id, OLD.starts_at, OLD.ends_at, OLD.arrive_at, OLD.cancelled_at, OLD.client_id, OLD.lat, OLD.lng,
      OLD.appointment_type_id, OLD.business_location_id) IS NOT DISTINCT FROM (NEW.practitioner_id, NEW.starts_at, NEW.ends_at, NEW.arrive_at,
      NEW.cancelled_at, NEW.client_id, NEW.lat, NEW.lng, NEW.appointment_type_id, NEW.business_location_id) THEN
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.practitioner_id IS NOT NULL THEN
    SELECT time_zone INTO zone FROM business_accounts WHERE id = OLD.business_account_id;
    PERFORM travel_summary_touch(OLD.business_account_id, OLD.practitioner_id, (OLD.starts_at AT TIME ZONE zone)::date);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.practitioner_id IS NOT NULL THEN
    SELECT time_zone INTO zone FROM business_accounts WHERE id = NEW.business_account_id;
    PERFORM travel_summary_touch(NEW.business_account_id, NEW.practitioner_id, (NEW.starts_at AT TIME ZONE zone)::date);
  END IF;
  RETURN NULL;
END
$$;
CREATE CONSTRAINT TRIGGER appointments_travel_summary AFTER INSERT OR UPDATE OR DELETE ON appointments
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION travel_summary_appointment_changed();

CREATE FUNCTION travel_summary_route_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN PERFORM travel_summary_touch(OLD.business_account_id, OLD.practitioner_id, OLD.day); END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN PERFORM travel_summary_touch(NEW.business_account_id, NEW.practitioner_id, NEW.day); END IF;
  RETURN NULL;
END
$$;
CREATE CONSTRAINT TRIGGER routes_travel_summary AFTER INSERT OR UPDATE OR DELETE ON routes
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION travel_summary_route_changed();

-- A practitioner's places, name and time zone are in every leg of theirs: all their days move.
CREATE FUNCTION travel_summary_practitioner_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE travel_summary_days SET version = version + 1 WHERE business_account_id = NEW.business_account_id AND practitioner_id = NEW.id;
  RETURN NULL;
END
$$;
CREATE CONSTRAINT TRIGGER practitioners_travel_summary AFTER UPDATE ON practitioners
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION travel_summary_practitioner_changed();

-- A client's point, name, availability and time zone are in the legs and punctuality of the days they are visited.
CREATE FUNCTION travel_summary_client_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND (OLD.lat, OLD.lng, OLD.first_name, OLD.last_name, OLD.availability, OLD.time_zone)
      IS NOT DISTINCT FROM (NEW.lat, NEW.lng, NEW.first_name, NEW.last_name, NEW.availability, NEW.time_zone) THEN
    RETURN NULL;
  END IF;
  UPDATE travel_summary_days d SET version = d.version + 1
  FROM (SELECT DISTINCT v.day, v.practitioner_id FROM travel_summary_visits v
        WHERE v.business_account_id = OLD.business_account_id AND v.client_id = OLD.id) visited
  WHERE d.business_account_id = OLD.business_account_id AND d.day = visited.day AND d.practitioner_id = visited.practitioner_id;
  RETURN NULL;
END
$$;
CREATE CONSTRAINT TRIGGER clients_travel_summary AFTER UPDATE OR DELETE ON clients
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION travel_summary_client_changed();

-- Business and custom locations can be anyone's start or end place: every day of the business moves.
CREATE FUNCTION travel_summary_place_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed record := CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
BEGIN
  UPDATE travel_summary_days SET version = version + 1 WHERE business_account_id = changed.business_account_id;
  RETURN NULL;
END
$$;
CREATE CONSTRAINT TRIGGER business_locations_travel_summary AFTER UPDATE OR DELETE ON business_locations
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION travel_summary_place_changed();
CREATE CONSTRAINT TRIGGER custom_locations_travel_summary AFTER UPDATE OR DELETE ON custom_locations
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION travel_summary_place_changed();

-- Every practitioner-day of the business's visits, in its time zone: filled here, and again when the zone changes
-- (a visit's day is a day in that zone).
CREATE FUNCTION travel_summary_fill(business integer) RETURNS void LANGUAGE sql AS $$
  DELETE FROM travel_summary_visits WHERE business_account_id = business;
  DELETE FROM travel_summary_days WHERE business_account_id = business;
  INSERT INTO travel_summary_days (business_account_id, practitioner_id, day)
  SELECT DISTINCT a.business_account_id, a.practitioner_id, (a.starts_at AT TIME ZONE b.time_zone)::date
  FROM appointments a JOIN business_accounts b ON b.id = a.business_account_id
  WHERE a.business_account_id = business AND a.practitioner_id IS NOT NULL AND a.cancelled_at IS NULL;
$$;

CREATE FUNCTION travel_summary_business_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.time_zone IS DISTINCT FROM NEW.time_zone THEN
    PERFORM travel_summary_fill(NEW.id);
  END IF;
  RETURN NULL;
END
$$;
CREATE CONSTRAINT TRIGGER business_accounts_travel_summary AFTER UPDATE ON business_accounts
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION travel_summary_business_changed();

SELECT travel_summary_fill(id) FROM business_accounts;
