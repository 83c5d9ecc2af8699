// Applied routes as the API sees them: a day's routes (a PRACTITIONER sees only their own practitioners'), removing a
// route, and taking one visit off its route. Arrival times stay as the route set them, and become editable again.
import { practitionerScope, type AuthContext } from '../../auth/access';
import type { Schemas } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { conflict, notFound } from '../../http/errors';
import { checkDay } from './day-model';
import type { DbOrTx } from '../../db/client';
import { clearAppointmentRoute, lockAppointmentRoute } from './appointment-writes';
import {
  deleteRouteRow, dropStopFromRoute, listRoutesOfDay, markTouchedRoutesStale, type DayTouch, type RouteRow,
} from './routes-repository';

export function toRouteDto(route: RouteRow): Schemas['Route'] {
  return {
    id: route.id,
    practitioner_id: route.practitioner_id,
    practitioner_name: route.practitioner_name,
    color: route.color,
    day: route.day,
    start_place: route.start_place,
    end_place: route.end_place,
    stops: route.stops,
    return_leg: route.return_leg,
    metrics: route.metrics,
    optimization_id: route.optimization_job_id,
    applied_by_name: route.applied_by_name,
    applied_at: route.applied_at.toISOString(),
    stale: route.stale_at !== null,
    stale_at: route.stale_at?.toISOString() ?? null,
  };
}

/**
 * A visit was moved, cancelled or added outside the optimiser (an import, a move by hand): the routes of the days it
 * left and reached no longer describe them. Marks those routes stale in the caller's transaction; answers their ids.
 */
export function markRoutesStale(db: DbOrTx, businessAccountId: number, touches: readonly DayTouch[]): Promise<number[]> {
  return markTouchedRoutesStale(db, businessAccountId, touches);
}

export async function listRoutes(ctx: AppContext, auth: AuthContext, date: string): Promise<Schemas['Route'][]> {
  checkDay(date);
  const rows = await listRoutesOfDay(ctx.db, auth.businessAccountId, date, practitionerScope(auth));
  return rows.map(toRouteDto);
}

export async function deleteRoute(ctx: AppContext, auth: AuthContext, id: number): Promise<void> {
  if (!(await deleteRouteRow(ctx.db, auth.businessAccountId, id))) throw notFound('Route');
}

export async function removeFromRoute(ctx: AppContext, auth: AuthContext, appointmentId: number): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const appointment = await lockAppointmentRoute(tx, auth.businessAccountId, appointmentId);
    if (!appointment) throw notFound('Appointment');
    if (appointment.routeId === null) throw conflict('This appointment is not part of a route.', 'APPOINTMENT_NOT_ROUTED');
    await clearAppointmentRoute(tx, auth.businessAccountId, appointmentId);
    await dropStopFromRoute(tx, auth.businessAccountId, appointmentId, appointment.routeId);
  });
}
