-- Weeks that fit real rosters (issue 35): calling a practitioner in on a day they had nothing booked has a price. A
-- reassigning run offers such a day only when it reaches call_in_min_visits visits or call_in_min_minutes of working
-- time (either is enough); below both, the practitioner stays at home and their share goes back to the others.
ALTER TABLE optimization_settings
  ADD COLUMN call_in_min_visits integer NOT NULL DEFAULT 3 CHECK (call_in_min_visits BETWEEN 1 AND 50),
  ADD COLUMN call_in_min_minutes integer NOT NULL DEFAULT 180 CHECK (call_in_min_minutes BETWEEN 0 AND 720);
