// The lists and settings the sync forms read, through TanStack Query; a failed list load is toasted
// with the server's message or the list's fallback (LOAD_ERRORS).
import { useEffect } from 'react';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useAuthSelector, useServices } from '../../app/ServicesContext';
import { messageOfError } from '../../api/errors';
import { selectUser } from '../../machines/auth';
import { todayIn } from '../../lib/dates';
import { LOAD_ERRORS } from './api';
import type { Practitioner } from '../../entities/appointments/api';
import { appointmentTypeQueries, businessLocationQueries, practitionerQueries } from '../../entities/appointments/queries';
import { syncSettingsQueries } from './queries';
import type { Option } from '../../ui/MultiSelect';

export interface OptionList {
  options: Option[];
  loading: boolean;
  failed: boolean;
}

function useToastOnError(query: UseQueryResult<unknown>, fallback: string): void {
  const { flash } = useServices();
  useEffect(() => {
    if (query.isError) flash.send({ type: 'APPEND', text: messageOfError(query.error, fallback), flashType: 'danger' });
  }, [query.isError, query.error, flash, fallback]);
}

const toOptions = (items: readonly { id: number; name: string }[]): Option[] => items.map(({ id, name }) => ({ id, name }));

const asList = (query: UseQueryResult<Option[]>): OptionList => ({
  options: query.data ?? [],
  loading: query.isPending,
  failed: query.isError,
});

/** PRACTITIONER users are offered only their own practitioners; everyone else the active ones. */
export function offeredPractitioners(practitioners: readonly Practitioner[], role: string | null, associatedIds: readonly number[]): Option[] {
  const offered = role === 'PRACTITIONER' ? practitioners.filter((practitioner) => associatedIds.includes(practitioner.id)) : practitioners.filter((practitioner) => practitioner.active);
  return offered.map((practitioner) => ({ id: practitioner.id, name: practitioner.full_name }));
}

export function useReferenceLists(): { businessLocations: OptionList; practitioners: OptionList; appointmentTypes: OptionList } {
  const { api } = useServices();
  const user = useAuthSelector(selectUser);
  const role = user?.role ?? null;
  const associated = user?.associated_practitioner_ids ?? [];

  const businessLocations = useQuery({
    ...businessLocationQueries.all(api),
    select: toOptions,
    retry: false,
  });
  const practitioners = useQuery({ ...practitionerQueries.all(api), retry: false });
  const appointmentTypes = useQuery({
    ...appointmentTypeQueries.all(api),
    select: toOptions,
    retry: false,
  });
  useToastOnError(businessLocations, LOAD_ERRORS.businessLocations);
  useToastOnError(practitioners, LOAD_ERRORS.practitioners);
  useToastOnError(appointmentTypes, LOAD_ERRORS.appointmentTypes);

  return {
    businessLocations: asList(businessLocations),
    practitioners: {
      options: offeredPractitioners(practitioners.data ?? [], role, associated),
      loading: practitioners.isPending,
      failed: practitioners.isError,
    },
    appointmentTypes: asList(appointmentTypes),
  };
}

/** Read fresh every time a form opens (each opening prefills from the current settings); nothing is kept once it closes. */
export function useFreshSyncSettings() {
  const { api } = useServices();
  return useQuery({ ...syncSettingsQueries.current(api), retry: false, staleTime: 0, gcTime: 0 });
}

/** "Today" for the forms: in the business's time zone once the user is known. */
export function useBusinessToday() {
  const user = useAuthSelector(selectUser);
  return todayIn(user?.business_account.time_zone);
}
