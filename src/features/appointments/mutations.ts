// The appointments feature's writes, one mutation hook each: a mutation owns its cache updates and its messages,
// and the machine that drives its form is provided with it.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useServices } from '../../app/ServicesContext';
import { changeWarningsMessage, updateArrivalTime } from '../../api/appointments';
import { messageOfError } from '../../api/errors';
import { ARRIVAL_TIME_ERROR_MESSAGE, ARRIVAL_TIME_UPDATED_MESSAGE } from '../../machines/arrivalTimeEditor';
import { appointmentQueries } from '../../entities/appointments/queries';

/**
 * Saves an appointment's arrival time: the details show the saved appointment, its change log and the lists refresh;
 * a soft rule the new time breaks (e.g. too little travel time) is shown as a warning.
 */
export function useUpdateArrivalTime() {
  const { api, flash } = useServices();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ appointmentId, arriveAt }: { appointmentId: number; arriveAt: string }) => updateArrivalTime(api, appointmentId, arriveAt),
    onSuccess: ({ appointment: saved, warnings }, { appointmentId }) => {
      queryClient.setQueryData(appointmentQueries.detail(api, appointmentId).queryKey, saved);
      flash.send({ type: 'APPEND', text: ARRIVAL_TIME_UPDATED_MESSAGE });
      const warning = changeWarningsMessage(warnings);
      if (warning) flash.send({ type: 'APPEND', text: warning, flashType: 'warning' });
      void queryClient.invalidateQueries({ queryKey: appointmentQueries.extra(api, appointmentId).queryKey });
      void queryClient.invalidateQueries({ queryKey: appointmentQueries.lists() });
    },
    onError: (error) => flash.send({ type: 'APPEND', text: messageOfError(error, ARRIVAL_TIME_ERROR_MESSAGE), flashType: 'danger' }),
  });
}
