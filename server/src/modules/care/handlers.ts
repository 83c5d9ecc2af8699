// Care: open visits, care plans and their allocation, client absences and public holidays (ADMIN and coordinators;
// public holidays are written by an ADMIN). Roles are enforced by the contract's x-roles; the business by every query.
import { callerOf } from '../../auth/access';
import { bodyOf, paramsOf, queryOf, type Handlers } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { applyCarePlanAllocation, getCarePlanAllocation, startCarePlanAllocation } from './allocation-service';
import {
  bookVisitFillingOpenVisit, createCarePlan, createClientAbsence, createOpenVisit, createPublicHoliday, deleteClientAbsence, deleteOpenVisit, deletePublicHoliday, endCarePlan,
  fillOpenVisit, listCarePlans, openVisitFromBooking, listClientAbsences, listOpenVisits, listPublicHolidays, updateCarePlan,
} from './service';

export function careHandlers(ctx: AppContext): Handlers {
  return {
    listOpenVisits: async (request) => ({ open_visits: await listOpenVisits(ctx, callerOf(request), queryOf(request, 'listOpenVisits')) }),
    createOpenVisit: async (request, reply) =>
      reply.code(201).send({ open_visit: await createOpenVisit(ctx, callerOf(request), bodyOf(request, 'createOpenVisit')) }),
    deleteOpenVisit: async (request, reply) => {
      await deleteOpenVisit(ctx, callerOf(request), paramsOf(request, 'deleteOpenVisit').id);
      return reply.code(204).send();
    },
    // Wraps bookings' POST /visits: a booking with open_visit_id fills that open visit in its transaction.
    bookVisit: async (request, reply) => reply.code(201).send(await bookVisitFillingOpenVisit(ctx, callerOf(request), bodyOf(request, 'bookVisit'))),
    fillOpenVisit: async (request, reply) =>
      reply.code(201).send(await fillOpenVisit(ctx, callerOf(request), paramsOf(request, 'fillOpenVisit').id, bodyOf(request, 'fillOpenVisit'))),
    openVisitFromBooking: async (request, reply) => reply.code(201).send(
      await openVisitFromBooking(ctx, callerOf(request), paramsOf(request, 'openVisitFromBooking').id, bodyOf(request, 'openVisitFromBooking')),
    ),
    listCarePlans: async (request) => ({ care_plans: await listCarePlans(ctx, callerOf(request), paramsOf(request, 'listCarePlans').id) }),
    createCarePlan: async (request, reply) => reply.code(201).send({
      care_plan: await createCarePlan(ctx, callerOf(request), paramsOf(request, 'createCarePlan').id, bodyOf(request, 'createCarePlan')),
    }),
    updateCarePlan: async (request) => ({
      care_plan: await updateCarePlan(ctx, callerOf(request), paramsOf(request, 'updateCarePlan').id, bodyOf(request, 'updateCarePlan')),
    }),
    endCarePlan: async (request) => endCarePlan(ctx, callerOf(request), paramsOf(request, 'endCarePlan').id, bodyOf(request, 'endCarePlan').ends_on),
    startCarePlanAllocation: async (request, reply) =>
      reply.code(202).send({ allocation: await startCarePlanAllocation(ctx, callerOf(request), bodyOf(request, 'startCarePlanAllocation')) }),
    getCarePlanAllocation: async (request) => ({ allocation: await getCarePlanAllocation(ctx, callerOf(request), paramsOf(request, 'getCarePlanAllocation').id) }),
    applyCarePlanAllocation: async (request) => ({ allocation: await applyCarePlanAllocation(ctx, callerOf(request), paramsOf(request, 'applyCarePlanAllocation').id) }),
    listClientAbsences: async (request) => ({ absences: await listClientAbsences(ctx, callerOf(request), paramsOf(request, 'listClientAbsences').id) }),
    createClientAbsence: async (request, reply) => reply.code(201).send(
      await createClientAbsence(ctx, callerOf(request), paramsOf(request, 'createClientAbsence').id, bodyOf(request, 'createClientAbsence')),
    ),
    deleteClientAbsence: async (request, reply) => {
      await deleteClientAbsence(ctx, callerOf(request), paramsOf(request, 'deleteClientAbsence').id);
      return reply.code(204).send();
    },
    listPublicHolidays: async (request) => ({ public_holidays: await listPublicHolidays(ctx, callerOf(request)) }),
    createPublicHoliday: async (request, reply) =>
      reply.code(201).send({ public_holiday: await createPublicHoliday(ctx, callerOf(request), bodyOf(request, 'createPublicHoliday')) }),
    deletePublicHoliday: async (request, reply) => {
      await deletePublicHoliday(ctx, callerOf(request), paramsOf(request, 'deletePublicHoliday').id);
      return reply.code(204).send();
    },
  };
}
