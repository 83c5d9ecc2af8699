// The reports' calls: each report is one GET answering its rows and summary for the filters.
import type { ApiClient } from '../../api/client';
import type { components, operations } from '../../api/schema';
import { unwrap } from '../../api/errors';

type Schemas = components['schemas'];
export type ReportQuery = NonNullable<operations['reportClientsMissingAddress']['parameters']['query']>;
export type ClientMissingAddressRow = Schemas['ClientMissingAddressRow'];
export type AddressProblem = ClientMissingAddressRow['problems'][number];

export const REPORT_LOAD_ERROR = 'An error has occurred. Could not load the report.';

export async function fetchClientsMissingAddress(api: ApiClient, query: ReportQuery) {
  return unwrap(await api.GET('/reports/clients-missing-address', { params: { query } }), REPORT_LOAD_ERROR);
}
