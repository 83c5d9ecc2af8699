// Saving the account settings: the saved settings replace the cached ones and a toast says so. The signed-in user's
// business (time zone, map centre, week start) is read again, and a new time zone refreshes every cached day: "today",
// the dashboard and the schedules are the business's days.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useServices } from '../../../app/ServicesContext';
import { saveBusinessAccount, type BusinessAccountChanges } from './api';
import { businessAccountQueries } from './queries';

export const BUSINESS_ACCOUNT_SAVED = 'The account settings have been saved.';

export function useSaveBusinessAccount() {
  const { api, auth, flash } = useServices();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: BusinessAccountChanges) => saveBusinessAccount(api, changes),
    onSuccess: (saved, changes) => {
      const key = businessAccountQueries.current(api).queryKey;
      queryClient.setQueryData(key, saved);
      auth.send({ type: 'LOAD_USER' });
      if (changes.time_zone !== undefined) void queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== key[0] });
      flash.send({ type: 'APPEND', text: BUSINESS_ACCOUNT_SAVED });
    },
  });
}
