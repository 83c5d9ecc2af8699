-- Geocoding (issue 12): every stored point says how precise it is and where it came from, a client's pin corrected by
-- hand wins over later imports, and online geocoders' answers are cached per business so re-imports do not ask again.
--
-- geo_precision: 'address' (the house), 'street', 'suburb' (a suburb's or postcode's centre), 'none' (no point).
-- geo_source: 'google' | 'nominatim' (online geocoders), 'gazetteer' (the bundled Australian suburb/postcode table),
-- 'sandbox' (the synthetic Brisbane street list of the PMS sandbox: not surveyed, only for the sandbox's own addresses),
-- 'pms' (coordinates the practice management system sent), 'manual' (a user placed the pin); NULL without a point.

ALTER TABLE clients
  ADD COLUMN geo_precision text NOT NULL DEFAULT 'none' CHECK (geo_precision IN ('address', 'street', 'suburb', 'none')),
  ADD COLUMN geo_source text CHECK (geo_source IN ('google', 'nominatim', 'gazetteer', 'sandbox', 'pms', 'manual')),
  -- A user corrected the pin: imports keep it while the client's address stays the same.
  ADD COLUMN geo_manual boolean NOT NULL DEFAULT false,
  ADD CONSTRAINT clients_geo_point CHECK (geo_precision = 'none' OR (lat IS NOT NULL AND lng IS NOT NULL)),
  ADD CONSTRAINT clients_geo_source CHECK ((geo_precision = 'none') = (geo_source IS NULL)),
  ADD CONSTRAINT clients_geo_manual CHECK (NOT geo_manual OR geo_source = 'manual');

ALTER TABLE business_locations
  ADD COLUMN geo_precision text NOT NULL DEFAULT 'none' CHECK (geo_precision IN ('address', 'street', 'suburb', 'none')),
  ADD COLUMN geo_source text CHECK (geo_source IN ('google', 'nominatim', 'gazetteer', 'sandbox', 'pms', 'manual')),
  ADD CONSTRAINT business_locations_geo_point CHECK (geo_precision = 'none' OR (lat IS NOT NULL AND lng IS NOT NULL)),
  ADD CONSTRAINT business_locations_geo_source CHECK ((geo_precision = 'none') = (geo_source IS NULL));

ALTER TABLE practitioners
  ADD COLUMN home_geo_precision text NOT NULL DEFAULT 'none' CHECK (home_geo_precision IN ('address', 'street', 'suburb', 'none')),
  ADD COLUMN home_geo_source text CHECK (home_geo_source IN ('google', 'nominatim', 'gazetteer', 'sandbox', 'pms', 'manual')),
  ADD CONSTRAINT practitioners_home_geo_point CHECK (home_geo_precision = 'none' OR (home_lat IS NOT NULL AND home_lng IS NOT NULL)),
  ADD CONSTRAINT practitioners_home_geo_source CHECK ((home_geo_precision = 'none') = (home_geo_source IS NULL));

-- A custom location always has a point; it is placed by a user on the map unless its writer says otherwise.
ALTER TABLE custom_locations
  ADD COLUMN geo_precision text NOT NULL DEFAULT 'address' CHECK (geo_precision IN ('address', 'street', 'suburb')),
  ADD COLUMN geo_source text NOT NULL DEFAULT 'manual' CHECK (geo_source IN ('google', 'nominatim', 'gazetteer', 'sandbox', 'pms', 'manual'));

-- Existing points all came from the synthetic Brisbane street list (geocodeBrisbaneAddress at import, the sandbox's
-- coordinates, or the generated demo): a suburb's centroid there is 'suburb', any other point a modelled 'street'.
-- Imports for a provider other than the sandbox geocode such points again with the real geocoders.
CREATE TEMPORARY TABLE synthetic_centroids (lat double precision, lng double precision) ON COMMIT DROP;
INSERT INTO synthetic_centroids VALUES
    (-27.4698, 153.0251), (-27.4617, 153.0234), (-27.457, 153.034), (-27.4672, 153.049), (-27.449, 153.044), (-27.456, 153.047),
    (-27.477, 153.036), (-27.481, 153.02), (-27.483, 153.009), (-27.489, 153.017), (-27.49, 153.036), (-27.484, 153.045),
    (-27.497, 153.058), (-27.508, 153.049), (-27.512, 153.033), (-27.509, 153.022), (-27.516, 153.016), (-27.534, 153.025),
    (-27.523, 153.068), (-27.493, 153.075), (-27.49, 153.092), (-27.452, 153.058), (-27.464, 153.059), (-27.462, 153.073),
    (-27.479, 153.063), (-27.47, 153.088), (-27.46, 153), (-27.455, 153.004), (-27.47, 153.003), (-27.485, 152.993),
    (-27.476, 152.992), (-27.498, 153), (-27.499, 152.974), (-27.491, 152.98), (-27.513, 152.976), (-27.448, 153.013),
    (-27.445, 153.02), (-27.436, 153.029), (-27.433, 153.019), (-27.423, 153.015), (-27.443, 152.987), (-27.446, 152.947),
    (-27.42, 152.996), (-27.425, 153), (-27.423, 153.034), (-27.422, 153.043), (-27.431, 153.044), (-27.418, 153.058),
    (-27.431, 153.06), (-27.438, 153.064), (-27.401, 153.06), (-27.394, 153.047), (-27.403, 153.029), (-27.386, 153.03),
    (-27.367, 153.019), (-27.41, 153.01), (-27.401, 152.99), (-27.417, 152.973), (-27.54, 153.08), (-27.553, 153.085),
    (-27.552, 153.033), (-27.578, 153.06), (-27.532, 152.981), (-27.538, 152.982), (-27.508, 152.939), (-27.444, 153.172),
    (-27.456, 153.186);

UPDATE clients c SET geo_source = 'sandbox', geo_precision = CASE
    WHEN EXISTS (SELECT 1 FROM synthetic_centroids s WHERE abs(s.lat - c.lat) < 1e-9 AND abs(s.lng - c.lng) < 1e-9) THEN 'suburb'
    ELSE 'street' END
  WHERE lat IS NOT NULL AND lng IS NOT NULL;
UPDATE business_locations b SET geo_source = 'sandbox', geo_precision = CASE
    WHEN EXISTS (SELECT 1 FROM synthetic_centroids s WHERE abs(s.lat - b.lat) < 1e-9 AND abs(s.lng - b.lng) < 1e-9) THEN 'suburb'
    ELSE 'street' END
  WHERE lat IS NOT NULL AND lng IS NOT NULL;
UPDATE practitioners p SET home_geo_source = 'sandbox', home_geo_precision = CASE
    WHEN EXISTS (SELECT 1 FROM synthetic_centroids s WHERE abs(s.lat - p.home_lat) < 1e-9 AND abs(s.lng - p.home_lng) < 1e-9) THEN 'suburb'
    ELSE 'street' END
  WHERE home_lat IS NOT NULL AND home_lng IS NOT NULL;

-- What an online geocoder answered for an address (normalised: see server/src/geo/address.ts), per business and
-- geocoder; precision 'none' = it found nothing. Failures (timeouts, errors) are not stored, so they are tried again.
CREATE TABLE geocode_cache (
  business_account_id integer NOT NULL REFERENCES business_accounts(id) ON DELETE CASCADE,
  source text NOT NULL CHECK (source IN ('google', 'nominatim')),
  address_key text NOT NULL CHECK (length(address_key) BETWEEN 1 AND 1000),
  lat double precision,
  lng double precision,
  precision text NOT NULL CHECK (precision IN ('address', 'street', 'suburb', 'none')),
  label text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (business_account_id, source, address_key),
  CHECK (precision = 'none' OR (lat IS NOT NULL AND lng IS NOT NULL))
);
