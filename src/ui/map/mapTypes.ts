// What every map view draws, whichever renderer draws it, and the maps' fixed settings: the centre (Brisbane) and zoom
// a map opens at when it has no markers, its height, and the marker clustering (radius 60, viewport padding 60).

export interface MapMarker {
  id: string | number;
  lat: number;
  lng: number;
  /** Hover text and accessible name. */
  title?: string;
  /** Short text drawn on the marker (e.g. a visit's order in a route). */
  label?: string;
  color?: string;
}

export interface MapRoute {
  id: string | number;
  /** Stops in visiting order. */
  points: ReadonlyArray<{ lat: number; lng: number }>;
  color?: string;
  title?: string;
}

export const DEFAULT_MAP_CENTER = { lat: -27.4795412, lng: 153.0160444 } as const;
export const DEFAULT_MAP_ZOOM = 14;
export const DEFAULT_MAP_HEIGHT = 200;
export const CLUSTER_RADIUS = 60;
export const CLUSTER_VIEWPORT_PADDING = 60;

export const hasCoordinates = <T extends { lat?: number | null; lng?: number | null }>(
  value: T,
): value is T & { lat: number; lng: number } =>
  typeof value.lat === 'number' && typeof value.lng === 'number' && Number.isFinite(value.lat) && Number.isFinite(value.lng);
