// Appointments: range list, details, arrival time and its lock, moving a visit by hand and taking it off its route (the
// schedule's rules decide both), and the visit's steps as it happens, with a done visit's note written after Done.
// Their extra details (the change log with the PMS record and the sync history) are answered by the sync module, which
// knows the PMS side.
import { callerOf } from '../../auth/access';
import { bodyOf, paramsOf, queryOf, type Handlers } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { moveVisit, removeFromRoute } from '../schedule';
import { appointmentsServiceOf } from './service';
import { VisitNoteService } from './visit-note';
import { VisitStepsService } from './visit-steps';

export function appointmentsHandlers(ctx: AppContext): Handlers {
  const service = appointmentsServiceOf(ctx);
  const visitSteps = new VisitStepsService(ctx);
  const visitNote = new VisitNoteService(ctx);
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
    updateAppointmentArrivalTime: async (request) => service.updateArrivalTime(
      callerOf(request), paramsOf(request, 'updateAppointmentArrivalTime').id, bodyOf(request, 'updateAppointmentArrivalTime').arrive_at,
    ),
    recordVisitStep: async (request, reply) => {
      const { created, step, appointment } = await visitSteps.record(
        callerOf(request), paramsOf(request, 'recordVisitStep').id, bodyOf(request, 'recordVisitStep'),
      );
      return reply.code(created ? 201 : 200).send({ step, appointment });
    },
    setVisitNote: async (request) => ({
      appointment: await visitNote.set(callerOf(request), paramsOf(request, 'setVisitNote').id, bodyOf(request, 'setVisitNote').note),
    }),
    setAppointmentArrivalLock: async (request) => ({
      appointment: await service.setArrivalLock(
        callerOf(request), paramsOf(request, 'setAppointmentArrivalLock').id, bodyOf(request, 'setAppointmentArrivalLock').locked,
      ),
    }),
    moveAppointment: async (request) => {
      const auth = callerOf(request);
      const { id } = paramsOf(request, 'moveAppointment');
      const warnings = await moveVisit(ctx, auth, id, bodyOf(request, 'moveAppointment'));
      return { appointment: await service.get(auth, id), warnings };
    },
    removeAppointmentFromRoute: async (request) => {
      const auth = callerOf(request);
      const { id } = paramsOf(request, 'removeAppointmentFromRoute');
      await removeFromRoute(ctx, auth, id);
      return { appointment: await service.get(auth, id) };
    },
  };
}
