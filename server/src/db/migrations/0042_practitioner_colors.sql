-- Each practitioner's colour on the schedule's lanes and the map: an admin's choice (practitioners.color), or when
-- none is set a colour derived from the practitioner's rank in the business, so colours do not repeat or look alike. Everything
-- that shows a practitioner reads practitioner_color(id), the one place the rule lives.
ALTER TABLE practitioners ADD COLUMN color text CHECK (color ~ '^#[0-9a-f]{6}$');

-- The first 15 ranks take a palette of colours chosen to be told apart at a glance (after Trubetskoy's "20 distinct
-- colours", without those too pale for the light theme or too dark for the dark one; every pair differs by a CIE76
-- ΔE of at least 28). Beyond it, hues evenly spaced among the rest, offset so they fall between the palette's, with
-- neighbours in rank alternating lightness.
CREATE FUNCTION practitioner_auto_color(rank integer, total integer) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  palette text[] := ARRAY['#e6194b', '#3cb44b', '#4363d8', '#f58231', '#911eb4', '#42d4f4', '#f032e6', '#bfef45',
                          '#469990', '#9a6324', '#800000', '#808000', '#ffe119', '#a9a9a9', '#fabed4'];
  extra integer := rank - array_length(palette, 1);
  hue numeric;
  saturation numeric := 0.68;
  lightness numeric := CASE WHEN mod(rank, 2) = 0 THEN 0.46 ELSE 0.56 END;
  chroma numeric;
  sector numeric;
  second numeric;
  base numeric;
  r numeric; g numeric; b numeric;
BEGIN
  IF extra < 0 THEN RETURN palette[rank + 1]; END IF;
  hue := mod(12 + extra * 360.0 / greatest(total - array_length(palette, 1), 1), 360);
  chroma := (1 - abs(2 * lightness - 1)) * saturation;
  sector := hue / 60;
  second := chroma * (1 - abs(mod(sector, 2) - 1));
  base := lightness - chroma / 2;
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
