export { leaveHandlers } from './handlers';
// For the practitioners' day, the day's visits and the dashboard: the leave overlapping a time; for the import:
// making the imported leave of a range what Cliniko says.
export { leaveOverlapping, replaceImportedLeave, visitsInLeave, type ImportedBlock, type LeaveRow } from './repository';
