-- Nearby search (decision record 0016): clients within a radius of a point. Without PostGIS (PGlite has none) the
-- search prefilters on a bounding box of the radius, a range on lat and on lng that this index answers within the
-- business, then measures the great-circle distance of the few rows left.
CREATE INDEX clients_business_position_idx ON clients (business_account_id, lat, lng) WHERE lat IS NOT NULL AND lng IS NOT NULL;
