// The nearby search's server data: one key per search. It sits under the appointment lists' prefix, so whatever
// changes a visit (a move, an applied route, an import) prices the insertions again.
import { queryOptions } from '@tanstack/react-query';
import type { ApiClient } from '../../api/client';
import { geocodeAddress } from '../../api/geocode';
import { appointmentQueries } from '../../entities/appointments/queries';
import { searchNearby, type NearbyQuery } from './api';

export const nearbyQueries = {
  search: (api: ApiClient, query: NearbyQuery) =>
    queryOptions({ queryKey: [...appointmentQueries.lists(), 'nearby', query] as const, queryFn: () => searchNearby(api, query) }),
  /** A typed address placed by the routing geocoder (one line: the geocoder reads it as the street). */
  place: (address: string, api: ApiClient) =>
    queryOptions({ queryKey: ['geocode', address] as const, queryFn: () => geocodeAddress(api, { address_1: address }), staleTime: Infinity }),
};
