-- A client's preferred and excluded practitioners (issue 24 rule 6): an excluded practitioner is never given the
-- client's visits (optimisation, moves and insertions by hand, the nearby search); a preferred one is favoured, like
-- the client's usual practitioner. One row per client and practitioner, so a practitioner cannot be both.
CREATE TABLE client_practitioner_preferences (
  business_account_id integer NOT NULL REFERENCES business_accounts (id),
  client_id integer NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
  practitioner_id integer NOT NULL REFERENCES practitioners (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('preferred', 'excluded')),
  PRIMARY KEY (client_id, practitioner_id)
);
CREATE INDEX client_practitioner_preferences_practitioner ON client_practitioner_preferences (practitioner_id);
