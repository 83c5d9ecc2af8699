// POST /travel: the travel between consecutive points as the optimiser reckons it, for views that show a day that
// has no applied route (the run sheet's legs) and for maps that draw roads. OSRM's route service when OSRM_URL is set
// (legs and, when asked, the road's line in one request, through the provider's OSRM client), else, or when OSRM
// fails, the optimiser's great-circle estimate. No database: nothing here belongs to a business.
import type { Logger } from 'pino';
import type { Schemas } from '../../http/contract';
import { HaversineProvider, type OsrmProvider } from '../../optimizer';

type LatLng = Schemas['LatLng'];
export type TravelAnswer = { legs: Schemas['RouteLeg'][]; geometry: LatLng[] | null; source: 'osrm' | 'estimate' };

/** OSRM is asked for at most this long before the estimate answers instead. */
export const OSRM_TIMEOUT_MS = 5_000;

const wholeLeg = (leg: { duration: number; distance: number }) => ({ travel_seconds: Math.round(leg.duration), travel_metres: Math.round(leg.distance) });

export class TravelService {
  private readonly estimate = new HaversineProvider();

  constructor(private readonly osrm: OsrmProvider | null, private readonly log: Logger) {}

  async measure(points: readonly LatLng[], withGeometry: boolean): Promise<TravelAnswer> {
    if (this.osrm) {
      try {
        const road = await this.osrm.route(points, { geometry: withGeometry, signal: AbortSignal.timeout(OSRM_TIMEOUT_MS) });
        return { legs: road.legs.map(wholeLeg), geometry: road.geometry, source: 'osrm' };
      } catch (error) {
        this.log.warn({ err: error }, 'OSRM route request failed; travel estimated instead');
      }
    }
    const legs = points.slice(1).map((point, index) => wholeLeg(this.estimate.leg(points[index], point)));
    return { legs, geometry: null, source: 'estimate' };
  }
}
