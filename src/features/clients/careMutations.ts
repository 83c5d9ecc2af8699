// The client modal's care-plan and absence writes. Each changes the client's future visits (open visits generated
// again or removed, booked ones cancelled in the PMS), so the open visits, the schedule's lists and the plans' counts
// are read again after it.
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useServices } from '../../app/ServicesContext';
import { appointmentQueries } from '../../entities/appointments/queries';
import {
  createCarePlan, createClientAbsence, deleteClientAbsence, endCarePlan, updateCarePlan, ABSENCE_DELETE_ERROR,
  type AbsenceInput, type CarePlanInput,
} from '../../entities/care-plans/api';
import { absenceQueries, carePlanQueries } from '../../entities/care-plans/queries';
import { openVisitQueries } from '../../entities/open-visits/queries';
import { messageOfError } from '../../api/errors';
import { plural } from '../../lib/plural';

function visitsChanged(queryClient: QueryClient): void {
  for (const queryKey of [carePlanQueries.all(), absenceQueries.all(), openVisitQueries.all(), appointmentQueries.lists(), appointmentQueries.details()]) {
    void queryClient.invalidateQueries({ queryKey });
  }
}

/** "2 visits cancelled, 3 open visits removed." */
export function pausedText(cancelled: number, removed: number): string {
  return `${plural(cancelled, 'visit')} cancelled, ${plural(removed, 'open visit')} removed.`;
}

/** Creates the plan (id null) or changes it from today on. Problems are shown by the form, under their fields. */
export function useSaveCarePlan(clientId: number) {
  const { api, flash } = useServices();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: number | null; input: CarePlanInput }) =>
      id === null ? createCarePlan(api, clientId, input) : updateCarePlan(api, id, input),
    onSuccess: (_, { id }) => {
      flash.send({ type: 'APPEND', text: id === null ? 'The care plan has been added: its visits are open until care visits are planned.' : 'The care plan has been changed from today on.' });
      visitsChanged(queryClient);
    },
  });
}

export function useEndCarePlan() {
  const { api, flash } = useServices();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, endsOn }: { id: number; endsOn: string }) => endCarePlan(api, id, endsOn),
    onSuccess: (ended) => {
      flash.send({ type: 'APPEND', text: `The care plan ends on its last day. ${pausedText(ended.cancelled_visits, ended.removed_open_visits)}` });
      visitsChanged(queryClient);
    },
  });
}

export function useAddAbsence(clientId: number) {
  const { api, flash } = useServices();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: AbsenceInput) => createClientAbsence(api, clientId, input),
    onSuccess: (added) => {
      flash.send({ type: 'APPEND', text: `The absence has been added. ${pausedText(added.cancelled_visits, added.removed_open_visits)}` });
      visitsChanged(queryClient);
    },
  });
}

export function useDeleteAbsence() {
  const { api, flash } = useServices();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => deleteClientAbsence(api, id),
    onSuccess: () => {
      flash.send({ type: 'APPEND', text: 'The absence has been removed: the next time care visits are planned, its days get their visits again.' });
      visitsChanged(queryClient);
    },
    onError: (error) => flash.send({ type: 'APPEND', text: messageOfError(error, ABSENCE_DELETE_ERROR), flashType: 'danger' }),
  });
}
