-- Clients list and search, appointments range queries, and the clients' availability-request links.

-- One lower-cased text per client for the list's search box (name, email, suburb, phone numbers as written and
-- as bare digits), indexed with trigrams so that a substring search is an index lookup, not a scan.
ALTER TABLE clients ADD COLUMN search_text text GENERATED ALWAYS AS (
  lower(
    first_name || ' ' || last_name || ' ' || coalesce(email, '') || ' ' || coalesce(city, '') || ' '
    || phone_numbers::text || ' ' || regexp_replace(phone_numbers::text, '[^0-9,]', '', 'g')
  )
) STORED;
CREATE INDEX clients_search_trgm_idx ON clients USING gin (search_text gin_trgm_ops);

-- An address counts only when address_1 and city are both filled.
ALTER TABLE clients ADD COLUMN has_address boolean GENERATED ALWAYS AS (
  coalesce(btrim(address_1), '') <> '' AND coalesce(btrim(city), '') <> ''
) STORED;

-- Sort orders of the list, each with the id as the tie-breaker so that pages never overlap.
CREATE INDEX clients_business_name_idx ON clients (business_account_id, first_name, last_name, id);
CREATE INDEX clients_business_suburb_idx ON clients (business_account_id, city, id);
CREATE INDEX client_tags_client_idx ON client_tags (client_id, tag_id);

-- The appointments screen filters a date range by practitioner.
CREATE INDEX appointments_business_practitioner_range_idx ON appointments (business_account_id, practitioner_id, starts_at);

-- Emailed links that let a client set their own availability without logging in. Only the token's SHA-256 is
-- stored; a link works until it expires or has been used once.
CREATE TABLE client_availability_requests (
  id serial PRIMARY KEY,
  business_account_id integer NOT NULL REFERENCES business_accounts(id) ON DELETE CASCADE,
  client_id integer NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
  token_hash text NOT NULL UNIQUE,
  email text NOT NULL,
  requested_by_user_id integer REFERENCES users(id) ON DELETE SET NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX client_availability_requests_client_idx ON client_availability_requests (client_id, created_at);
