// A proposal's routes on the map, one colour per practitioner: the start place, the stops numbered in visiting order
// and the end place, along the roads when the server has OSRM, with the legend to show or hide each practitioner.
// "Changes only" shows only the routes the proposal changes and marks each changed stop's number with a star (3*);
// the visit chosen from a problem or a change has a pin of its own on top of its stop.
import { useMemo, useState } from 'react';
import { MapView } from '../../../ui/map/MapView';
import type { MapPin, MapRoute } from '../../../lib/map/mapTypes';
import { useRoadPaths } from '../../../entities/routes/useRoadPaths';

const NO_PINS: MapPin[] = [];

export function RouteMap({ routes, height = 360, changedIds, changesOnly = false, focused = null }: {
  routes: readonly MapRoute[];
  height?: number;
  /** The visits the proposal changes (stops' ids). */
  changedIds?: ReadonlySet<number>;
  /** Show only the routes with a change, their changed stops starred. */
  changesOnly?: boolean;
  /** The visit shown from a problem or a change: a pin of its own. */
  focused?: number | null;
}) {
  const marked = useMemo(() => (changesOnly && changedIds ? routes.map((route) => ({
    ...route,
    stops: route.stops.map((stop, index) => (changedIds.has(Number(stop.id)) ? { ...stop, label: `${index + 1}*`, title: `${stop.title} (changed)` } : stop)),
  })) : routes), [routes, changedIds, changesOnly]);
  const drawn = useRoadPaths(marked);
  // The legend still shows or hides each route; turning "changes only" on or off starts from the routes it implies.
  const unchanged = useMemo(() => (changesOnly && changedIds
    ? routes.filter((route) => !route.stops.some((stop) => changedIds.has(Number(stop.id)))).map((route) => route.id)
    : []), [routes, changedIds, changesOnly]);
  const key = `${changesOnly}|${unchanged.join(',')}`;
  const [hiddenNow, setHiddenNow] = useState({ key, ids: unchanged });
  if (hiddenNow.key !== key) setHiddenNow({ key, ids: unchanged });
  const hidden = hiddenNow.key === key ? hiddenNow.ids : unchanged;
  const pins = useMemo(() => {
    if (focused === null) return NO_PINS;
    for (const route of routes) {
      const stop = route.stops.find((candidate) => candidate.id === focused);
      if (stop) return [{ id: `focus-${focused}`, lat: stop.lat, lng: stop.lng, title: `${stop.title}: the visit chosen`, label: '◆', color: '#e11d48' }];
    }
    return NO_PINS;
  }, [routes, focused]);
  if (routes.every((route) => route.stops.length === 0)) {
    return <p className="rounded-lg bg-slate-100 px-3 py-6 text-center text-sm text-slate-600 dark:bg-slate-800 dark:text-slate-300">No stop has a map position.</p>;
  }
  return (
    <div data-testid="proposal-map" data-changes-only={changesOnly} data-focused={focused ?? undefined}>
      <MapView routes={drawn} height={height} pins={pins} hiddenRouteIds={hidden} onHiddenRouteIdsChange={(ids) => setHiddenNow({ key, ids })} />
    </div>
  );
}
