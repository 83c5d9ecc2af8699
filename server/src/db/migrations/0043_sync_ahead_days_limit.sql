-- Days ahead of an automatic sync cover today..today+ahead_days, and a sync range is at most 62 days: settings saved
-- before the contract said so (up to 90) are brought to the limit, which the database now keeps.
UPDATE sync_settings SET ahead_days = 61 WHERE ahead_days > 61;
ALTER TABLE sync_settings ADD CONSTRAINT sync_settings_ahead_days_range CHECK (ahead_days BETWEEN 0 AND 61);
