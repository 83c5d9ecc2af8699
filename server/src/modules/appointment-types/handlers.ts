// Appointment types: editing (ADMIN). The list is GET /appointment_types/all in the reference module.
import { and, eq } from 'drizzle-orm';
import { callerOf } from '../../auth/access';
import { appointmentTypes } from '../../db/schema';
import { bodyOf, paramsOf, type Handlers } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { invalid, notFound } from '../../http/errors';
import { toAppointmentTypeDto } from '../reference/handlers';

export function appointmentTypesHandlers({ db }: AppContext): Handlers {
  return {
    updateAppointmentType: async (request) => {
      const { businessAccountId } = callerOf(request);
      const body = bodyOf(request, 'updateAppointmentType');
      const changes: Partial<typeof appointmentTypes.$inferInsert> = { updated_at: new Date() };
      if (body.name !== undefined) {
        changes.name = body.name.trim();
        if (!changes.name) throw invalid('name must not be blank.');
      }
      if (body.duration !== undefined) changes.duration = body.duration;
      if (body.color !== undefined) changes.color = body.color?.toLowerCase() ?? null;
      const [row] = await db.update(appointmentTypes).set(changes)
        .where(and(eq(appointmentTypes.id, paramsOf(request, 'updateAppointmentType').id), eq(appointmentTypes.business_account_id, businessAccountId)))
        .returning();
      if (!row) throw notFound('Appointment type');
      return { appointment_type: toAppointmentTypeDto(row) };
    },
  };
}
