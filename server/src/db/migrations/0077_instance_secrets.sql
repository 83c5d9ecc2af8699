-- Secrets this installation made for itself: without APP_SECRET (outside production) the first process to start
-- generates one at random and every process of the installation reads the same one here.
CREATE TABLE instance_secrets (
  name text PRIMARY KEY,
  value text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
