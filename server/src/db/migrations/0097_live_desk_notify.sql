-- The live desk (ADR 0022): every committed change to a business's appointments tells the API processes listening on
-- channel rounds_live, whichever process or worker wrote it. NOTIFY is sent at commit (never for a rolled-back
-- change), and PostgreSQL drops identical notifications of one transaction, so an import of thousands of visits sends
-- one per practitioner. A change of a visit's state (its steps) names the visit; other changes name the practitioner.
CREATE FUNCTION notify_live_desk() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('rounds_live', json_build_object('b', OLD.business_account_id, 'p', OLD.practitioner_id, 'k', 'appointments')::text);
    RETURN NULL;
  END IF;
  IF TG_OP = 'UPDATE' AND NEW.visit_state IS DISTINCT FROM OLD.visit_state THEN
    PERFORM pg_notify('rounds_live', json_build_object('b', NEW.business_account_id, 'p', NEW.practitioner_id, 'a', NEW.id, 'k', 'step')::text);
  ELSE
    PERFORM pg_notify('rounds_live', json_build_object('b', NEW.business_account_id, 'p', NEW.practitioner_id, 'k', 'appointments')::text);
  END IF;
  -- A visit moved to another practitioner leaves the first one's day too.
  IF TG_OP = 'UPDATE' AND NEW.practitioner_id IS DISTINCT FROM OLD.practitioner_id THEN
    PERFORM pg_notify('rounds_live', json_build_object('b', OLD.business_account_id, 'p', OLD.practitioner_id, 'k', 'appointments')::text);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER appointments_live_desk AFTER INSERT OR UPDATE OR DELETE ON appointments
  FOR EACH ROW EXECUTE FUNCTION notify_live_desk();
