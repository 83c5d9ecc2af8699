-- Each running job worker says it is alive every few seconds (GET /readyz asks whether any worker has lately); a
-- worker that stops cleanly removes its row, one that dies leaves a row that grows old.
CREATE TABLE worker_heartbeats (
  worker_id text PRIMARY KEY,
  beat_at timestamptz NOT NULL DEFAULT now()
);
