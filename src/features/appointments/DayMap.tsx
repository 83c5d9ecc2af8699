// The day schedule's map: each practitioner's visits numbered in visiting order, in their colour, with the legs between
// them (along the roads when the server has OSRM) and, on a routed day, the route's start and end places; fitted to the
// day's visits, with a legend to show or hide each practitioner.
import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useServices } from '../../app/ServicesContext';
import { openAppointmentModal } from '../../app/modalStore';
import { MapView } from '../../ui/map/MapView';
import { precisionOfPlaces, PrecisionSummary } from '../../ui/PointPrecision';
import { dayPlans, mapRouteOf, routeQueries, useRoadPaths } from '../routes';
import type { AppointmentSummary } from './api';

export function DayMap({ appointments, day }: { appointments: readonly AppointmentSummary[]; day: string }) {
  const { api } = useServices();
  // Without the day's routes (still loading, or refused) the visits are drawn in arrival order.
  const routes = useQuery(routeQueries.day(api, day));
  const mapRoutes = useMemo(
    () => dayPlans(appointments, routes.data ?? []).map(mapRouteOf).filter((route) => route.stops.length > 0),
    [appointments, routes.data],
  );

  const drawn = useRoadPaths(mapRoutes);
  const precisions = useMemo(
    () => appointments.filter((visit) => visit.status === 'BOOKED')
      .map((visit) => ({ name: visit.client?.full_name ?? `Visit #${visit.id}`, precision: visit.geo_precision })),
    [appointments],
  );
  const places = useMemo(
    () => precisionOfPlaces((routes.data ?? []).map((route) => ({ name: route.practitioner_name, places: [route.start_place, route.end_place] }))),
    [routes.data],
  );

  if (mapRoutes.length === 0) return null;
  return (
    <div className="border-t border-slate-200 p-4 dark:border-slate-800">
      <MapView routes={drawn} height={360} onStopClick={(stop) => openAppointmentModal(Number(stop.id))} />
      <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">Numbers give each practitioner’s visiting order; squares are where a routed day starts (S) and ends (E).</p>
      <PrecisionSummary points={precisions} />
      <PrecisionSummary points={places} noun="start and end places" />
    </div>
  );
}
