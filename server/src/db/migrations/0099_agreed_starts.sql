-- The client's agreed time (issue 35, ADR 0023), kept apart from the start Rounds plans and exports. It is set from
-- the practice management system's booking when a visit is first imported, and changed only on purpose: a move by
-- hand in Rounds, or an import whose start differs from what the PMS had after the last sync (an export's write-back
-- is recorded in appointment_sync_snapshots, so an import reading back what Rounds exported changes nothing). An
-- export of an optimised arrival leaves it as it was. The tolerance is measured from it.
ALTER TABLE appointments ADD COLUMN agreed_starts_at timestamptz;
-- The backfill changes no column the appointments' triggers (travel summaries, first visits, live desk) read.
ALTER TABLE appointments DISABLE TRIGGER USER;
UPDATE appointments SET agreed_starts_at = starts_at;
ALTER TABLE appointments ENABLE TRIGGER USER;
ALTER TABLE appointments ALTER COLUMN agreed_starts_at SET NOT NULL;

-- An insert that leaves it out (a booking, the demo's seed) agrees to its start.
CREATE FUNCTION appointments_agreed_start_default() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.agreed_starts_at IS NULL THEN NEW.agreed_starts_at := NEW.starts_at; END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER appointments_agreed_start_default BEFORE INSERT ON appointments
  FOR EACH ROW EXECUTE FUNCTION appointments_agreed_start_default();

-- The price of moving a visit from its agreed time, per minute, on the weights' scale (1 = a minute of travel): the
-- default 0.25 makes a 30-minute move cost 7.5 minutes of travel. Per appointment type, a price of its own (null = the
-- business's).
ALTER TABLE optimization_settings
  ADD COLUMN move_price double precision NOT NULL DEFAULT 0.25 CHECK (move_price BETWEEN 0 AND 100);
ALTER TABLE appointment_types
  ADD COLUMN move_price double precision CHECK (move_price BETWEEN 0 AND 100);
