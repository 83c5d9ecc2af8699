// Booking, rescheduling and cancelling a visit in Rounds (or making it an open visit), and the coordinator's answers to
// a write the PMS did not take (Try again, Overwrite, Discard): one mutation hook each (record 0007). Each refreshes
// what the change touches — the day's lists and routes, the visit's details, the open visits — and says what happened;
// the failures are shown where they were asked (the dialog or the panel), never lost.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useAuthSelector, useServices } from '../../app/ServicesContext';
import { selectUser } from '../../machines/auth';
import { changeWarningsMessage } from '../../api/appointments';
import { formatDateTime } from '../../lib/dates';
import { appointmentQueries } from '../../entities/appointments/queries';
import { appointmentTimeZone } from '../../entities/appointments/facts';
import {
  bookVisit,
  cancelVisit,
  discardPmsWrite,
  findBestFit,
  PMS_NAME,
  rescheduleVisit,
  retryPmsWrite,
  type BestFitRequest,
  type BookVisitRequest,
  type CancelRequest,
  type RescheduleRequest,
} from '../../entities/appointments/booking';
import { openVisitFromBooking } from '../../entities/open-visits/api';
import { openVisitQueries } from '../../entities/open-visits/queries';
import type { Appointment } from '../../api/types';
import { useRefreshRoutedDay } from './mutations';

/** "Booked Mrs Lee with Pat Nguyen, Thu 26 Nov 2026 09:30 — saving to Cliniko". */
export function bookedMessage(visit: Pick<Appointment, 'client' | 'practitioner' | 'starts_at'>, timeZone: string): string {
  const who = visit.client ? `${visit.client.full_name} with ${visit.practitioner.full_name}` : `a visit with ${visit.practitioner.full_name}`;
  return `Booked ${who}, ${formatDateTime(visit.starts_at, timeZone)} — saving to ${PMS_NAME}.`;
}

function useRefreshBookedDay() {
  const queryClient = useQueryClient();
  const refresh = useRefreshRoutedDay();
  return () => {
    refresh();
    void queryClient.invalidateQueries({ queryKey: openVisitQueries.all() });
  };
}

/** Best fits change nothing: no cache is touched, and the failure is shown where they were asked for. */
export function useFindBestFit() {
  const { api } = useServices();
  return useMutation({ mutationFn: (request: BestFitRequest) => findBestFit(api, request) });
}

export function useBookVisit() {
  const { api, flash } = useServices();
  const timeZone = appointmentTimeZone(useAuthSelector(selectUser)?.business_account.time_zone);
  const queryClient = useQueryClient();
  const refresh = useRefreshBookedDay();
  return useMutation({
    mutationFn: (request: BookVisitRequest) => bookVisit(api, request),
    onSuccess: ({ appointment, warnings }) => {
      queryClient.setQueryData(appointmentQueries.detail(api, appointment.id).queryKey, appointment);
      refresh();
      flash.send({ type: 'APPEND', text: bookedMessage(appointment, timeZone) });
      const warning = changeWarningsMessage(warnings);
      if (warning) flash.send({ type: 'APPEND', text: warning, flashType: 'warning' });
    },
  });
}

export function useRescheduleVisit() {
  const { api, flash } = useServices();
  const timeZone = appointmentTimeZone(useAuthSelector(selectUser)?.business_account.time_zone);
  const queryClient = useQueryClient();
  const refresh = useRefreshBookedDay();
  return useMutation({
    mutationFn: ({ appointmentId, request }: { appointmentId: number; request: RescheduleRequest }) => rescheduleVisit(api, appointmentId, request),
    onSuccess: ({ appointment, warnings }) => {
      queryClient.setQueryData(appointmentQueries.detail(api, appointment.id).queryKey, appointment);
      void queryClient.invalidateQueries({ queryKey: appointmentQueries.extra(api, appointment.id).queryKey });
      refresh();
      flash.send({ type: 'APPEND', text: `Rescheduled to ${appointment.practitioner.full_name}, ${formatDateTime(appointment.starts_at, timeZone)} — saving to ${PMS_NAME}.` });
      const warning = changeWarningsMessage(warnings);
      if (warning) flash.send({ type: 'APPEND', text: warning, flashType: 'warning' });
    },
  });
}

export function useCancelVisit() {
  const { api, flash } = useServices();
  const queryClient = useQueryClient();
  const refresh = useRefreshBookedDay();
  return useMutation({
    mutationFn: ({ appointmentId, request }: { appointmentId: number; request: CancelRequest }) => cancelVisit(api, appointmentId, request),
    onSuccess: ({ appointment, told_client: told }) => {
      queryClient.setQueryData(appointmentQueries.detail(api, appointment.id).queryKey, appointment);
      void queryClient.invalidateQueries({ queryKey: appointmentQueries.extra(api, appointment.id).queryKey });
      refresh();
      const who = appointment.client ? ` with ${appointment.client.full_name}` : '';
      flash.send({ type: 'APPEND', text: `Visit${who} cancelled — saving to ${PMS_NAME}.${told ? ' The client is being told.' : ''}` });
    },
  });
}

/** "Needs another practitioner": the visit is cancelled (saving to the PMS) and waits in the open visits. */
export function useOpenVisitFromBooking() {
  const { api, flash } = useServices();
  const queryClient = useQueryClient();
  const refresh = useRefreshBookedDay();
  return useMutation({
    mutationFn: ({ appointmentId, reason }: { appointmentId: number; reason: string }) => openVisitFromBooking(api, appointmentId, reason),
    onSuccess: ({ appointment }) => {
      queryClient.setQueryData(appointmentQueries.detail(api, appointment.id).queryKey, appointment);
      void queryClient.invalidateQueries({ queryKey: appointmentQueries.extra(api, appointment.id).queryKey });
      refresh();
      flash.send({ type: 'APPEND', text: `${openedVisitWords(appointment)} is now an open visit — its cancellation is saving to ${PMS_NAME}.` });
    },
  });
}

/** "The visit with Bert Smith", or "The visit" without a client. */
export const openedVisitWords = (visit: Pick<Appointment, 'client'>) => `The visit${visit.client ? ` with ${visit.client.full_name}` : ''}`;

/** "Try again" (a failed write) or "Overwrite Cliniko" (a conflict): the visit's details read again, saving. */
export function useRetryPmsWrite() {
  const { api } = useServices();
  const queryClient = useQueryClient();
  const refresh = useRefreshBookedDay();
  return useMutation({
    mutationFn: ({ writeId, overwrite }: { writeId: number; appointmentId: number; overwrite?: boolean }) => retryPmsWrite(api, writeId, overwrite),
    onSuccess: (_, { appointmentId }) => {
      void queryClient.invalidateQueries({ queryKey: appointmentQueries.detail(api, appointmentId).queryKey });
      refresh();
    },
  });
}

/** "Discard" or "Keep Cliniko's version": a booking never saved leaves Rounds; otherwise the PMS's version comes back. */
export function useDiscardPmsWrite() {
  const { api, flash } = useServices();
  const queryClient = useQueryClient();
  const refresh = useRefreshBookedDay();
  return useMutation({
    mutationFn: ({ writeId }: { writeId: number; appointmentId: number }) => discardPmsWrite(api, writeId),
    onSuccess: ({ appointment }, { appointmentId }) => {
      if (appointment) queryClient.setQueryData(appointmentQueries.detail(api, appointmentId).queryKey, appointment);
      refresh();
      flash.send({
        type: 'APPEND',
        flashType: 'info',
        text: appointment ? `Rounds shows ${PMS_NAME}'s version of the visit again.` : `The booking was discarded: it never reached ${PMS_NAME} and has left Rounds.`,
      });
    },
  });
}
