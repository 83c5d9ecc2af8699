// What the shell uses of the sync feature.
export { HeaderSyncLinks } from './HeaderSyncLinks';
export { ConnectionErrorBanner } from './provider-account/ConnectionErrorBanner';
