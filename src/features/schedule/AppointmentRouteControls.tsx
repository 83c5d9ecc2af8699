// On the appointment modal: whether the visit is on an optimised route (its arrival time is then the route's, not
// editable inline) with "Remove from route", and "Keep this time", which pins its arrival and practitioner when its
// day is optimised.
import { Field as HeadlessField, Label, Description, Switch } from '@headlessui/react';
import type { Appointment } from '../../api/types';
import { Button } from '../../ui/Button';
import { useRemoveFromRoute, useSetArrivalLock } from './mutations';

export function AppointmentRouteControls({ appointment, canEdit }: { appointment: Appointment; canEdit: boolean }) {
  const removeFromRoute = useRemoveFromRoute();
  const lock = useSetArrivalLock();
  const routed = appointment.route_id !== null;
  return (
    <div className="space-y-3 text-sm" data-testid="route-controls">
      <div className="flex flex-wrap items-center gap-2">
        <span data-testid="route-status">{routed ? 'On an optimised route: the route sets its arrival time.' : 'Not on a route.'}</span>
        {routed && canEdit && (
          <Button variant="secondary" size="xs" busy={removeFromRoute.isPending} onClick={() => removeFromRoute.mutate(appointment.id)}>
            Remove from route
          </Button>
        )}
      </div>
      {canEdit ? (
        <HeadlessField className="flex items-start gap-3">
          <Switch
            checked={appointment.arrival_locked}
            disabled={lock.isPending}
            onChange={(locked: boolean) => lock.mutate({ appointmentId: appointment.id, locked })}
            className="group relative mt-0.5 inline-flex h-5 w-9 shrink-0 cursor-pointer rounded-full bg-slate-300 transition-colors data-checked:bg-sky-600 data-disabled:cursor-wait data-disabled:opacity-60 dark:bg-slate-600"
          >
            <span aria-hidden="true" className="pointer-events-none inline-block size-4 translate-x-0.5 translate-y-0.5 rounded-full bg-white shadow transition group-data-checked:translate-x-4.5" />
          </Switch>
          <div>
            <Label className="font-medium">Keep this time</Label>
            <Description className="text-xs text-slate-500 dark:text-slate-400">Optimising the day keeps this arrival time and practitioner.</Description>
          </div>
        </HeadlessField>
      ) : (
        appointment.arrival_locked && <p>Kept at this time when the day is optimised.</p>
      )}
    </div>
  );
}
