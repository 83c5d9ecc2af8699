-- Double-handed visits (ADR 0020, rule 4): an appointment type whose visits need two practitioners at once (hoisting,
-- two-carer personal care). A visit of such a type without a second booking of its client at the same time with
-- another practitioner is a problem of its day.
ALTER TABLE appointment_types ADD COLUMN needs_two_practitioners boolean NOT NULL DEFAULT false;
