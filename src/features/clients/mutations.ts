// The clients feature's writes, one mutation hook each: a mutation owns its cache updates and its messages,
// and the editor that drives it (the availability editor's machine, the tags form) is provided with it.
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useServices } from '../../app/ServicesContext';
import { saveClientAvailability } from '../../api/availability';
import type { ApiClient } from '../../api/client';
import { messageOfError } from '../../api/errors';
import { AVAILABILITY_ERROR_MESSAGE, AVAILABILITY_UPDATED_MESSAGE } from '../../machines/availabilityEditor';
import { appointmentQueries } from '../../entities/appointments/queries';
import {
  GENERIC_ERROR, PRACTITIONERS_UPDATED, REMINDERS_OFF, REMINDERS_ON, TAGS_UPDATED, saveClientPractitioners, saveClientReminders, saveClientTags,
  type AvailabilityEntry, type Client,
} from '../../entities/clients/api';
import { clientQueries } from '../../entities/clients/queries';

/** The client's details show the change at once; the lists (which show tags and availability) refresh. */
function clientChanged(queryClient: QueryClient, api: ApiClient, id: number, changes: Partial<Client>): void {
  queryClient.setQueryData(clientQueries.detail(api, id).queryKey, (current) => (current ? { ...current, ...changes } : current));
  void queryClient.invalidateQueries({ queryKey: clientQueries.lists() });
  void queryClient.invalidateQueries({ queryKey: appointmentQueries.lists() });
}

export function useUpdateClientAvailability(clientId: number) {
  const { api, flash } = useServices();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (availability: AvailabilityEntry[]) => saveClientAvailability(api, clientId, availability),
    onSuccess: (_, availability) => {
      flash.send({ type: 'APPEND', text: AVAILABILITY_UPDATED_MESSAGE });
      clientChanged(queryClient, api, clientId, { availability });
    },
    onError: (error) => flash.send({ type: 'APPEND', text: messageOfError(error, AVAILABILITY_ERROR_MESSAGE), flashType: 'danger' }),
  });
}

export function useUpdateClientTags(clientId: number) {
  const { api, flash } = useServices();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (tagIds: number[]) => saveClientTags(api, clientId, tagIds),
    onSuccess: (tags) => {
      flash.send({ type: 'APPEND', text: TAGS_UPDATED });
      clientChanged(queryClient, api, clientId, { tags });
    },
    onError: (error) => flash.send({ type: 'APPEND', text: messageOfError(error, GENERIC_ERROR), flashType: 'danger' }),
  });
}

/** The client modal's "Send appointment reminders" switch. */
export function useUpdateClientReminders(clientId: number) {
  const { api, flash } = useServices();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (enabled: boolean) => saveClientReminders(api, clientId, enabled),
    onSuccess: (client) => {
      flash.send({ type: 'APPEND', text: client.reminders_enabled ? REMINDERS_ON : REMINDERS_OFF });
      queryClient.setQueryData(clientQueries.detail(api, clientId).queryKey, client);
    },
    onError: (error) => flash.send({ type: 'APPEND', text: messageOfError(error, GENERIC_ERROR), flashType: 'danger' }),
  });
}

/** The client modal's preferred and excluded practitioners. */
export function useUpdateClientPractitioners(clientId: number) {
  const { api, flash } = useServices();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (choice: { preferred_practitioner_ids: number[]; excluded_practitioner_ids: number[] }) => saveClientPractitioners(api, clientId, choice),
    onSuccess: (client) => {
      flash.send({ type: 'APPEND', text: PRACTITIONERS_UPDATED });
      queryClient.setQueryData(clientQueries.detail(api, clientId).queryKey, client);
    },
    onError: (error) => flash.send({ type: 'APPEND', text: messageOfError(error, GENERIC_ERROR), flashType: 'danger' }),
  });
}
