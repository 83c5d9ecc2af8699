// How precise a map point is, and where it came from, in words: every page that shows a point says this (issue 12).
import type { components } from '../api/schema';

export type GeoPrecision = components['schemas']['GeoPrecision'];
export type GeoSource = components['schemas']['GeoSource'];

const PRECISION_WORDS: Record<GeoPrecision, string> = {
  address: 'Placed at the address',
  street: 'Placed on the street, not at the house',
  suburb: 'Placed at the suburb’s centre',
  none: 'Not on the map',
};

const SOURCE_WORDS: Record<NonNullable<GeoSource>, string> = {
  google: 'Google',
  nominatim: 'the geocoding server',
  gazetteer: 'the Australian suburb and postcode table',
  sandbox: 'the demo’s made-up streets, not for navigation',
  pms: 'the practice management system',
  manual: 'a pin placed by hand',
};

/** "Placed at the suburb’s centre". */
export function precisionInWords(precision: GeoPrecision): string {
  return PRECISION_WORDS[precision];
}

/** "Placed at the suburb’s centre (from the Australian suburb and postcode table)"; the source only when there is one. */
export function placementInWords(precision: GeoPrecision, source: GeoSource | undefined): string {
  const words = precisionInWords(precision);
  return source && precision !== 'none' ? `${words} (from ${SOURCE_WORDS[source]})` : words;
}

/** Latitude and longitude to four decimals (about 10 m): "-27.4698, 153.0251". */
export function coordinatesInWords(lat: number, lng: number): string {
  return `${lat.toFixed(4)}, ${lng.toFixed(4)}`;
}

/** Whether a place has a map position (business locations may come without one). */
export function isPlaced<T extends { lat?: number | null; lng?: number | null }>(place: T): place is T & { lat: number; lng: number } {
  return typeof place.lat === 'number' && typeof place.lng === 'number';
}
