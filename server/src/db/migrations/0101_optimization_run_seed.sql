-- Each optimisation run's search seed (issue 35): the same days, settings, visits and seed give the same proposal, so
-- a coordinator (or a test) can reproduce what they saw, and "Try another plan" runs with a new one. Runs made before
-- keep none: their seed was their id.
ALTER TABLE optimization_runs ADD COLUMN seed integer;
