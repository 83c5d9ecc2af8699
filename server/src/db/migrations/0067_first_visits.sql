-- Each practitioner's first visit to each client (ADR 0018), for Practitioner performance's continuity: a visit is a
-- repeat unless it is its practitioner and client's first visit that is not cancelled. A report counts the first
-- visits of its range here (an index range scan) instead of reading every earlier visit of its practitioners.
--
-- Kept by the same change tracking as the travel summaries (0064): a deferred trigger on appointments, at commit. A
-- visit that is not cancelled becomes the pair's row when it is earlier than the one there; when the visit the row
-- names changes or goes (cancelled, moved, another client or practitioner, deleted), the pair's first visit is read
-- again from the appointments (appointments_first_visit_idx).
CREATE TABLE practitioner_first_visits (
  business_account_id integer NOT NULL REFERENCES business_accounts(id),
  practitioner_id integer NOT NULL,
  client_id integer NOT NULL,
  appointment_id integer NOT NULL,
  starts_at timestamptz NOT NULL,
  appointment_type_id integer,
  business_location_id integer,
  PRIMARY KEY (business_account_id, practitioner_id, client_id)
);
-- Covering: the report counts a range's first visits with an index-only scan.
CREATE INDEX practitioner_first_visits_range_idx ON practitioner_first_visits (business_account_id, starts_at)
  INCLUDE (practitioner_id, appointment_type_id, business_location_id);
CREATE INDEX appointments_first_visit_idx ON appointments (business_account_id, practitioner_id, client_id, starts_at, id) WHERE cancelled_at IS NULL;

-- The pair's first visit read again from the appointments (no row when it has none).
CREATE FUNCTION practitioner_first_visit_refresh(business integer, practitioner integer, client integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  first record;
BEGIN
  SELECT a.id, a.starts_at, a.appointment_type_id, a.business_location_id INTO first
  FROM appointments a
  WHERE a.business_account_id = business AND a.practitioner_id = practitioner AND a.client_id = client AND a.cancelled_at IS NULL
  ORDER BY a.starts_at, a.id LIMIT 1;
  IF first.id IS NULL THEN
    DELETE FROM practitioner_first_visits WHERE business_account_id = business AND practitioner_id = practitioner AND client_id = client;
  ELSE
    INSERT INTO practitioner_first_visits VALUES (business, practitioner, client, first.id, first.starts_at, first.appointment_type_id, first.business_location_id)
    ON CONFLICT (business_account_id, practitioner_id, client_id) DO UPDATE
      SET appointment_id = EXCLUDED.appointment_id, starts_at = EXCLUDED.starts_at,
          appointment_type_id = EXCLUDED.appointment_type_id, business_location_id = EXCLUDED.business_location_id;
  END IF;
END
$$;

CREATE FUNCTION practitioner_first_visit_appointment_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND (OLD.practitioner_id, OLD.client_id, OLD.starts_at, OLD.cancelled_at, OLD.appointment_type_id, OLD.business_location_id)
      IS NOT DISTINCT FROM (NEW.practitioner_id, NEW.client_id, NEW.starts_at, NEW.cancelled_at, NEW.appointment_type_id, NEW.business_location_id) THEN
    RETURN NULL;
  END IF;
  -- The visit a pair's row names changed or went: read the pair's first visit again.
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.practitioner_id IS NOT NULL AND OLD.client_id IS NOT NULL AND EXISTS (
      SELECT 1 FROM practitioner_first_visits f
      WHERE f.business_account_id = OLD.business_account_id AND f.practitioner_id = OLD.practitioner_id AND f.client_id = OLD.client_id
        AND f.appointment_id = OLD.id) THEN
    PERFORM practitioner_first_visit_refresh(OLD.business_account_id, OLD.practitioner_id, OLD.client_id);
  END IF;
  -- A visit earlier than the pair's first is the first now (read from the table: at commit, the row as it is then).
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.practitioner_id IS NOT NULL AND NEW.client_id IS NOT NULL THEN
    INSERT INTO practitioner_first_visits
    SELECT a.business_account_id, a.practitioner_id, a.client_id, a.id, a.starts_at, a.appointment_type_id, a.business_location_id
    FROM appointments a
    WHERE a.id = NEW.id AND a.cancelled_at IS NULL AND a.practitioner_id IS NOT NULL AND a.client_id IS NOT NULL
    ON CONFLICT (business_account_id, practitioner_id, client_id) DO UPDATE
      SET appointment_id = EXCLUDED.appointment_id, starts_at = EXCLUDED.starts_at,
          appointment_type_id = EXCLUDED.appointment_type_id, business_location_id = EXCLUDED.business_location_id
      WHERE (EXCLUDED.starts_at, EXCLUDED.appointment_id) < (practitioner_first_visits.starts_at, practitioner_first_visits.appointment_id)
        -- The row's own visit moved later: the refresh above chose; this is the same visit again.
        OR EXCLUDED.appointment_id = practitioner_first_visits.appointment_id;
  END IF;
  RETURN NULL;
END
$$;
CREATE CONSTRAINT TRIGGER appointments_first_visit AFTER INSERT OR UPDATE OR DELETE ON appointments
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION practitioner_first_visit_appointment_changed();

INSERT INTO practitioner_first_visits
SELECT DISTINCT ON (a.business_account_id, a.practitioner_id, a.client_id)
       a.business_account_id, a.practitioner_id, a.client_id, a.id, a.starts_at, a.appointment_type_id, a.business_location_id
FROM appointments a
WHERE a.practitioner_id IS NOT NULL AND a.client_id IS NOT NULL AND a.cancelled_at IS NULL
ORDER BY a.business_account_id, a.practitioner_id, a.client_id, a.starts_at, a.id;
