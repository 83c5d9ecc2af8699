// A proposal's routes on the map, one colour per practitioner: the start place, the stops numbered in visiting order
// and the end place, along the roads when the server has OSRM, with the legend to show or hide each practitioner.
import { MapView } from '../../../ui/map/MapView';
import type { MapRoute } from '../../../lib/map/mapTypes';
import { useRoadPaths } from '../../../entities/routes/useRoadPaths';

export function RouteMap({ routes, height = 360 }: { routes: readonly MapRoute[]; height?: number }) {
  const drawn = useRoadPaths(routes);
  if (routes.every((route) => route.stops.length === 0)) {
    return <p className="rounded-lg bg-slate-100 px-3 py-6 text-center text-sm text-slate-600 dark:bg-slate-800 dark:text-slate-300">No stop has a map position.</p>;
  }
  return <MapView routes={drawn} height={height} />;
}
