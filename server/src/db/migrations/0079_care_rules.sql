-- The rules of home care (issue 24, ADR 0020): how far an arrival may move from the booked start, and the least gap
-- between the end of one of a client's visits and the start of their next. Per appointment type, a tolerance of its
-- own and a gap since the client's previous visit of the same type (null = the business's setting / none).
ALTER TABLE optimization_settings
  ADD COLUMN tolerance_minutes integer NOT NULL DEFAULT 30 CHECK (tolerance_minutes BETWEEN 0 AND 720),
  ADD COLUMN client_gap_minutes integer NOT NULL DEFAULT 60 CHECK (client_gap_minutes BETWEEN 0 AND 720);
ALTER TABLE appointment_types
  ADD COLUMN tolerance_minutes integer CHECK (tolerance_minutes BETWEEN 0 AND 720),
  ADD COLUMN same_type_gap_minutes integer CHECK (same_type_gap_minutes BETWEEN 0 AND 1440);
-- Appointments carry their tolerance (the type's, else the business's): the lists kept by lists_version must follow a
-- change of the business's setting (appointment types already move it, 0030).
CREATE CONSTRAINT TRIGGER optimization_settings_lists_version AFTER INSERT OR UPDATE OR DELETE ON optimization_settings
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_lists_version();
