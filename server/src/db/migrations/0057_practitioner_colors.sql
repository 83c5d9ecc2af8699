-- The dashboard (and every list of all a business's practitioners) read practitioner_color(id) per row, and each
-- call counts the practitioners before it and in all: 1,600 practitioners cost 0.2 s. practitioner_colors(business)
-- is the same rule as practitioner_color (migration 0042) for every practitioner of a business at once: the rank and
-- the total counted once, by window functions.
CREATE FUNCTION practitioner_colors(business integer) RETURNS TABLE (id integer, color text) LANGUAGE sql STABLE AS $$
  SELECT p.id, coalesce(p.color, practitioner_auto_color((row_number() OVER (ORDER BY p.id) - 1)::int, (count(*) OVER ())::int))
  FROM practitioners p WHERE p.business_account_id = business
$$;
