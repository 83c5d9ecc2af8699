// The density view of single pins (a report's hundreds of clients): where pins crowd at the scale drawn, they become
// one counted circle; where they don't, they stay pins. Cells are squares of the screen, so zooming out gathers more
// pins per circle and zooming in (on a street map) parts them again. Route stops and places are never gathered: their
// numbers are the point. Google Maps does the same with its own clusterer (GoogleMapView).
import type { DrawnPin } from '../../lib/map/mapModel';
import type { LatLng } from '../../lib/map/mapTypes';

/** The side of a cell, px: about two pins' width. */
export const DENSITY_CELL_PX = 48;

/** A counted circle, drawn at the mean of its pins' points. */
export interface DensityCell extends LatLng {
  key: string;
  count: number;
  /** The colour most of its pins have (e.g. rose when most are beyond a radius). */
  color: string;
  pins: DrawnPin[];
}

export interface DensityView {
  /** Drawn as they are: route stops and places, and single pins alone in their cell. */
  pins: DrawnPin[];
  cells: DensityCell[];
}

export function densityView(pins: readonly DrawnPin[], toScreen: (point: LatLng) => { x: number; y: number }, cellPx = DENSITY_CELL_PX): DensityView {
  const shown: DrawnPin[] = [];
  const byCell = new Map<string, DrawnPin[]>();
  for (const pin of pins) {
    if (pin.kind !== 'pin' || pin.movable) {
      shown.push(pin);
      continue;
    }
    const { x, y } = toScreen(pin);
    const key = `${Math.floor(x / cellPx)}:${Math.floor(y / cellPx)}`;
    byCell.set(key, [...(byCell.get(key) ?? []), pin]);
  }
  const cells: DensityCell[] = [];
  for (const [key, members] of byCell) {
    if (members.length === 1) {
      shown.push(members[0]);
      continue;
    }
    cells.push({
      key: `cell:${key}`,
      lat: members.reduce((sum, pin) => sum + pin.lat, 0) / members.length,
      lng: members.reduce((sum, pin) => sum + pin.lng, 0) / members.length,
      count: members.length,
      color: mostCommon(members.map((pin) => pin.color)),
      pins: members,
    });
  }
  return { pins: shown, cells };
}

function mostCommon(values: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].reduce((best, entry) => (entry[1] > best[1] ? entry : best))[0];
}

/** The circle's radius, px: grows with the count, slowly (2 → 12 px, 1,000 → 30 px). */
export const densityRadius = (count: number) => Math.min(30, 10 + 2 * Math.log2(count));

/** The circle's name: how many, and the first few titles. */
export function densityTitle(cell: DensityCell): string {
  const named = cell.pins.map((pin) => pin.title).filter(Boolean);
  const first = named.slice(0, 5).join(', ');
  return `${cell.count} here${first ? `: ${first}${named.length > 5 ? ` and ${named.length - 5} more` : ''}` : ''}`;
}
