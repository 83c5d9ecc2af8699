-- The appointment types the practice management system lists for each practitioner (Cliniko's
-- GET /practitioners/{id}/appointment_types), as local appointment type ids, written by every import.
-- null: never read. A practitioner's qualifications are this list narrowed by skill_appointment_type_ids when an
-- administrator set that (practitioners module, effectiveQualifications); with neither, they are unknown, and such a
-- practitioner is given no visit that is not already theirs.
ALTER TABLE practitioners ADD COLUMN pms_appointment_type_ids integer[];
