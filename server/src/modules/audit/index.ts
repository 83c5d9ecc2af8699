// The change log (versions): every module records its items' changes here and reads them back in words.
export {
  changesBetween, describeVersions, recordVersion, recordVersions, versionsOf,
  type ObjectChanges, type VersionChange, type VersionEvent, type VersionedItem, type VersionInput,
} from './versions';
