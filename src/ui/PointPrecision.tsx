// How precise a point on the map is, wherever one is used: a small mark beside a point that is not at the building
// ("Approximate: suburb only", "Not on the map"), with where it came from in words on hover and for screen readers (or
// shown, with `detail`); nothing for a point at the address. PrecisionSummary says the same of a map's points at once.
import { useId } from 'react';
import { precisionMark, precisionText, type GeoPrecision, type GeoSource } from '../lib/geoPrecision';

const markClass = {
  approximate: 'bg-amber-100 text-amber-900 ring-amber-300 dark:bg-amber-950 dark:text-amber-100 dark:ring-amber-800',
  none: 'bg-rose-100 text-rose-900 ring-rose-300 dark:bg-rose-950 dark:text-rose-100 dark:ring-rose-800',
};

export function PointPrecision({ precision, source = null, detail = false, besideWords = false, className = '' }: {
  precision: GeoPrecision;
  source?: GeoSource;
  /** Also says how the point was placed, after the mark. */
  detail?: boolean;
  /** The text next to it already says how the point was placed: the mark alone, without saying it again. */
  besideWords?: boolean;
  className?: string;
}) {
  const id = useId();
  const mark = precisionMark(precision);
  if (!mark) return null;
  const words = precisionText(precision, source);
  return (
    <span className={`inline-flex flex-wrap items-baseline gap-x-1.5 ${className}`} data-testid="point-precision" data-precision={precision}>
      <span
        title={detail || besideWords ? undefined : words}
        aria-describedby={detail || besideWords ? undefined : id}
        className={`inline-block rounded px-1.5 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset ${markClass[precision === 'none' ? 'none' : 'approximate']}`}
      >
        {mark}
      </span>
      {detail && <span className="text-xs text-slate-600 dark:text-slate-300">{words}</span>}
      {!detail && !besideWords && <span id={id} className="sr-only">{words}</span>}
    </span>
  );
}

/** A route's start and end places as points of a summary, named by whose they are: "Pat Nguyen (Home)"; one per place. */
export function precisionOfPlaces(routes: ReadonlyArray<{ name: string; places: ReadonlyArray<{ name: string; geo_precision?: GeoPrecision } | null> }>): PrecisionOfPoint[] {
  return routes.flatMap((route) => route.places.flatMap((place) =>
    place?.geo_precision ? [{ name: `${route.name} (${place.name})`, precision: place.geo_precision }] : []));
}

export interface PrecisionOfPoint {
  /** Who or what the point is, as the map's reader knows it: a client's name, a place. */
  name: string;
  precision: GeoPrecision;
}

const LISTED = 5;

/** "Ann, Bob and 3 more"; "all 12 clients" when the group holds every name. */
function namesInWords(names: readonly string[], all: boolean, noun: string): string {
  if (all && names.length > 1) return `all ${names.length} ${noun}`;
  if (names.length <= LISTED + 1) return names.join(', ');
  return `${names.slice(0, LISTED).join(', ')} and ${names.length - LISTED} more`;
}

/**
 * Under a map: which of its points are approximate (by how much) and which are not on it, by name ("all 12" when every
 * point is alike); nothing when every point is at its address. `noun` names the points in the plural ("clients").
 */
export function PrecisionSummary({ points, noun = 'clients' }: { points: readonly PrecisionOfPoint[]; noun?: string }) {
  const everyName = new Set(points.map((point) => point.name));
  const groups = (['suburb', 'street', 'none'] as const)
    .map((precision) => ({ precision, names: [...new Set(points.filter((point) => point.precision === precision).map((point) => point.name))] }))
    .filter((group) => group.names.length > 0);
  if (groups.length === 0) return null;
  return (
    <ul className="mt-2 space-y-1 text-xs text-slate-600 dark:text-slate-300" data-testid="precision-summary">
      {groups.map(({ precision, names }) => (
        <li key={precision} className="flex flex-wrap items-baseline gap-x-1.5">
          <PointPrecision precision={precision} />
          <span>{namesInWords(names, names.length === everyName.size, noun)}</span>
        </li>
      ))}
    </ul>
  );
}
