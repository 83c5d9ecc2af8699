// The custom locations' writes, one mutation hook each (record 0007): each updates the list it changed and says so.
// Errors are the form's to show (a field's 422, the 409 naming who uses a place), so they are not toasted here.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useServices } from '../../../app/ServicesContext';
import {
  createCustomLocation, deleteCustomLocation, updateCustomLocation, type CustomLocation, type CustomLocationInput,
} from './api';
import { customLocationQueries } from './queries';

export const LOCATION_CREATED = 'The location has been created.';
export const LOCATION_SAVED = 'The location has been saved.';
export const LOCATION_DELETED = 'The location has been deleted.';

const byName = (a: CustomLocation, b: CustomLocation) => a.name.localeCompare(b.name);

function useListUpdate() {
  const { api } = useServices();
  const queryClient = useQueryClient();
  const key = customLocationQueries.all(api).queryKey;
  return (change: (list: CustomLocation[]) => CustomLocation[]) => {
    queryClient.setQueryData(key, (list) => (list ? change(list).sort(byName) : list));
    void queryClient.invalidateQueries({ queryKey: key });
  };
}

export function useCreateCustomLocation() {
  const { api, flash } = useServices();
  const update = useListUpdate();
  return useMutation({
    mutationFn: (input: CustomLocationInput) => createCustomLocation(api, input),
    onSuccess: (created) => {
      update((list) => [...list, created]);
      flash.send({ type: 'APPEND', text: LOCATION_CREATED });
    },
  });
}

export function useUpdateCustomLocation() {
  const { api, flash } = useServices();
  const update = useListUpdate();
  return useMutation({
    mutationFn: ({ id, changes }: { id: number; changes: Partial<CustomLocationInput> }) => updateCustomLocation(api, id, changes),
    onSuccess: (saved) => {
      update((list) => list.map((location) => (location.id === saved.id ? saved : location)));
      flash.send({ type: 'APPEND', text: LOCATION_SAVED });
    },
  });
}

export function useDeleteCustomLocation() {
  const { api, flash } = useServices();
  const update = useListUpdate();
  return useMutation({
    mutationFn: (location: CustomLocation) => deleteCustomLocation(api, location.id),
    onSuccess: (_, location) => {
      update((list) => list.filter((other) => other.id !== location.id));
      flash.send({ type: 'APPEND', text: LOCATION_DELETED });
    },
  });
}
