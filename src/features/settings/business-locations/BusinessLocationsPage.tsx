// /settings/business-locations (ADMIN): the practice management system's business locations as imported, with their
// address, map position and how precise it is. Read-only here (they change in the PMS); a location on the map can be a
// practitioner's start or end place.
import { useQuery } from '@tanstack/react-query';
import { useServices } from '../../../app/ServicesContext';
import { messageOfError } from '../../../api/errors';
import { coordinatesInWords, isPlaced, precisionText } from '../../../lib/geoPrecision';
import type { RoutePageProps } from '../../../router/routeTypes';
import { Card, PageHeader } from '../../../ui/PageHeader';
import { PageSpinner } from '../../../ui/PageSpinner';
import { PointPrecision } from '../../../ui/PointPrecision';
import { ErrorNote } from '../../../ui/forms';
import { businessLocationQueries } from '../../../entities/appointments/queries';

export default function BusinessLocationsPage({ route }: RoutePageProps) {
  const { api } = useServices();
  const locations = useQuery(businessLocationQueries.all(api));
  return (
    <>
      <PageHeader title={route.title}>
        These come from your practice management system with each import; change them there. A location on the map can be a practitioner’s start or
        end place (Settings → Practitioners).
      </PageHeader>
      <Card className="p-0">
        {locations.isPending && <PageSpinner label="Loading business locations" />}
        {locations.isError && (
          <div className="p-4">
            <ErrorNote>{messageOfError(locations.error, 'An error has occurred. Could not load business location list.')}</ErrorNote>
          </div>
        )}
        {locations.data && locations.data.length === 0 && (
          <p className="px-6 py-10 text-center text-sm text-slate-500 dark:text-slate-400">No business locations yet: they arrive with the first import.</p>
        )}
        {locations.data && locations.data.length > 0 && (
          <ul aria-label="Business locations" className="divide-y divide-slate-200 dark:divide-slate-800">
            {locations.data.map((location) => (
              <li key={location.id} data-testid="business-location" className="grid gap-1 px-6 py-4 text-sm md:grid-cols-[minmax(0,14rem)_minmax(0,1fr)_minmax(0,18rem)] md:gap-6">
                <h2 className="font-medium text-slate-900 dark:text-white">{location.name}</h2>
                <p className="text-slate-700 dark:text-slate-300">{location.address ?? <span className="text-slate-500">No address in the practice management system</span>}</p>
                <div data-testid="placement">
                  {isPlaced(location) ? (
                    <>
                      <PointPrecision precision={location.geo_precision ?? 'address'} besideWords />
                      <p className="text-slate-700 dark:text-slate-300">{precisionText(location.geo_precision ?? 'address', location.geo_source ?? null)}</p>
                      <p className="font-mono text-xs text-slate-500 dark:text-slate-400">{coordinatesInWords(location.lat, location.lng)}</p>
                    </>
                  ) : (
                    <p className="text-amber-800 dark:text-amber-200">Not on the map: it cannot be a start or end place until the address can be placed.</p>
                  )}
                </div>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </>
  );
}
