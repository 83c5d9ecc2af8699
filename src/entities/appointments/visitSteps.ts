// Recording a visit's step (the run sheet's buttons, the desk's Reopen): the mutation owns the cache updates — the
// visit's details show the answer, and the lists (the day, the dashboard's run sheet) and the change log refresh. A
// refused step refreshes the lists too, so a visit the office changed meanwhile shows as it is.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useServices } from '../../app/ServicesContext';
import { recordVisitStep, type VisitStepRequest } from '../../api/visitSteps';
import { appointmentQueries } from './queries';

export function useRecordVisitStep() {
  const { api } = useServices();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ appointmentId, step }: { appointmentId: number; step: VisitStepRequest }) => recordVisitStep(api, appointmentId, step),
    onSuccess: ({ appointment }, { appointmentId }) => {
      queryClient.setQueryData(appointmentQueries.detail(api, appointmentId).queryKey, appointment);
      void queryClient.invalidateQueries({ queryKey: appointmentQueries.extra(api, appointmentId).queryKey });
      void queryClient.invalidateQueries({ queryKey: appointmentQueries.lists() });
    },
    onError: () => void queryClient.invalidateQueries({ queryKey: appointmentQueries.lists() }),
  });
}
