-- A counter per business that moves whenever anything an appointments list shows changes: its appointments,
-- clients, practitioners or appointment types. The API keeps rendered lists keyed by it (a schedule is read far
-- more often than it changes), and every process sees the same counter, so none serves a list older than the data.
-- Statement-level triggers: an import page of hundreds of rows moves the counter once.
ALTER TABLE business_accounts ADD COLUMN schedule_version bigint NOT NULL DEFAULT 0;

CREATE FUNCTION bump_schedule_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE business_accounts SET schedule_version = schedule_version + 1
  WHERE id IN (SELECT DISTINCT business_account_id FROM changed_rows);
  RETURN NULL;
END
$$;

DO $$
DECLARE
  watched text;
BEGIN
  FOREACH watched IN ARRAY ARRAY['appointments', 'clients', 'practitioners', 'appointment_types'] LOOP
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS changed_rows
      FOR EACH STATEMENT EXECUTE FUNCTION bump_schedule_version()', watched || '_schedule_insert', watched);
    EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING NEW TABLE AS changed_rows
      FOR EACH STATEMENT EXECUTE FUNCTION bump_schedule_version()', watched || '_schedule_update', watched);
    EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS changed_rows
      FOR EACH STATEMENT EXECUTE FUNCTION bump_schedule_version()', watched || '_schedule_delete', watched);
  END LOOP;
END
$$;
