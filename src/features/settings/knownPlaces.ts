// The business's places with a position, for telling whether a looked-up address is far from all of them (probably
// the wrong town): its business locations, its custom locations (but the one being edited) and its default map centre.
import { useQuery } from '@tanstack/react-query';
import { useServices } from '../../app/ServicesContext';
import type { KnownPlace } from '../../lib/geoPrecision';
import { useBusinessDefaults } from '../../app/businessDefaults';
import { businessLocationQueries } from '../../entities/appointments/queries';
import { customLocationQueries } from './custom-locations/queries';

export function useKnownPlaces(exceptCustomLocationId?: number): KnownPlace[] {
  const { api } = useServices();
  const { mapCenter } = useBusinessDefaults();
  const businessLocations = useQuery(businessLocationQueries.all(api)).data ?? [];
  const customLocations = useQuery(customLocationQueries.all(api)).data ?? [];
  return [
    ...businessLocations.flatMap((location) => (location.lat != null && location.lng != null ? [{ name: location.name, lat: location.lat, lng: location.lng }] : [])),
    ...customLocations.filter((location) => location.id !== exceptCustomLocationId).map(({ name, lat, lng }) => ({ name, lat, lng })),
    { name: 'the business’s map centre', ...mapCenter },
  ];
}
