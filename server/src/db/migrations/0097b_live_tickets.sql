-- Single-use tickets that open the live desk's event stream (ADR 0022): an EventSource cannot send the session's
-- Authorization header, and a session token must never travel in an address. Only the ticket's SHA-256 is kept, with
-- what its holder may see; it is deleted when used, and expired ones whenever a new one is made.
CREATE TABLE live_tickets (
  token_hash text PRIMARY KEY,
  business_account_id integer NOT NULL REFERENCES business_accounts(id) ON DELETE CASCADE,
  user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  -- null: every practitioner of the business (staff); else only these (a PRACTITIONER's own).
  practitioner_ids integer[],
  expires_at timestamptz NOT NULL
);
CREATE INDEX live_tickets_expires_at ON live_tickets (expires_at);
