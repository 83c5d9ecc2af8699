-- A counter per business that moves whenever anything an appointments list shows changes: its appointments,
-- clients, practitioners or appointment types. The API keeps rendered lists keyed by it (a schedule is read far
-- more often than it changes), and every process sees the same counter, so none serves a list older than the data.
--
-- The triggers are deferred to commit and move the counter once per business and transaction: an import page of
-- hundreds of rows moves it once, and the business row is locked only while committing, after the transaction's
-- other row locks, so two writers never wait for each other in opposite orders.
ALTER TABLE business_accounts ADD COLUMN schedule_version bigint NOT NULL DEFAULT 0;

CREATE FUNCTION bump_schedule_version() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  business integer := CASE WHEN TG_OP = 'DELETE' THEN OLD.business_account_id ELSE NEW.business_account_id END;
  marker text := 'rounds.schedule_moved_' || business;
BEGIN
  IF current_setting(marker, true) IS DISTINCT FROM 'yes' THEN
    PERFORM set_config(marker, 'yes', true);
    UPDATE business_accounts SET schedule_version = schedule_version + 1 WHERE id = business;
  END IF;
  RETURN NULL;
END
$$;

CREATE CONSTRAINT TRIGGER appointments_schedule_version AFTER INSERT OR UPDATE OR DELETE ON appointments
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_schedule_version();
CREATE CONSTRAINT TRIGGER clients_schedule_version AFTER INSERT OR UPDATE OR DELETE ON clients
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_schedule_version();
CREATE CONSTRAINT TRIGGER practitioners_schedule_version AFTER INSERT OR UPDATE OR DELETE ON practitioners
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_schedule_version();
CREATE CONSTRAINT TRIGGER appointment_types_schedule_version AFTER INSERT OR UPDATE OR DELETE ON appointment_types
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_schedule_version();
