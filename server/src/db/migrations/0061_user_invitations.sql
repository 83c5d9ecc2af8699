-- Users administered in the app (issue 14). An invited user has no password (NULL) until they accept their
-- invitation, so no login can succeed before then; invitations are one-time tokens like password resets.
-- last_login_at is shown in Settings → Users.
ALTER TABLE users
  ALTER COLUMN password_hash DROP NOT NULL,
  ADD COLUMN last_login_at timestamptz;

ALTER TABLE one_time_tokens DROP CONSTRAINT one_time_tokens_purpose_check;
ALTER TABLE one_time_tokens ADD CONSTRAINT one_time_tokens_purpose_check
  CHECK (purpose IN ('PASSWORD_RESET', 'LOGIN_AS', 'INVITATION'));
