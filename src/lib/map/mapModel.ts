// What a map draws, worked out once for every renderer: the pins (numbered stops, start and end places, single
// pins), the lines between stops, and the points the camera fits. Pure, so the three renderers draw the same thing.
// A two-carer visit (stops of two routes made together, MapStop.together) is one pin naming both practitioners.
import type { LatLng, MapFit, MapPin, MapPlace, MapRoute, MapStop } from './mapTypes';
import { DEFAULT_PIN_COLOR } from './mapTypes';

export type PinKind = 'stop' | 'start' | 'end' | 'startEnd' | 'pin';

/** What a click on a pin, or a pin's move, refers to. */
export type PinTarget =
  | { kind: 'stop'; routeId: MapRoute['id']; stopId: MapStop['id'] }
  | { kind: 'place'; routeId: MapRoute['id'] }
  | { kind: 'pin'; pinId: MapPin['id'] };

export interface DrawnPin extends LatLng {
  /** Unique on the map. */
  key: string;
  kind: PinKind;
  /** Text on the pin: a stop's number(s), S / E / S/E for places, a pin's own label, or ''. */
  label: string;
  color: string;
  /** Hover text and accessible name. */
  title: string;
  /** Pixels [right, down] the pin is moved so that pins at one place stay visible side by side. */
  offset: readonly [number, number];
  target: PinTarget;
  /** The user may move it (drag, or click the offline drawing). */
  movable: boolean;
}

export interface DrawnLine {
  key: string;
  color: string;
  title: string;
  points: readonly LatLng[];
}

export interface MapModel {
  pins: DrawnPin[];
  lines: DrawnLine[];
  /** What the camera fits (see MapFit); empty: the default centre. */
  fitPoints: LatLng[];
}

export interface MapModelInput {
  routes: readonly MapRoute[];
  pins: readonly MapPin[];
  /** Routes toggled off in the legend. */
  hidden: ReadonlySet<MapRoute['id']>;
  /** Draw the legs between consecutive points of each route. */
  legs: boolean;
  fit: MapFit;
  /** Whether single pins can be moved. */
  movablePins: boolean;
}

/** Pins closer than this (degrees, about a metre) are at one place. */
const SAME_PLACE_DIGITS = 5;
/** Spacing of pins side by side at one place, px: across, and down to the next row of four. */
const SPREAD_PX = 22;
const ROW_PX = 26;
const PER_ROW = 4;

const placeKey = (point: LatLng) => `${point.lat.toFixed(SAME_PLACE_DIGITS)},${point.lng.toFixed(SAME_PLACE_DIGITS)}`;
const samePlace = (a: LatLng, b: LatLng) => placeKey(a) === placeKey(b);

/** A stop pin with what joins it to another route's stop of the same visit. */
type StopPin = DrawnPin & { together?: string; routeName: string; stopTitle: string };

/** One route's stops as pins: a place visited twice on the route is one pin labelled with both numbers ("1,4"). */
function stopPins(route: MapRoute): StopPin[] {
  const atPlace = new Map<string, { stop: MapStop; labels: string[]; titles: string[] }>();
  route.stops.forEach((stop, index) => {
    const key = placeKey(stop);
    const pin = atPlace.get(key) ?? { stop, labels: [], titles: [] };
    pin.labels.push(stop.label ?? String(index + 1));
    pin.titles.push(stop.title);
    atPlace.set(key, pin);
  });
  return [...atPlace.values()].map(({ stop, labels, titles }) => ({
    together: labels.length === 1 ? stop.together : undefined,
    routeName: route.name,
    stopTitle: titles[0],
    key: `stop:${route.id}:${stop.id}`,
    lat: stop.lat,
    lng: stop.lng,
    kind: 'stop',
    label: labels.join(','),
    color: route.color,
    // A merged pin opens its first stop.
    title: labels.length === 1
      ? `${route.name}: ${titles[0]}`
      : `${route.name}: ${labels.map((label, index) => `stop ${label} ${titles[index]}`).join(', ')}`,
    offset: [0, 0],
    target: { kind: 'stop', routeId: route.id, stopId: stop.id },
    movable: false,
  }));
}

/**
 * Each stop pin as drawn: the routes' pins of one two-carer visit (same `together` key, one place) become one pin, the
 * first route's colour and stop, labelled with both numbers ("3+2") and titled with both practitioners.
 */
function drawnStopPins(pins: readonly StopPin[]): Map<StopPin, DrawnPin | null> {
  const groups = new Map<string, StopPin[]>();
  for (const pin of pins) {
    if (pin.together === undefined) continue;
    const key = `${pin.together}|${placeKey(pin)}`;
    groups.set(key, [...(groups.get(key) ?? []), pin]);
  }
  const drawn = new Map<StopPin, DrawnPin | null>(pins.map((pin) => {
    const { together: _together, routeName: _routeName, stopTitle: _stopTitle, ...plain } = pin;
    return [pin, plain];
  }));
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const [first, ...rest] = group;
    drawn.set(first, {
      ...drawn.get(first)!,
      label: group.map((pin) => pin.label).join('+'),
      title: `Two-carer visit, ${group.map((pin) => `${pin.routeName} (stop ${pin.label})`).join(' and ')}: ${first.stopTitle}`,
    });
    for (const pin of rest) drawn.set(pin, null);
  }
  return drawn;
}

function placePins(route: MapRoute): DrawnPin[] {
  const pin = (place: MapPlace, kind: PinKind, label: string, title: string): DrawnPin => ({
    key: `${kind}:${route.id}`, lat: place.lat, lng: place.lng, kind, label, color: route.color, title: `${route.name}: ${title}`,
    offset: [0, 0], target: { kind: 'place', routeId: route.id }, movable: false,
  });
  const { start, end } = route;
  if (start && end && samePlace(start, end)) return [pin(start, 'startEnd', 'S/E', `starts and ends at ${start.name}`)];
  return [
    ...(start ? [pin(start, 'start', 'S', `starts at ${start.name}`)] : []),
    ...(end ? [pin(end, 'end', 'E', `ends at ${end.name}`)] : []),
  ];
}

/** The points a route's legs join, in order: start place, stops, end place (or the road path when known). */
export function routePoints(route: MapRoute): LatLng[] {
  if (route.path && route.path.length > 1) return [...route.path];
  return [...(route.start ? [route.start] : []), ...route.stops, ...(route.end ? [route.end] : [])].map(({ lat, lng }) => ({ lat, lng }));
}

/**
 * Pins at one place (several practitioners visiting one house, a shared depot) are set side by side, four to a row;
 * further rows go below the point, never above it, where a pin already stands 28 px tall.
 */
export function spreadOverlapping(pins: DrawnPin[]): DrawnPin[] {
  const groups = new Map<string, number[]>();
  pins.forEach((pin, index) => {
    const key = placeKey(pin);
    groups.set(key, [...(groups.get(key) ?? []), index]);
  });
  const spread = pins.slice();
  for (const indices of groups.values()) {
    if (indices.length < 2) continue;
    const columns = Math.min(indices.length, PER_ROW);
    indices.forEach((pinIndex, position) => {
      const column = position % PER_ROW;
      const row = Math.floor(position / PER_ROW);
      spread[pinIndex] = { ...pins[pinIndex], offset: [Math.round((column - (columns - 1) / 2) * SPREAD_PX), row * ROW_PX] };
    });
  }
  return spread;
}

export function buildMapModel({ routes, pins, hidden, legs, fit, movablePins }: MapModelInput): MapModel {
  const shownRoutes = routes.filter((route) => !hidden.has(route.id));
  const drawn: DrawnPin[] = [];
  const lines: DrawnLine[] = [];
  const routeStops = new Map(shownRoutes.map((route) => [route.id, stopPins(route)]));
  const stopsDrawn = drawnStopPins([...routeStops.values()].flat());
  for (const route of shownRoutes) {
    drawn.push(...placePins(route), ...routeStops.get(route.id)!.flatMap((pin) => stopsDrawn.get(pin) ?? []));
    const points = routePoints(route);
    if (legs && points.length > 1) lines.push({ key: `route:${route.id}`, color: route.color, title: route.name, points });
  }
  for (const pin of pins) {
    drawn.push({
      key: `pin:${pin.id}`, lat: pin.lat, lng: pin.lng, kind: 'pin', label: pin.label ?? '', color: pin.color ?? DEFAULT_PIN_COLOR,
      title: pin.title ?? '', offset: [0, 0], target: { kind: 'pin', pinId: pin.id }, movable: movablePins && pin.movable !== false,
    });
  }

  const everyPoint = (list: readonly MapRoute[]) => [
    ...list.flatMap((route) => [...routePoints(route), ...route.stops]),
    ...pins,
  ];
  const fitPoints = (fit === 'all' ? everyPoint(routes) : everyPoint(shownRoutes)).map(({ lat, lng }) => ({ lat, lng }));
  return { pins: spreadOverlapping(drawn), lines, fitPoints };
}

/** The south-west and north-east corners of points; null for none. */
export function boundsOf(points: readonly LatLng[]): { south: number; west: number; north: number; east: number } | null {
  if (points.length === 0) return null;
  return {
    south: Math.min(...points.map((point) => point.lat)),
    north: Math.max(...points.map((point) => point.lat)),
    west: Math.min(...points.map((point) => point.lng)),
    east: Math.max(...points.map((point) => point.lng)),
  };
}

/** A short key for a list of points: the camera refits only when it changes. */
export function pointsKey(points: readonly LatLng[]): string {
  return points.map(placeKey).join(';');
}

/** Why a street map gave way to the offline drawing. */
export type UnavailableReason = 'webgl' | 'style' | 'script';

/** What MapView gives a street-map renderer (MapLibre, Google): the model drawn, and where to report. */
export interface StreetMapProps {
  pins: readonly DrawnPin[];
  lines: readonly DrawnLine[];
  fitPoints: readonly LatLng[];
  fit: MapFit;
  height: number;
  onPinClick?: (pin: DrawnPin) => void;
  onPinMove?: (pin: DrawnPin, to: LatLng) => void;
  /** The map cannot be drawn here: MapView falls back to the next renderer (at last the offline drawing). */
  onUnavailable: (reason: UnavailableReason) => void;
}
