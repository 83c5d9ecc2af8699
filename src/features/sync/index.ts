// What the shell uses of the sync feature.
export { HeaderSyncLinks } from './HeaderSyncLinks';
// A page showing some days has Import and Export open on them.
export { useViewedDaysForSync } from './syncModalStore';
export { ConnectionErrorBanner } from './provider-account/ConnectionErrorBanner';
// The dashboard's last import and export tiles read a job's status in the same words.
export { jobStatusLabel } from './jobStatus';
