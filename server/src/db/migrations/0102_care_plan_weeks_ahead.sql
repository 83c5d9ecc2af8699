-- Care plans (issue 36): how many weeks ahead a care-plan allocation generates the care plans' visits as open visits.
ALTER TABLE business_accounts ADD COLUMN care_plan_weeks_ahead integer NOT NULL DEFAULT 4
  CHECK (care_plan_weeks_ahead BETWEEN 1 AND 12);
