// What other features and the shell use of the clients feature.
export { AvailabilityEditor } from './AvailabilityEditor';
export { ClientDetailsModal } from './ClientDetailsModal';
export { ensureOk, tagColor, type Tag } from './api';
export { clientQueries, tagQueries } from './queries';
export { useAllTags } from './TagsEditor';
export { useDebouncedValue } from './useDebouncedValue';
