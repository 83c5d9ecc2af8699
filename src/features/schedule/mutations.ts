// The schedule feature's writes, one mutation hook each (record 0007): each owns its cache updates, through the
// appointments' and the routes' query factories, and its message. The machine that drives a form is provided with its
// mutation (the arrival-time editor with `useUpdateArrivalTime`, the optimisation run with apply and discard); the
// run's failures are shown in the dialog, where the user chooses what to do next.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Temporal } from 'temporal-polyfill';
import { useAuthSelector, useServices } from '../../app/ServicesContext';
import { selectUser } from '../../machines/auth';
import { ARRIVAL_TIME_ERROR_MESSAGE, ARRIVAL_TIME_UPDATED_MESSAGE } from '../../machines/arrivalTimeEditor';
import { changeWarningsMessage, updateArrivalTime } from '../../api/appointments';
import { messageOfError } from '../../api/errors';
import { applyOptimization, discardOptimization, OPTIMIZATION_ERRORS, undoOptimization, type AppliedOptimization, type Route } from '../../api/optimizations';
import { formatDay, formatDayRange } from '../../lib/dates';
import { plural } from '../../lib/plural';
import { appointmentQueries } from '../../entities/appointments/queries';
import { appointmentTimeZone } from '../../entities/appointments/facts';
import { deleteRoute, findInsertion, moveAppointment, removeFromRoute, ROUTE_ERRORS, setArrivalLock, type VisitMove } from '../../entities/routes/api';
import { totalKpis, travelHeadline } from './optimise/figures';
import { routeQueries } from '../../entities/routes/queries';
import { markUnavailableToday } from '../../entities/practitioners/api';
import { leaveQueries } from '../../entities/practitioners/queries';
import { visitMovedMessage } from './visitMove';

export const DISCARDED_MESSAGE = 'The proposal was discarded; nothing was changed.';
export const REMOVED_FROM_ROUTE_MESSAGE = 'The visit is off its route: its arrival time stays and can be edited again.';
export const KEEP_TIME_ON_MESSAGE = 'This visit keeps its arrival time and practitioner when its day is optimised.';
export const KEEP_TIME_OFF_MESSAGE = "Optimising this visit's day may change its arrival time again.";
export const routeRemovedMessage = (route: Pick<Route, 'practitioner_name'>) =>
  `${route.practitioner_name}'s route was removed: the visits keep their arrival times, which can be edited again.`;

/** What an applied proposal changed, in one sentence for the toast. */
export function appliedMessage({ optimization, routes, clients_told: told = 0 }: AppliedOptimization): string {
  const day = daysOf(optimization);
  const proposals = optimization.days ?? (optimization.proposal ? [optimization.proposal] : []);
  if (proposals.length === 0) return `The optimisation of ${day} was applied.`;
  const changes = proposals.flatMap((proposal) => proposal.changes);
  const changed = changes.length;
  const moved = changes.filter((change) => change.old_practitioner_id !== change.new_practitioner_id).length;
  const visits = changed === 0 ? 'no visit changed' : `${plural(changed, 'visit')} changed${moved > 0 ? ` (${moved} to another practitioner)` : ''}`;
  const routesWritten = plural(routes.length, 'route');
  const tellings = told > 0 ? ` ${told === 1 ? 'One client is' : `${told} clients are`} being told the new arrival time.` : '';
  return `Optimisation of ${day} applied: ${visits}, ${routesWritten}, ${travelHeadline(totalKpis(proposals, 'before'), totalKpis(proposals, 'after'))}.${tellings}`;
}

/** The run's day, or its first and last day. */
const daysOf = (optimization: AppliedOptimization['optimization']) => (optimization.end_date && optimization.end_date !== optimization.date
  ? formatDayRange(optimization.date, optimization.end_date)
  : formatDay(Temporal.PlainDate.from(optimization.date)));

/** Everything an applied route or a visit leaving one changes: the day's lists, the visits' details, the routes. */
export function useRefreshRoutedDay() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: appointmentQueries.lists() });
    void queryClient.invalidateQueries({ queryKey: appointmentQueries.details() });
    void queryClient.invalidateQueries({ queryKey: routeQueries.all() });
  };
}

export function useApplyOptimization() {
  const { api, flash } = useServices();
  const refresh = useRefreshRoutedDay();
  return useMutation({
    mutationFn: ({ id, notifyClients }: { id: number; date: string; notifyClients?: boolean }) => applyOptimization(api, id, { notifyClients }),
    onSuccess: (applied) => {
      refresh();
      flash.send({ type: 'APPEND', text: appliedMessage(applied) });
    },
  });
}

export function useDiscardOptimization() {
  const { api, flash } = useServices();
  return useMutation({
    mutationFn: ({ id }: { id: number }) => discardOptimization(api, id),
    onSuccess: () => flash.send({ type: 'APPEND', text: DISCARDED_MESSAGE, flashType: 'info' }),
  });
}

export const undoneMessage = ({ optimization, export: exported }: AppliedOptimization & { export?: { message: string } | null }) =>
  `The optimisation of ${daysOf(optimization)} was undone: its visits and routes are back as they were.${exported ? ` ${exported.message}` : ''}`;

/** "Undo optimisation": the day reads again as Apply's refresh reads it; a refusal (a visit changed since) is said as the server says it. */
export function useUndoOptimization() {
  const { api, flash } = useServices();
  const refresh = useRefreshRoutedDay();
  return useMutation({
    mutationFn: (id: number) => undoOptimization(api, id),
    onSuccess: (undone) => {
      refresh();
      flash.send({ type: 'APPEND', text: undoneMessage(undone) });
    },
    onError: (error) => flash.send({ type: 'APPEND', text: messageOfError(error, OPTIMIZATION_ERRORS.undo), flashType: 'danger' }),
  });
}

/** Takes one visit off its route: its details show it at once (the arrival editor comes back), the day refreshes. */
export function useRemoveFromRoute() {
  const { api, flash } = useServices();
  const queryClient = useQueryClient();
  const refresh = useRefreshRoutedDay();
  return useMutation({
    mutationFn: (appointmentId: number) => removeFromRoute(api, appointmentId),
    onSuccess: (saved) => {
      queryClient.setQueryData(appointmentQueries.detail(api, saved.id).queryKey, saved);
      refresh();
      flash.send({ type: 'APPEND', text: REMOVED_FROM_ROUTE_MESSAGE });
    },
    onError: (error) => flash.send({ type: 'APPEND', text: messageOfError(error, ROUTE_ERRORS.removeVisit), flashType: 'danger' }),
  });
}

/** "Keep this time": the details show the saved lock and its change-log entry. */
export function useSetArrivalLock() {
  const { api, flash } = useServices();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ appointmentId, locked }: { appointmentId: number; locked: boolean }) => setArrivalLock(api, appointmentId, locked),
    onSuccess: (saved) => {
      queryClient.setQueryData(appointmentQueries.detail(api, saved.id).queryKey, saved);
      void queryClient.invalidateQueries({ queryKey: appointmentQueries.extra(api, saved.id).queryKey });
      flash.send({ type: 'APPEND', text: saved.arrival_locked ? KEEP_TIME_ON_MESSAGE : KEEP_TIME_OFF_MESSAGE });
    },
    onError: (error) => flash.send({ type: 'APPEND', text: messageOfError(error, ROUTE_ERRORS.lock), flashType: 'danger' }),
  });
}

/** "Remove route": the practitioner's visits of that day leave it and keep their times. */
export function useDeleteRoute() {
  const { api, flash } = useServices();
  const refresh = useRefreshRoutedDay();
  return useMutation({
    mutationFn: (route: Route) => deleteRoute(api, route.id),
    onSuccess: (_, route) => {
      refresh();
      flash.send({ type: 'APPEND', text: routeRemovedMessage(route) });
    },
    onError: (error) => flash.send({ type: 'APPEND', text: messageOfError(error, ROUTE_ERRORS.remove), flashType: 'danger' }),
  });
}

/**
 * Moves a visit by hand (another practitioner, time or day): its details, the day's lists, routes and travel warnings
 * refresh, and a toast says what changed (old → new, from the details as they were when it is open), and another any
 * soft rule the move now breaks (e.g. too little travel time).
 */
export function useMoveAppointment() {
  const { api, flash } = useServices();
  const businessTimeZone = useAuthSelector(selectUser)?.business_account.time_zone;
  const queryClient = useQueryClient();
  const refresh = useRefreshRoutedDay();
  return useMutation({
    mutationFn: ({ appointmentId, move }: { appointmentId: number; move: VisitMove }) => moveAppointment(api, appointmentId, move),
    onSuccess: ({ appointment: saved, warnings }) => {
      const before = queryClient.getQueryData(appointmentQueries.detail(api, saved.id).queryKey);
      flash.send({ type: 'APPEND', text: visitMovedMessage(before, saved, appointmentTimeZone(businessTimeZone)) });
      const warning = changeWarningsMessage(warnings);
      if (warning) flash.send({ type: 'APPEND', text: warning, flashType: 'warning' });
      queryClient.setQueryData(appointmentQueries.detail(api, saved.id).queryKey, saved);
      void queryClient.invalidateQueries({ queryKey: appointmentQueries.extra(api, saved.id).queryKey });
      refresh();
    },
    onError: (error) => flash.send({ type: 'APPEND', text: messageOfError(error, ROUTE_ERRORS.move), flashType: 'danger' }),
  });
}

/**
 * "Insert into a route": asks where the visit would go at the least added travel among these practitioners' days. It
 * changes nothing (apply the answer with useMoveAppointment), so it touches no cache and its failure is shown where
 * it was asked.
 */
export function useFindInsertion() {
  const { api } = useServices();
  return useMutation({
    mutationFn: ({ appointmentId, practitionerIds }: { appointmentId: number; practitionerIds: number[] }) => findInsertion(api, appointmentId, practitionerIds),
  });
}

/** "Unavailable from now": the leave, then the day's lists, marks and issues read again; the flash says what it did. */
export function useMarkUnavailableToday() {
  const { api, flash } = useServices();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ practitionerName: _name, ...input }: { practitioner_id: number; from_time: string; reason: string; practitionerName: string }) =>
      markUnavailableToday(api, input),
    onSuccess: (leave, { practitionerName }) => {
      void queryClient.invalidateQueries({ queryKey: leaveQueries.all() });
      void queryClient.invalidateQueries({ queryKey: appointmentQueries.lists() });
      void queryClient.invalidateQueries({ queryKey: routeQueries.all() });
      flash.send({ type: 'APPEND', text: `${practitionerName} is unavailable from ${leave.start_time} today: their visits after it are marked. Re-plan the day to give them to the others.` });
    },
  });
}

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
