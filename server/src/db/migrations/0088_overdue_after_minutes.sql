-- The coordinator's live desk (issue 26): a visit whose planned start is more than this many minutes ago and that has
-- no check-in (visit_state not_started) is overdue, on the day schedule and the dashboard (server/src/lib/overdue.ts).
ALTER TABLE business_accounts ADD COLUMN overdue_after_minutes integer NOT NULL DEFAULT 15
  CHECK (overdue_after_minutes BETWEEN 1 AND 240);
