-- A business's custom locations have names of their own (case aside): an admin choosing a practitioner's start or end
-- place picks it by name, and two "Staff car park"s cannot be told apart. Names already repeated keep the first one
-- (by id) as it is and number the others ("Staff car park (2)") before the rule applies.
WITH repeated AS (
  SELECT id, name, row_number() OVER (PARTITION BY business_account_id, lower(name) ORDER BY id) AS n
  FROM custom_locations
)
UPDATE custom_locations c SET name = repeated.name || ' (' || repeated.n || ')'
FROM repeated WHERE repeated.id = c.id AND repeated.n > 1;
CREATE UNIQUE INDEX custom_locations_business_name_idx ON custom_locations (business_account_id, lower(name));
