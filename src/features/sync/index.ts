// What the shell uses of the sync feature.
export { HeaderSyncLinks } from './HeaderSyncLinks';
export { ConnectionErrorBanner } from './provider-account/ConnectionErrorBanner';
// The dashboard's last import and export tiles read a job's status in the same words.
export { jobStatusLabel } from './jobStatus';
