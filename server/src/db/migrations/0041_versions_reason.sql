-- Why a change was made, when the change itself does not say it: e.g. an import that replaced a local arrival time
-- that was not exported yet because the practice management system moved the appointment. Null for ordinary edits.
ALTER TABLE versions ADD COLUMN reason text;
