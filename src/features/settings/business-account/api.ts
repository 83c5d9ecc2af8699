// Account settings' calls: the business's name, time zone, contact, map centre, week start and reminders (ADMIN).
import type { ApiClient } from '../../../api/client';
import { unwrap } from '../../../api/errors';
import type { components, operations } from '../../../api/schema';

export type BusinessAccount = components['schemas']['BusinessAccount'];
export type BusinessAccountChanges = NonNullable<operations['updateBusinessAccount']['requestBody']>['content']['application/json'];

export const BUSINESS_ACCOUNT_SAVE_ERROR = 'An error has occurred. Could not save the account settings.';

export async function fetchBusinessAccount(api: ApiClient): Promise<BusinessAccount> {
  const result = await api.GET('/business_account');
  return unwrap(result, 'An error has occurred. Could not load the account settings.').business_account;
}

export async function saveBusinessAccount(api: ApiClient, changes: BusinessAccountChanges): Promise<BusinessAccount> {
  const result = await api.PATCH('/business_account', { body: changes });
  return unwrap(result, BUSINESS_ACCOUNT_SAVE_ERROR).business_account;
}
