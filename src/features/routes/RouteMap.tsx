// Routes on the map, one colour per practitioner: the start place, the stops numbered in visiting order, the end
// place, joined in that order. The only place the routes feature touches src/ui/map, so that the map's own API (stops
// and legs, MapLibre) can replace what it is given here without the views changing.
import { useMemo } from 'react';
import { MapView } from '../../ui/map/MapView';
import type { MapMarker, MapRoute } from '../../ui/map/mapTypes';
import { routeStopMarkers } from '../../ui/map/routeMarkers';

export interface RoutePoint {
  lat: number;
  lng: number;
}

export interface RoutePlace extends RoutePoint {
  name: string;
}

export interface DrawnRoute {
  /** The practitioner's id: one route per practitioner. */
  id: number;
  name: string;
  color: string;
  start: RoutePlace | null;
  end: RoutePlace | null;
  /** In visiting order; `id` is the appointment's. */
  stops: ReadonlyArray<RoutePoint & { id: number; title: string }>;
}

const samePoint = (a: RoutePoint, b: RoutePoint) => a.lat === b.lat && a.lng === b.lng;

function placeMarkers(route: DrawnRoute): MapMarker[] {
  const { start, end } = route;
  if (start && end && samePoint(start, end)) {
    return [{ id: `place-${route.id}`, lat: start.lat, lng: start.lng, color: route.color, label: 'S', title: `${route.name}: starts and ends at ${start.name}` }];
  }
  const markers: MapMarker[] = [];
  if (start) markers.push({ id: `start-${route.id}`, lat: start.lat, lng: start.lng, color: route.color, label: 'S', title: `${route.name}: starts at ${start.name}` });
  if (end) markers.push({ id: `end-${route.id}`, lat: end.lat, lng: end.lng, color: route.color, label: 'E', title: `${route.name}: ends at ${end.name}` });
  return markers;
}

export function RouteMap({ routes, height = 360, onStopClick }: { routes: readonly DrawnRoute[]; height?: number; onStopClick?: (appointmentId: number) => void }) {
  const { markers, lines } = useMemo(() => {
    const markerList: MapMarker[] = [];
    const lineList: MapRoute[] = [];
    for (const route of routes) {
      markerList.push(...placeMarkers(route), ...routeStopMarkers(route.stops, { color: route.color, routeTitle: route.name }));
      const points = [...(route.start ? [route.start] : []), ...route.stops, ...(route.end ? [route.end] : [])].map(({ lat, lng }) => ({ lat, lng }));
      if (points.length > 1) lineList.push({ id: route.id, color: route.color, title: route.name, points });
    }
    return { markers: markerList, lines: lineList };
  }, [routes]);

  if (markers.length === 0) return <p className="rounded-lg bg-slate-100 px-3 py-6 text-center text-sm text-slate-600 dark:bg-slate-800 dark:text-slate-300">No stop has a map position.</p>;
  return (
    <MapView
      markers={markers}
      routes={lines}
      height={height}
      onMarkerClick={onStopClick ? (marker) => typeof marker.id === 'number' && onStopClick(marker.id) : undefined}
    />
  );
}
