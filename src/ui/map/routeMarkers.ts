// One route's stops as map pins. A place visited twice on the route (the 1st and the 4th stop) is one pin labelled
// with both stop numbers ("1,4"): two pins at the same point would hide one under the other, on every renderer.
import type { MapMarker } from './mapTypes';

export interface RouteStop {
  id: string | number;
  lat: number;
  lng: number;
  /** What the stop is, e.g. the client's name; the pin's title lists it with its number. */
  title: string;
}

export function routeStopMarkers(stops: readonly RouteStop[], { color, routeTitle }: { color?: string; routeTitle: string }): MapMarker[] {
  const atPoint = new Map<string, { stop: RouteStop; numbers: number[]; titles: string[] }>();
  stops.forEach((stop, index) => {
    const point = `${stop.lat},${stop.lng}`;
    const pin = atPoint.get(point) ?? { stop, numbers: [], titles: [] };
    pin.numbers.push(index + 1);
    pin.titles.push(stop.title);
    atPoint.set(point, pin);
  });
  return [...atPoint.values()].map(({ stop, numbers, titles }) => ({
    // A merged pin opens its first stop.
    id: stop.id,
    lat: stop.lat,
    lng: stop.lng,
    color,
    label: numbers.join(','),
    title:
      numbers.length === 1
        ? `${routeTitle}: ${titles[0]}`
        : `${routeTitle}: ${numbers.map((number, index) => `stop ${number} ${titles[index]}`).join(', ')}`,
  }));
}
