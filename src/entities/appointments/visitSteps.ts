// Recording a visit's step (the run sheet's buttons, the desk's Reopen) through the phone's outbox: sent now when the
// network allows, else kept and sent in order later (src/lib/stepOutbox). The mutation owns the cache updates — the
// visit's details show the answer, and the lists (the day, the dashboard's run sheet) and the change log refresh. A
// refused step refreshes the lists too, so a visit the office changed meanwhile shows as it is.
import { useSyncExternalStore } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useServices } from '../../app/ServicesContext';
import { saveVisitNote, type VisitStepRequest } from '../../api/visitSteps';
import { isQueued, type OutboxSnapshot } from '../../lib/stepOutbox';
import { appointmentQueries } from './queries';

export function useRecordVisitStep() {
  const { api, stepOutbox } = useServices();
  const queryClient = useQueryClient();
  return useMutation({
    // Without network the outbox keeps the step: the mutation must not wait for the network itself (Query's default).
    networkMode: 'always',
    mutationFn: ({ appointmentId, clientName, step }: { appointmentId: number; clientName: string | null; step: VisitStepRequest }) =>
      stepOutbox.submit(appointmentId, clientName, step),
    onSuccess: (outcome, { appointmentId }) => {
      if (isQueued(outcome)) return;
      queryClient.setQueryData(appointmentQueries.detail(api, appointmentId).queryKey, outcome.appointment);
      void queryClient.invalidateQueries({ queryKey: appointmentQueries.extra(api, appointmentId).queryKey });
      void queryClient.invalidateQueries({ queryKey: appointmentQueries.lists() });
    },
    onError: () => void queryClient.invalidateQueries({ queryKey: appointmentQueries.lists() }),
  });
}

/** The steps waiting in the phone's outbox, and those the server refused when they were sent. */
export function useStepOutbox(): OutboxSnapshot {
  const { stepOutbox } = useServices();
  return useSyncExternalStore(stepOutbox.subscribe, stepOutbox.getSnapshot);
}

/** A done visit's note written after Done: the visit's details show the answer, and the lists and change log refresh. */
export function useSaveVisitNote() {
  const { api } = useServices();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ appointmentId, note }: { appointmentId: number; note: string }) => saveVisitNote(api, appointmentId, note),
    onSuccess: (appointment) => {
      queryClient.setQueryData(appointmentQueries.detail(api, appointment.id).queryKey, appointment);
      void queryClient.invalidateQueries({ queryKey: appointmentQueries.extra(api, appointment.id).queryKey });
      void queryClient.invalidateQueries({ queryKey: appointmentQueries.lists() });
    },
  });
}
