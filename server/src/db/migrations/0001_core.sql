-- Core schema: tenants, users and sessions, reference data, clients and appointments, audit.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE EXTENSION IF NOT EXISTS cube;
CREATE EXTENSION IF NOT EXISTS earthdistance;

CREATE TABLE business_accounts (
  id serial PRIMARY KEY,
  name text NOT NULL,
  time_zone text NOT NULL DEFAULT 'Australia/Brisbane',
  active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE users (
  id serial PRIMARY KEY,
  business_account_id integer NOT NULL REFERENCES business_accounts(id) ON DELETE CASCADE,
  email text NOT NULL,
  password_hash text NOT NULL,
  first_name text NOT NULL,
  last_name text NOT NULL DEFAULT '',
  role text NOT NULL CHECK (role IN ('ADMIN', 'REGULAR_USER', 'PRACTITIONER')),
  associated_practitioner_ids integer[] NOT NULL DEFAULT '{}',
  active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email_key ON users (lower(email));
CREATE INDEX users_business_idx ON users (business_account_id);

CREATE TABLE sessions (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  token_hash text NOT NULL UNIQUE,
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- One-time tokens for password reset and login-as links; only the hash is stored.
CREATE TABLE one_time_tokens (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  purpose text NOT NULL CHECK (purpose IN ('PASSWORD_RESET', 'LOGIN_AS')),
  token_hash text NOT NULL UNIQUE,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Failed-login counters, shared by every server process on the same database.
CREATE TABLE login_throttles (
  key text PRIMARY KEY,
  failures integer NOT NULL,
  window_started_at timestamptz NOT NULL
);

CREATE TABLE outbox_emails (
  id serial PRIMARY KEY,
  business_account_id integer REFERENCES business_accounts(id) ON DELETE CASCADE,
  to_address text NOT NULL,
  subject text NOT NULL,
  text_body text NOT NULL,
  html_body text,
  sent_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE provider_accounts (
  id serial PRIMARY KEY,
  business_account_id integer NOT NULL UNIQUE REFERENCES business_accounts(id) ON DELETE CASCADE,
  provider text NOT NULL DEFAULT 'cliniko',
  status text NOT NULL CHECK (status IN ('ACTIVE', 'INITIALIZING', 'DISCONNECTED', 'CONNECTION_ERROR')),
  api_key_encrypted text,
  api_key_last4 text,
  last_error text,
  connected_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE sync_settings (
  business_account_id integer PRIMARY KEY REFERENCES business_accounts(id) ON DELETE CASCADE,
  enable_auto_import boolean NOT NULL DEFAULT false,
  enable_auto_export boolean NOT NULL DEFAULT false,
  ahead_days integer NOT NULL DEFAULT 7,
  filters jsonb NOT NULL DEFAULT '{"practitioner_ids":[],"appointment_type_ids":[],"business_location_ids":[]}',
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE business_locations (
  id serial PRIMARY KEY,
  business_account_id integer NOT NULL REFERENCES business_accounts(id) ON DELETE CASCADE,
  name text NOT NULL,
  address_1 text,
  address_2 text,
  city text,
  state text,
  post_code text,
  country text,
  lat double precision,
  lng double precision,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX business_locations_business_idx ON business_locations (business_account_id);

CREATE TABLE practitioners (
  id serial PRIMARY KEY,
  business_account_id integer NOT NULL REFERENCES business_accounts(id) ON DELETE CASCADE,
  first_name text NOT NULL,
  last_name text NOT NULL DEFAULT '',
  profession text,
  active boolean NOT NULL DEFAULT true,
  time_zone text NOT NULL DEFAULT 'Australia/Brisbane',
  email text,
  home_address text,
  home_lat double precision,
  home_lng double precision,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX practitioners_business_idx ON practitioners (business_account_id);

CREATE TABLE appointment_types (
  id serial PRIMARY KEY,
  business_account_id integer NOT NULL REFERENCES business_accounts(id) ON DELETE CASCADE,
  name text NOT NULL,
  duration integer NOT NULL CHECK (duration > 0),
  color text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX appointment_types_business_idx ON appointment_types (business_account_id);

CREATE TABLE clients (
  id serial PRIMARY KEY,
  business_account_id integer NOT NULL REFERENCES business_accounts(id) ON DELETE CASCADE,
  first_name text NOT NULL,
  last_name text NOT NULL DEFAULT '',
  dob date,
  email text,
  phone_numbers jsonb NOT NULL DEFAULT '[]',
  address_1 text,
  address_2 text,
  city text,
  state text,
  post_code text,
  country text,
  time_zone text,
  lat double precision,
  lng double precision,
  availability jsonb NOT NULL DEFAULT '[]',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX clients_business_idx ON clients (business_account_id, last_name, first_name);

CREATE TABLE tags (
  id serial PRIMARY KEY,
  business_account_id integer NOT NULL REFERENCES business_accounts(id) ON DELETE CASCADE,
  name text NOT NULL,
  color text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX tags_business_name_key ON tags (business_account_id, lower(name));

CREATE TABLE client_tags (
  client_id integer NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
  tag_id integer NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
  PRIMARY KEY (client_id, tag_id)
);
CREATE INDEX client_tags_tag_idx ON client_tags (tag_id);

CREATE TABLE appointments (
  id serial PRIMARY KEY,
  business_account_id integer NOT NULL REFERENCES business_accounts(id) ON DELETE CASCADE,
  client_id integer REFERENCES clients(id) ON DELETE SET NULL,
  practitioner_id integer NOT NULL REFERENCES practitioners(id) ON DELETE CASCADE,
  appointment_type_id integer REFERENCES appointment_types(id) ON DELETE SET NULL,
  business_location_id integer REFERENCES business_locations(id) ON DELETE SET NULL,
  starts_at timestamptz NOT NULL,
  ends_at timestamptz NOT NULL,
  arrive_at timestamptz,
  route_id integer,
  notes text,
  address_1 text,
  address_2 text,
  city text,
  state text,
  post_code text,
  country text,
  lat double precision,
  lng double precision,
  cancelled_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (ends_at > starts_at)
);
CREATE INDEX appointments_range_idx ON appointments (business_account_id, starts_at);
CREATE INDEX appointments_practitioner_idx ON appointments (practitioner_id, starts_at);
CREATE INDEX appointments_client_idx ON appointments (client_id);

-- Change log: object_changes maps a field to [old, new].
CREATE TABLE versions (
  id bigserial PRIMARY KEY,
  business_account_id integer NOT NULL REFERENCES business_accounts(id) ON DELETE CASCADE,
  item_type text NOT NULL,
  item_id integer NOT NULL,
  event text NOT NULL,
  whodunnit text,
  object_changes jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX versions_item_idx ON versions (item_type, item_id, created_at);

-- Which record in the practice-management system a local record mirrors.
CREATE TABLE resource_maps (
  id serial PRIMARY KEY,
  business_account_id integer NOT NULL REFERENCES business_accounts(id) ON DELETE CASCADE,
  resource_type text NOT NULL,
  resource_id integer NOT NULL,
  external_id text NOT NULL,
  external_object_synced_at timestamptz,
  external_updated_at timestamptz
);
CREATE UNIQUE INDEX resource_maps_local_key ON resource_maps (resource_type, resource_id);
CREATE UNIQUE INDEX resource_maps_external_key ON resource_maps (business_account_id, resource_type, external_id);
