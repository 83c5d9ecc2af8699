// The routes of the day on the day schedule: the "Optimise" action and its dialog, the banner on a day whose route
// changed after it was optimised, each practitioner's route mark with "Remove route" and "Undo optimisation", and when
// they leave and are back.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useServices } from '../../app/ServicesContext';
import type { Route } from '../../api/optimizations';
import { formatDateTime, formatTime } from '../../lib/dates';
import { plural } from '../../lib/plural';
import { Button } from '../../ui/Button';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { TextLink } from '../../ui/TextLink';
import { Icon } from '../../ui/Icon';
import { useDeleteRoute, useUndoOptimization } from './mutations';
import { routeQueries } from '../../entities/routes/queries';
import { OptimiseDialog } from './optimise/OptimiseDialog';
import { ROUTE_CHANGED } from '../../ui/RunSheet';


export function OptimiseAction({ day }: { day: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="sm" onClick={() => setOpen(true)}>
        <Icon name="soon" className="size-4" />
        Optimise
      </Button>
      {/* A new dialog (and run) each time it opens, on the day shown then. */}
      {open && <OptimiseDialog initialDay={day} onClose={() => setOpen(false)} />}
    </>
  );
}

/** For those who plan routes: said once for the day, naming each practitioner whose route is stale. */
export function StaleRoutesBanner({ routes, timeZone }: { routes: readonly Route[]; timeZone: string }) {
  const stale = routes.filter((route) => route.stale_at !== null);
  if (stale.length === 0) return null;
  return (
    <div role="status" data-testid="stale-route-banner" className="mx-4 mt-3 flex items-start gap-2 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-100">
      <Icon name="warning" className="mt-0.5 size-5 shrink-0" />
      <div>
        <p className="font-medium">{stale.length === 1 ? ROUTE_CHANGED : `${plural(stale.length, 'route')} changed after they were optimised.`}</p>
        <p className="text-xs">
          {stale.map((route) => `${route.practitioner_name} (since ${formatDateTime(route.stale_at!, timeZone)})`).join(', ')}.{' '}
          {stale.length === 1 ? 'Its' : 'Their'} arrival times may no longer fit the day: optimise the day again, or remove the{' '}
          {stale.length === 1 ? 'route' : 'routes'} to edit the times by hand.
        </p>
      </div>
    </div>
  );
}

/**
 * Under a practitioner's name on the schedule: the route's mark and, for those who may plan routes, "Remove route" and
 * whether the route changed (a practitioner, who cannot plan one, is not told).
 */
export function RouteLaneMark({ route, canEdit }: { route: Route; canEdit: boolean }) {
  const [confirming, setConfirming] = useState(false);
  const [confirmingUndo, setConfirmingUndo] = useState(false);
  const remove = useDeleteRoute();
  const undo = useUndoOptimization();
  const runId = route.optimization_id;
  return (
    <span className="mt-0.5 flex flex-wrap items-center gap-x-2 text-xs font-normal" data-testid="route-mark">
      {route.stale_at ? (
        canEdit && <span className="text-amber-700 dark:text-amber-400">Route changed</span>
      ) : (
        <span className="text-emerald-700 dark:text-emerald-400">Optimised route</span>
      )}
      {canEdit && (
        <TextLink disabled={remove.isPending} onClick={() => setConfirming(true)} aria-label={`Remove route for ${route.practitioner_name}`} className="disabled:opacity-60">
          Remove route
        </TextLink>
      )}
      {canEdit && runId !== null && (
        <TextLink disabled={undo.isPending} onClick={() => setConfirmingUndo(true)} aria-label={`Undo optimisation for ${route.practitioner_name}`} className="disabled:opacity-60">
          Undo optimisation
        </TextLink>
      )}
      <ConfirmDialog
        open={confirmingUndo}
        title="Undo this optimisation?"
        message={`Every visit it changed goes back to the arrival time and practitioner it had before it was applied (by ${route.applied_by_name ?? 'someone'}), and the day's routes back to what they were. Times already exported to the practice management system are exported again as they were. This cannot be done once one of its visits has been edited since.`}
        confirmLabel="Undo optimisation"
        onCancel={() => setConfirmingUndo(false)}
        onConfirm={() => {
          setConfirmingUndo(false);
          if (runId !== null) undo.mutate(runId);
        }}
      />
      <ConfirmDialog
        open={confirming}
        title={`Remove ${route.practitioner_name}'s route?`}
        message="The visits leave the route and keep their arrival times, which can then be edited by hand. Nothing is sent to the practice management system until the next export."
        confirmLabel="Remove route"
        danger
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          remove.mutate(route);
        }}
      />
    </span>
  );
}

/** Under a practitioner's name on the schedule: when they leave their start place and are back, as the run sheet says. */
export function LaneDayTimes({ day, practitionerId, timeZone }: { day: string; practitionerId: number; timeZone: string }) {
  const { api } = useServices();
  const travel = useQuery(routeQueries.dayTravel(api, day));
  const own = travel.data?.practitioners.find((candidate) => candidate.practitioner_id === practitionerId);
  const words = [own?.depart_at && `Leave ${formatTime(own.depart_at, timeZone)}`, own?.back_at && `back ${formatTime(own.back_at, timeZone)}`].filter(Boolean);
  if (words.length === 0) return null;
  return <span data-testid="lane-day-times" className="block text-xs font-normal text-slate-500 tabular-nums dark:text-slate-400">{words.join(' · ')}</span>;
}
