-- Only the future moves: today, visits starting within this many minutes from now (and those already started) keep
-- their time and practitioner, in an optimisation and by hand.
ALTER TABLE optimization_settings
  ADD COLUMN fixed_before_minutes integer NOT NULL DEFAULT 30 CHECK (fixed_before_minutes BETWEEN 0 AND 720);
