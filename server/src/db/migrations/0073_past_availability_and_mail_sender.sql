-- A visit is judged by the availability its client had on the visit's day, not by today's: changing a client's
-- availability keeps the one it replaces for the days before the change (ADR 0017, addendum "Availability in force").
-- A row says: before `valid_until` (the start of the business day the availability changed on), the client's
-- availability was `availability`. The row with the earliest `valid_until` after a visit's start is the one in force
-- for it; a visit after every row's `valid_until` is judged by the client's current availability.
CREATE TABLE client_past_availabilities (
  business_account_id integer NOT NULL REFERENCES business_accounts (id),
  client_id integer NOT NULL REFERENCES clients (id),
  valid_until timestamptz NOT NULL,
  availability jsonb NOT NULL,
  PRIMARY KEY (client_id, valid_until)
);

-- An email sent for a business (the availability request) goes from the business's name at MAIL_FROM's address and
-- answers to the business's contact email: the outbox keeps the sender and reply-to each email went with.
ALTER TABLE outbox_emails ADD COLUMN from_address text, ADD COLUMN reply_to text;
