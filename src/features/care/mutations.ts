// The open visits page's writes. Each books or removes visits: the open visits, the schedule's lists and details,
// the routes and the care plans' counts are read again after it.
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useServices } from '../../app/ServicesContext';
import { appointmentQueries } from '../../entities/appointments/queries';
import { carePlanQueries } from '../../entities/care-plans/queries';
import { openVisitQueries } from '../../entities/open-visits/queries';
import { routeQueries } from '../../entities/routes/queries';
import { messageOfError } from '../../api/errors';
import { REMOVE_ERROR, applyAllocation, deleteOpenVisit, fillOpenVisit } from './api';

export function visitsBooked(queryClient: QueryClient): void {
  for (const queryKey of [openVisitQueries.all(), appointmentQueries.lists(), appointmentQueries.details(), routeQueries.all(), carePlanQueries.all()]) {
    void queryClient.invalidateQueries({ queryKey });
  }
}

/** Fill: booked with the chosen practitioner at the chosen start (the form shows a refusal beside the choices). */
export function useFillOpenVisit() {
  const { api, flash } = useServices();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, practitionerId, startsAt }: { id: number; practitionerId: number; startsAt: string; name: string }) =>
      fillOpenVisit(api, id, { practitioner_id: practitionerId, starts_at: startsAt }),
    onSuccess: (_, { name }) => {
      flash.send({ type: 'APPEND', text: `The visit is booked with ${name} and is being saved to Cliniko.`, flashType: 'success' });
      visitsBooked(queryClient);
    },
  });
}

export function useRemoveOpenVisit() {
  const { api, flash } = useServices();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => deleteOpenVisit(api, id),
    onSuccess: () => {
      flash.send({ type: 'APPEND', text: 'The open visit has been removed.' });
      visitsBooked(queryClient);
    },
    onError: (error) => flash.send({ type: 'APPEND', text: messageOfError(error, REMOVE_ERROR), flashType: 'danger' }),
  });
}

/** Apply: every placed visit of the proposal is booked (and written to Cliniko); the unplaced stay open. */
export function useApplyAllocation() {
  const { api } = useServices();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => applyAllocation(api, id),
    onSettled: () => visitsBooked(queryClient),
  });
}
