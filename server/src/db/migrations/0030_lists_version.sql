-- A counter per business that moves whenever anything the appointments or clients lists show changes: its
-- appointments, clients, practitioners, appointment types, tags or clients' tags. The API keeps rendered lists keyed
-- by it (lists are read far more often than they change), and every process sees the same counter, so none serves
-- a list older than the data.
--
-- The triggers are deferred to commit and move the counter once per business and transaction: an import page of
-- hundreds of rows moves it once, and the business row is locked only while committing, after the transaction's
-- other row locks, so two writers never wait for each other in opposite orders.
ALTER TABLE business_accounts ADD COLUMN lists_version bigint NOT NULL DEFAULT 0;

CREATE FUNCTION bump_lists_version() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed record := CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
  business integer;
  marker text;
BEGIN
  IF TG_TABLE_NAME = 'client_tags' THEN
    SELECT business_account_id INTO business FROM clients WHERE id = changed.client_id;
  ELSE
    business := changed.business_account_id;
  END IF;
  IF business IS NULL THEN
    RETURN NULL; -- a tag of a client deleted in the same transaction: the client's own trigger moved the counter
  END IF;
  marker := 'rounds.lists_moved_' || business;
  IF current_setting(marker, true) IS DISTINCT FROM 'yes' THEN
    PERFORM set_config(marker, 'yes', true);
    UPDATE business_accounts SET lists_version = lists_version + 1 WHERE id = business;
  END IF;
  RETURN NULL;
END
$$;

DO $$
DECLARE
  watched text;
BEGIN
  FOREACH watched IN ARRAY ARRAY['appointments', 'clients', 'practitioners', 'appointment_types', 'tags', 'client_tags'] LOOP
    EXECUTE format('CREATE CONSTRAINT TRIGGER %I AFTER INSERT OR UPDATE OR DELETE ON %I
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_lists_version()', watched || '_lists_version', watched);
  END LOOP;
END
$$;
