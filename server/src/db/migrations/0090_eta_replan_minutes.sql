-- Re-planning the rest of the day (issue 26): when a coordinator applies a re-plan and asks for the clients to be told,
-- a client whose arrival moves by at least this many minutes gets an ETA message with the new time (kind 'replan' in
-- eta_messages, once per visit and new arrival; the rule is server/src/lib/arrival-changes.ts).
ALTER TABLE business_accounts ADD COLUMN eta_replan_minutes integer NOT NULL DEFAULT 15
  CHECK (eta_replan_minutes BETWEEN 5 AND 240);
