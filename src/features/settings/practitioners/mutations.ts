// The practitioners settings page's writes, one mutation hook each: each puts the saved practitioners into the
// settings list, refreshes the reference list (names, colours, time zones in the pickers) and says it worked. What went
// wrong is shown by the form that ran it, field by field (fieldProblemsOf).
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useServices } from '../../../app/ServicesContext';
import type { ApiClient } from '../../../api/client';
import { appointmentQueries, practitionerQueries } from '../../../entities/appointments/queries';
import { customLocationQueries } from '../custom-locations/queries';
import {
  createLeave, deleteLeave, setWorkingHours, updateLeave, updatePractitioner, type LeaveInput, type PractitionerChanges, type PractitionerSettings,
  type VisitsOutsideHours, type WorkingHours,
} from '../../../entities/practitioners/api';
import { leaveQueries, practitionerSettingsQueries } from '../../../entities/practitioners/queries';

export const practitionerSavedMessage = (name: string) => `${name}’s settings have been saved.`;
export const workingHoursSetMessage = (count: number) =>
  count === 1 ? 'The working hours have been set for 1 practitioner.' : `The working hours have been set for ${count} practitioners.`;

function practitionersSaved(queryClient: QueryClient, api: ApiClient, saved: readonly PractitionerSettings[]): void {
  const byId = new Map(saved.map((practitioner) => [practitioner.id, practitioner]));
  queryClient.setQueryData(practitionerSettingsQueries.all(api).queryKey, (current) =>
    current?.map((practitioner) => byId.get(practitioner.id) ?? practitioner),
  );
  void queryClient.invalidateQueries({ queryKey: practitionerQueries.all(api).queryKey });
}

export function useUpdatePractitioner() {
  const { api, flash } = useServices();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, changes }: { id: number; changes: PractitionerChanges }) => updatePractitioner(api, id, changes),
    onSuccess: (saved, { changes }) => {
      practitionersSaved(queryClient, api, [saved]);
      // The schedule's lanes and the map read the colour from the appointments' practitioners.
      if (changes.color !== undefined) void queryClient.invalidateQueries({ queryKey: appointmentQueries.lists() });
      // A custom location lists the practitioners who start or end there.
      if (changes.start_place !== undefined || changes.end_place !== undefined) {
        void queryClient.invalidateQueries({ queryKey: customLocationQueries.all(api).queryKey });
      }
      flash.send({ type: 'APPEND', text: practitionerSavedMessage(saved.full_name) });
    },
  });
}

/** "Pat Nurse has 2 routed visits outside the new hours; …": the routes to look at again. */
export function visitsOutsideHoursMessage(outside: VisitsOutsideHours): string {
  const each = outside.map(({ full_name, visits }) => `${full_name} has ${visits === 1 ? '1 routed visit' : `${visits} routed visits`}`);
  return `${each.join('; ')} outside the new hours from today on: move those visits or optimise their days again.`;
}

export function useSetWorkingHours() {
  const { api, flash } = useServices();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ ids, workingHours, days }: { ids: number[]; workingHours: WorkingHours; days: number[] }) => setWorkingHours(api, ids, workingHours, days),
    onSuccess: ({ practitioners, visits_outside_hours: outside }) => {
      practitionersSaved(queryClient, api, practitioners);
      flash.send({ type: 'APPEND', text: workingHoursSetMessage(practitioners.length) });
      if (outside.length > 0) flash.send({ type: 'APPEND', text: visitsOutsideHoursMessage(outside), flashType: 'warning' });
    },
  });
}

export const LEAVE_SAVED = 'The leave has been saved.';
export const LEAVE_REMOVED = 'The leave has been removed.';

/** Leave changes the practitioner's days: their leave list, and the schedule's marks and the dashboard (under the lists' prefix). */
function leaveChanged(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: leaveQueries.all() });
  void queryClient.invalidateQueries({ queryKey: appointmentQueries.lists() });
}

/** Saves leave: new without an id, else that leave changed. */
export function useSaveLeave() {
  const { api, flash } = useServices();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: number | null; input: LeaveInput }) => (id === null ? createLeave(api, input) : updateLeave(api, id, input)),
    onSuccess: () => {
      leaveChanged(queryClient);
      flash.send({ type: 'APPEND', text: LEAVE_SAVED });
    },
  });
}

export function useDeleteLeave() {
  const { api, flash } = useServices();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => deleteLeave(api, id),
    onSuccess: () => {
      leaveChanged(queryClient);
      flash.send({ type: 'APPEND', text: LEAVE_REMOVED });
    },
  });
}
