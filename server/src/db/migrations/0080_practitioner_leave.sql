-- Leave and time off (issue 24 rule 5): a practitioner is away from starts_at to ends_at (instants; a whole day is
-- the business's midnight to the next). Entered by an admin ('manual'), or imported from Cliniko's unavailable
-- blocks ('cliniko', with the block's id, upserted by it and removed when Cliniko no longer has it).
CREATE TABLE practitioner_leave (
  id serial PRIMARY KEY,
  business_account_id integer NOT NULL REFERENCES business_accounts(id) ON DELETE CASCADE,
  practitioner_id integer NOT NULL REFERENCES practitioners(id) ON DELETE CASCADE,
  starts_at timestamptz NOT NULL,
  ends_at timestamptz NOT NULL,
  reason text,
  source text NOT NULL DEFAULT 'manual' CHECK (source IN ('manual', 'cliniko')),
  cliniko_block_id text,
  created_by_name text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (ends_at > starts_at),
  CHECK ((source = 'cliniko') = (cliniko_block_id IS NOT NULL))
);
CREATE INDEX practitioner_leave_practitioner_idx ON practitioner_leave (business_account_id, practitioner_id, starts_at);
CREATE INDEX practitioner_leave_range_idx ON practitioner_leave (business_account_id, starts_at, ends_at);
CREATE UNIQUE INDEX practitioner_leave_block_key ON practitioner_leave (business_account_id, cliniko_block_id) WHERE cliniko_block_id IS NOT NULL;
