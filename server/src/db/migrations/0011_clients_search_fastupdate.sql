-- Searches read the clients' trigram index far more often than imports write it. With GIN's fast update on,
-- fresh rows wait in a pending list that every search scans in full (and that makes the planner prefer a
-- sequential scan) until a vacuum merges it; write them into the index straight away instead.
ALTER INDEX clients_search_trgm_idx SET (fastupdate = off);
