-- Balanced workload (ADR 0020): a plain choice to balance the day between practitioners, and its weight (on the weights'
-- scale, 1 = a minute of travel) per hour² of each practitioner's working day. Off by default.
ALTER TABLE optimization_settings
  ADD COLUMN balance_workload boolean NOT NULL DEFAULT false,
  ADD COLUMN balance_weight double precision NOT NULL DEFAULT 10 CHECK (balance_weight BETWEEN 0 AND 1000);
