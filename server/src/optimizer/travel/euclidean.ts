import type { Location, TravelMatrix, TravelProvider } from '../types';
import { matrixFromLegs } from './matrix';

/**
 * Planar Euclidean travel for benchmark instances: lng = x, lat = y, travel time = distance / speed
 * (speed 1 by default, as in the Solomon convention), double precision, no rounding.
 */
export class EuclideanProvider implements TravelProvider {
  readonly name = 'euclidean';
  constructor(private readonly speed = 1) {}

  async matrix(locations: Location[]): Promise<TravelMatrix> {
    return euclideanMatrix(locations, this.speed);
  }
}

export function euclideanMatrix(locations: Location[], speed = 1): TravelMatrix {
  return matrixFromLegs(locations, (a, b) => {
    const distance = Math.hypot(a.lng - b.lng, a.lat - b.lat);
    return { duration: distance / speed, distance };
  });
}
