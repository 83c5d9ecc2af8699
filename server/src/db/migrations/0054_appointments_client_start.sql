-- A client's visits by start time: "a client's next visit" (reports, the dashboard) reads one client's visits in
-- order. With only (client_id), the planner walked the business's whole range index in start order looking for that
-- client (LIMIT 1), seconds on a month of 200,000 visits. The old index is a prefix of the new one.
CREATE INDEX appointments_client_start_idx ON appointments (client_id, starts_at);
DROP INDEX appointments_client_idx;
