export { reportsHandlers } from './handlers';
// For the dashboard: the count of clients missing an address, by the report's one rule.
export { clientsMissingAddress } from './clients-missing-address';
