import type { Location, TravelMatrix, TravelProvider } from '../types';
import { matrixFromLegs } from './matrix';

const EARTH_RADIUS_M = 6_371_008.8;

export function greatCircleMetres(a: Location, b: Location): number {
  const toRad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * toRad;
  const dLng = (b.lng - a.lng) * toRad;
  const h =
    Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * toRad) * Math.cos(b.lat * toRad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** A stretch of road distance driven at one speed; the last band has upToMetres = Infinity. */
export interface SpeedBand {
  upToMetres: number;
  kmPerHour: number;
}

export interface HaversineOptions {
  /** Road distance ÷ straight-line distance. 1.35 is typical for suburban street grids. */
  circuity: number;
  /**
   * Speeds by cumulative road distance: a 12 km leg drives its first 2 km at the first band's speed,
   * the next 8 km at the second's, and so on. Short legs are slow (local streets, junctions),
   * long ones reach arterial/motorway speeds. Travel time is therefore continuous and increasing.
   */
  bands: SpeedBand[];
  /** Fixed time added to every non-zero leg (parking, walking to the door), seconds. */
  legOverheadSeconds: number;
}

export const DEFAULT_HAVERSINE_OPTIONS: HaversineOptions = {
  circuity: 1.35,
  bands: [
    { upToMetres: 2_000, kmPerHour: 25 },
    { upToMetres: 10_000, kmPerHour: 40 },
    { upToMetres: 30_000, kmPerHour: 60 },
    { upToMetres: Infinity, kmPerHour: 80 },
  ],
  legOverheadSeconds: 0,
};

export function roadSecondsFor(roadMetres: number, bands: SpeedBand[]): number {
  let seconds = 0;
  let from = 0;
  for (const band of bands) {
    if (roadMetres <= from) break;
    const stretch = Math.min(roadMetres, band.upToMetres) - from;
    seconds += stretch / (band.kmPerHour / 3.6);
    from = band.upToMetres;
  }
  return seconds;
}

/** Default provider: great-circle distance × circuity, timed with distance-banded speeds. No I/O. */
export class HaversineProvider implements TravelProvider {
  readonly name = 'haversine';
  readonly options: HaversineOptions;

  constructor(options: Partial<HaversineOptions> = {}) {
    this.options = { ...DEFAULT_HAVERSINE_OPTIONS, ...options };
    if (!(this.options.circuity >= 1)) throw new Error('circuity: must be ≥ 1');
    if (!this.options.bands.length || this.options.bands.some((b) => !(b.kmPerHour > 0))) {
      throw new Error('bands: need at least one band, every kmPerHour > 0');
    }
  }

  leg(a: Location, b: Location): { duration: number; distance: number } {
    const distance = greatCircleMetres(a, b) * this.options.circuity;
    if (distance === 0) return { duration: 0, distance: 0 };
    return { duration: roadSecondsFor(distance, this.options.bands) + this.options.legOverheadSeconds, distance };
  }

  async matrix(locations: Location[]): Promise<TravelMatrix> {
    return matrixFromLegs(locations, (a, b) => this.leg(a, b));
  }
}
