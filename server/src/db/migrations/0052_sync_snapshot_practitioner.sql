-- What was last synced with the PMS now includes the practitioner (the local id of the PMS's practitioner), so that a
-- visit reassigned in Rounds (an optimisation, a move by hand) is exported with its new practitioner and an import
-- does not undo a reassignment that is not exported yet. Existing snapshots take the visit's current practitioner.
ALTER TABLE appointment_sync_snapshots ADD COLUMN practitioner_id integer REFERENCES practitioners(id);
UPDATE appointment_sync_snapshots s SET practitioner_id = a.practitioner_id FROM appointments a WHERE a.id = s.appointment_id;
ALTER TABLE appointment_sync_snapshots ALTER COLUMN practitioner_id SET NOT NULL;
