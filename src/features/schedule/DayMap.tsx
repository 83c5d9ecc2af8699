// The day schedule's map: each practitioner's visits numbered in visiting order, in their colour, with the legs between
// them (along the roads when the server has OSRM) and their start and end places; fitted to the
// day's visits, with a legend to show or hide each practitioner.
import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useServices } from '../../app/ServicesContext';
import { openAppointmentModal } from '../../app/modalStore';
import { MapView } from '../../ui/map/MapView';
import { precisionOfPlaces, PrecisionSummary } from '../../ui/PointPrecision';
import { dayPlans, mapRouteOf } from '../../entities/routes/dayPlan';
import { routeQueries } from '../../entities/routes/queries';
import { useRoadPaths } from '../../entities/routes/useRoadPaths';
import type { AppointmentSummary } from '../../entities/appointments/api';

export function DayMap({ appointments, day }: { appointments: readonly AppointmentSummary[]; day: string }) {
  const { api } = useServices();
  // The day as the server reads it now (the run sheet's and the lanes' source too); until it answers, visits in arrival order.
  const travel = useQuery(routeQueries.dayTravel(api, day));
  const plans = useMemo(() => dayPlans(appointments, travel.data), [appointments, travel.data]);
  const mapRoutes = useMemo(() => plans.map(mapRouteOf).filter((route) => route.stops.length > 0), [plans]);

  const drawn = useRoadPaths(mapRoutes);
  const precisions = useMemo(
    () => appointments.filter((visit) => visit.status === 'BOOKED')
      .map((visit) => ({ name: visit.client?.full_name ?? `Visit #${visit.id}`, precision: visit.geo_precision })),
    [appointments],
  );
  const places = useMemo(
    () => precisionOfPlaces(plans.map((plan) => ({ name: plan.name, places: [plan.start, plan.end] }))),
    [plans],
  );

  if (mapRoutes.length === 0) return null;
  return (
    <div className="border-t border-slate-200 p-4 dark:border-slate-800">
      <MapView routes={drawn} height={360} onStopClick={(stop) => openAppointmentModal(Number(stop.id))} />
      <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">Numbers give each practitioner’s visiting order; squares are where the day starts (S) and ends (E).</p>
      <PrecisionSummary points={precisions} />
      <PrecisionSummary points={places} noun="start and end places" />
    </div>
  );
}
