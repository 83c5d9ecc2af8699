-- Business and custom locations move the business's lists_version too (as its appointments, clients, practitioners,
-- types and tags do, 0030): a practitioner's start place may be one, and Client geography's answers (each client's
-- distance from the nearest start place) are kept in the list cache by lists_version (ADR 0018's addendum). Inserts
-- count as well: a new location is named by no practitioner yet, but a list showing locations may show it.
CREATE CONSTRAINT TRIGGER business_locations_lists_version AFTER INSERT OR UPDATE OR DELETE ON business_locations
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_lists_version();
CREATE CONSTRAINT TRIGGER custom_locations_lists_version AFTER INSERT OR UPDATE OR DELETE ON custom_locations
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_lists_version();
