// The roads between a map's stops, when the server can draw them (OSRM_URL): each route's points are sent once to
// POST /travel for their line; without OSRM the routes are returned as they are and the map draws straight legs.
import { useMemo } from 'react';
import { useQueries, useQuery } from '@tanstack/react-query';
import { useServices } from '../../app/ServicesContext';
import { configQueries } from '../../api/queries';
import { routePoints } from '../../lib/map/mapModel';
import type { MapRoute } from '../../lib/map/mapTypes';
import { travelQueries } from './queries';

export function useRoadPaths(routes: readonly MapRoute[]): MapRoute[] {
  const { api } = useServices();
  const config = useQuery(configQueries.current(api));
  const roads = config.data?.road_geometry === true;
  const answers = useQueries({
    queries: routes.map((route) => {
      const points = routePoints(route);
      return { ...travelQueries.between(api, points, true), enabled: roads && points.length > 1 };
    }),
  });
  const paths = answers.map((answer) => answer.data?.geometry ?? null);
  const key = JSON.stringify(paths.map((path) => path?.length ?? 0));
  // eslint-disable-next-line react-hooks/exhaustive-deps -- a new path arrives as a new length; the answers' array is new on every render
  return useMemo(() => routes.map((route, index) => (paths[index] ? { ...route, path: paths[index] } : route)), [routes, key]);
}
