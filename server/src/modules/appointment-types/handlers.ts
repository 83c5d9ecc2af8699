// Appointment types: GET /appointment_types/all and editing one (ADMIN).
import { callerOf } from '../../auth/access';
import { bodyOf, paramsOf, type Handlers } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { AppointmentTypesService } from './service';

export function appointmentTypesHandlers(ctx: AppContext): Handlers {
  const service = new AppointmentTypesService(ctx);
  return {
    listAllAppointmentTypes: async (request) => ({ appointment_types: await service.list(callerOf(request)) }),
    updateAppointmentType: async (request) => ({
      appointment_type: await service.update(callerOf(request), paramsOf(request, 'updateAppointmentType').id, bodyOf(request, 'updateAppointmentType')),
    }),
  };
}
