-- An email is unique within a business, case aside, not across Rounds: one person may work for two care providers
-- with one address, and inviting them tells nothing of the other business (docs/decisions/0019-email-per-business.md).
-- The login and password reset still look a user up by email alone, hence the plain index.
DROP INDEX users_email_key;
CREATE UNIQUE INDEX users_business_email_key ON users (business_account_id, lower(email));
CREATE INDEX users_email_idx ON users (lower(email));
