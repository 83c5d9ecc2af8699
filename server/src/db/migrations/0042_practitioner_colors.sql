-- Each practitioner's colour on the schedule's lanes and the map: an admin's choice (practitioners.color), or when
-- none is set a colour derived from the practitioner's rank in the business, so colours do not repeat. Everything
-- that shows a practitioner reads practitioner_color(id), the one place the rule lives.
ALTER TABLE practitioners ADD COLUMN color text CHECK (color ~ '^#[0-9a-f]{6}$');

-- Evenly spaced hues by rank (0-based) among `total`; neighbours in rank also alternate lightness. Mid saturation and
-- lightness keep every colour readable as a dot, a line or a marker on the light and the dark theme.
CREATE FUNCTION practitioner_auto_color(rank integer, total integer) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  hue numeric := mod(rank * 360.0 / greatest(total, 1), 360);
  saturation numeric := 0.68;
  lightness numeric := CASE WHEN mod(rank, 2) = 0 THEN 0.46 ELSE 0.56 END;
  chroma numeric := (1 - abs(2 * lightness - 1)) * saturation;
  sector numeric := hue / 60;
  second numeric := chroma * (1 - abs(mod(sector, 2) - 1));
  base numeric := lightness - chroma / 2;
  r numeric; g numeric; b numeric;
BEGIN
  CASE floor(sector)::int
    WHEN 0 THEN r := chroma; g := second; b := 0;
    WHEN 1 THEN r := second; g := chroma; b := 0;
    WHEN 2 THEN r := 0; g := chroma; b := second;
    WHEN 3 THEN r := 0; g := second; b := chroma;
    WHEN 4 THEN r := second; g := 0; b := chroma;
    ELSE r := chroma; g := 0; b := second;
  END CASE;
  RETURN '#' || lpad(to_hex(round((r + base) * 255)::int), 2, '0')
             || lpad(to_hex(round((g + base) * 255)::int), 2, '0')
             || lpad(to_hex(round((b + base) * 255)::int), 2, '0');
END
$$;

-- The colour a practitioner is shown in: the admin's, else the derived one (rank by id among the business's practitioners).
CREATE FUNCTION practitioner_color(practitioner_id integer) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT coalesce(p.color, practitioner_auto_color(
    (SELECT count(*) FROM practitioners q WHERE q.business_account_id = p.business_account_id AND q.id < p.id)::int,
    (SELECT count(*) FROM practitioners q WHERE q.business_account_id = p.business_account_id)::int))
  FROM practitioners p WHERE p.id = practitioner_id
$$;
