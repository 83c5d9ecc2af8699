// POST /travel: the travel between consecutive points as the optimiser reckons it, for views that show a day that
// has no applied route (the run sheet's legs) and for maps that draw roads. OSRM's route service when OSRM_URL is set
// (legs and, when asked, the road's line in one request), else, or when OSRM fails, the optimiser's great-circle
// estimate. No database: nothing here belongs to a business.
import type { Logger } from 'pino';
import type { Schemas } from '../../http/contract';
import { HaversineProvider } from '../../optimizer';

type LatLng = Schemas['LatLng'];
export type TravelAnswer = { legs: Schemas['RouteLeg'][]; geometry: LatLng[] | null; source: 'osrm' | 'estimate' };

/** OSRM is asked for at most this long before the estimate answers instead. */
export const OSRM_TIMEOUT_MS = 5_000;

interface OsrmRouteResponse {
  code: string;
  routes?: Array<{ geometry?: { coordinates: [number, number][] }; legs: Array<{ duration: number; distance: number }> }>;
}

export class TravelService {
  private readonly estimate = new HaversineProvider();

  constructor(private readonly osrmUrl: string | undefined, private readonly log: Logger, private readonly fetchImpl: typeof fetch = fetch) {}

  async measure(points: readonly LatLng[], withGeometry: boolean): Promise<TravelAnswer> {
    if (this.osrmUrl) {
      try {
        return await this.fromOsrm(points, withGeometry);
      } catch (error) {
        this.log.warn({ err: error }, 'OSRM route request failed; travel estimated instead');
      }
    }
    const legs = points.slice(1).map((point, index) => {
      const { duration, distance } = this.estimate.leg(points[index], point);
      return { travel_seconds: Math.round(duration), travel_metres: Math.round(distance) };
    });
    return { legs, geometry: null, source: 'estimate' };
  }

  private async fromOsrm(points: readonly LatLng[], withGeometry: boolean): Promise<TravelAnswer> {
    const path = points.map((point) => `${point.lng.toFixed(6)},${point.lat.toFixed(6)}`).join(';');
    const query = withGeometry ? 'overview=full&geometries=geojson' : 'overview=false';
    const url = `${this.osrmUrl!.replace(/\/+$/, '')}/route/v1/driving/${path}?${query}&steps=false`;
    const response = await this.fetchImpl(url, { signal: AbortSignal.timeout(OSRM_TIMEOUT_MS) });
    const body = (await response.json().catch(() => ({ code: 'InvalidResponse' }))) as OsrmRouteResponse;
    const route = body.routes?.[0];
    if (!response.ok || body.code !== 'Ok' || !route || route.legs.length !== points.length - 1) {
      throw new Error(`OSRM answered HTTP ${response.status} ${body.code}`);
    }
    return {
      legs: route.legs.map((leg) => ({ travel_seconds: Math.round(leg.duration), travel_metres: Math.round(leg.distance) })),
      geometry: withGeometry && route.geometry ? route.geometry.coordinates.map(([lng, lat]) => ({ lat, lng })) : null,
      source: 'osrm',
    };
  }
}
