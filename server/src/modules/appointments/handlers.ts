// Appointments: range list, details, extra details (sync mapping, change log, sync history), arrival time and its lock.
import { callerOf } from '../../auth/access';
import { bodyOf, paramsOf, queryOf, type Handlers } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { AppointmentsService } from './service';

export function appointmentsHandlers(ctx: AppContext): Handlers {
  const service = new AppointmentsService(ctx);
  return {
    listAppointments: async (request, reply) => {
      const query = queryOf(request, 'listAppointments');
      const json = await service.listJson(callerOf(request), {
        startDate: query.start_date,
        endDate: query.end_date,
        practitionerIds: query.practitioner_ids,
        appointmentTypeIds: query.appointment_type_ids,
        businessLocationIds: query.business_location_ids,
      }, query.per_page ? { page: query.page ?? 1, perPage: query.per_page } : undefined);
      // Already JSON, built by the database: a string payload skips Fastify's serializer.
      return reply.type('application/json; charset=utf-8').send(json);
    },
    getAppointment: async (request) => ({ appointment: await service.get(callerOf(request), paramsOf(request, 'getAppointment').id) }),
    getAppointmentExtraDetails: async (request) => service.extraDetails(callerOf(request), paramsOf(request, 'getAppointmentExtraDetails').id),
    updateAppointmentArrivalTime: async (request) => ({
      appointment: await service.updateArrivalTime(
        callerOf(request), paramsOf(request, 'updateAppointmentArrivalTime').id, bodyOf(request, 'updateAppointmentArrivalTime').arrive_at,
      ),
    }),
    setAppointmentArrivalLock: async (request) => ({
      appointment: await service.setArrivalLock(
        callerOf(request), paramsOf(request, 'setAppointmentArrivalLock').id, bodyOf(request, 'setAppointmentArrivalLock').locked,
      ),
    }),
  };
}
