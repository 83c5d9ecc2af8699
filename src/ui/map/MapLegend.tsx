// The map's legend: one checkbox per practitioner, in their colour, to show or hide their route.
import { TextLink } from '../TextLink';
import type { MapRoute } from '../../lib/map/mapTypes';

export function MapLegend({ routes, hidden, onChange }: {
  routes: readonly MapRoute[];
  hidden: readonly MapRoute['id'][];
  onChange: (hidden: MapRoute['id'][]) => void;
}) {
  const toggle = (id: MapRoute['id'], shown: boolean) => onChange(shown ? hidden.filter((other) => other !== id) : [...hidden, id]);
  const allShown = hidden.length === 0;
  return (
    <fieldset data-testid="map-legend" className="mb-2 flex flex-wrap items-center gap-x-3 gap-y-0 text-sm sm:gap-x-4">
      <legend className="sr-only">Practitioners on the map</legend>
      {routes.map((route) => (
        <label key={route.id} className="inline-flex min-h-8 cursor-pointer items-center gap-2">
          <input
            type="checkbox"
            checked={!hidden.includes(route.id)}
            onChange={(event) => toggle(route.id, event.target.checked)}
            className="size-4 rounded border-slate-300 accent-sky-600"
          />
          <span className="inline-block size-3 rounded-full" style={{ backgroundColor: route.color }} aria-hidden="true" />
          <span>{route.name}</span>
          <span className="hidden text-xs text-slate-500 sm:inline dark:text-slate-400">
            {route.note ?? `${route.stops.length} ${route.stops.length === 1 ? 'stop' : 'stops'}`}
          </span>
        </label>
      ))}
      {routes.length > 2 && (
        <TextLink className="text-xs font-medium" onClick={() => onChange(allShown ? routes.map((route) => route.id) : [])}>
          {allShown ? 'Hide all' : 'Show all'}
        </TextLink>
      )}
    </fieldset>
  );
}
