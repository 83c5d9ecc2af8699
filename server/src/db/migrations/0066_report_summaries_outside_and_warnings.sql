-- The appointments report and the dashboard read the travel summary (ADR 0017, migration 0064) instead of the
-- appointments: a visit outside its client's availability is a summary visit that is not `punctual` (the one rule,
-- availabilityWindows/startsOutside), and its travel warning is the shortfall the day schedule shows
-- (travelOfOrderedVisits: the leg from the visit before, by arrival, longer than the time between them), stored here
-- per visit and counted per day. The same triggers keep both right: an appointment's arrival, start, end, client or
-- practitioner, a route, the client's availability or time zone, an import's writes all move the day's version.
ALTER TABLE travel_summary_visits ADD COLUMN needs_more_seconds integer NOT NULL DEFAULT 0;
ALTER TABLE travel_summary_days ADD COLUMN short_legs integer;

-- Every stored day is computed again (its warnings are not stored yet).
UPDATE travel_summary_days SET version = version + 1;

-- The appointments report's cancelled visits (not in the summary), read by day without the rest of the month.
CREATE INDEX appointments_cancelled_idx ON appointments (business_account_id, starts_at) WHERE cancelled_at IS NOT NULL;
