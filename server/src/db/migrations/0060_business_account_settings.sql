-- Account settings an administrator keeps for the business (issue 14): contact details, the map's default centre
-- (NULL = Brisbane, as the spec says), the first day of the week (0 = Sunday … 6 = Saturday) and the daily
-- appointment reminder (the spec's default hour 2, in the business's time zone).
ALTER TABLE business_accounts
  ADD COLUMN contact_email text NOT NULL DEFAULT '',
  ADD COLUMN contact_phone text NOT NULL DEFAULT '',
  ADD COLUMN map_center_lat double precision CHECK (map_center_lat BETWEEN -90 AND 90),
  ADD COLUMN map_center_lng double precision CHECK (map_center_lng BETWEEN -180 AND 180),
  ADD COLUMN week_start smallint NOT NULL DEFAULT 1 CHECK (week_start BETWEEN 0 AND 6),
  ADD COLUMN reminder_hour smallint NOT NULL DEFAULT 2 CHECK (reminder_hour BETWEEN 0 AND 23),
  ADD COLUMN reminders_enabled boolean NOT NULL DEFAULT true;
