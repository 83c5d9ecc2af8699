-- The rules of home care (issue 24, ADR 0020): how far an arrival may move from the booked start, and the least gap
-- between the end of one of a client's visits and the start of their next. Per appointment type, a tolerance of its
-- own and a gap since the client's previous visit of the same type (null = the business's setting / none).
ALTER TABLE optimization_settings
  ADD COLUMN tolerance_minutes integer NOT NULL DEFAULT 30 CHECK (tolerance_minutes BETWEEN 0 AND 720),
  ADD COLUMN client_gap_minutes integer NOT NULL DEFAULT 60 CHECK (client_gap_minutes BETWEEN 0 AND 720);
ALTER TABLE appointment_types
  ADD COLUMN tolerance_minutes integer CHECK (tolerance_minutes BETWEEN 0 AND 720),
  ADD COLUMN same_type_gap_minutes integer CHECK (same_type_gap_minutes BETWEEN 0 AND 1440);
