// HTTP handlers of optimisation runs and routes (operationIds in openapi.yaml).
import { callerOf } from '../../auth/access';
import { bodyOf, paramsOf, queryOf, type Handlers } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { appointmentsServiceOf } from '../appointments';
import { listDayIssues } from './day-issues';
import { deleteRoute, listRoutes, moveVisit, removeFromRoute } from '../schedule';
import { findInsertion } from './visits-service';
import {
  applyOptimization, cancelOptimization, createOptimization, discardOptimization, findVisibleOptimization, toOptimizationDto, undoOptimization,
} from './service';

export function optimizationsHandlers(ctx: AppContext): Handlers {
  const appointments = appointmentsServiceOf(ctx);
  return {
    createOptimization: async (request, reply) => {
      const run = await createOptimization(ctx, callerOf(request), bodyOf(request, 'createOptimization'));
      return reply.code(201).send({ optimization: toOptimizationDto(run) });
    },
    getOptimization: async (request) => ({
      optimization: toOptimizationDto(await findVisibleOptimization(ctx, callerOf(request), paramsOf(request, 'getOptimization').id)),
    }),
    cancelOptimization: async (request) => ({
      optimization: toOptimizationDto(await cancelOptimization(ctx, callerOf(request), paramsOf(request, 'cancelOptimization').id)),
    }),
    applyOptimization: async (request) => applyOptimization(ctx, callerOf(request), paramsOf(request, 'applyOptimization').id, {
      notifyClients: bodyOf(request, 'applyOptimization')?.notify_clients === true,
    }),
    undoOptimization: async (request) => undoOptimization(ctx, callerOf(request), paramsOf(request, 'undoOptimization').id),
    discardOptimization: async (request) => ({
      optimization: toOptimizationDto(await discardOptimization(ctx, callerOf(request), paramsOf(request, 'discardOptimization').id)),
    }),

    moveAppointment: async (request) => {
      const auth = callerOf(request);
      const { id } = paramsOf(request, 'moveAppointment');
      const warnings = await moveVisit(ctx, auth, id, bodyOf(request, 'moveAppointment'));
      return { appointment: await appointments.get(auth, id), warnings };
    },
    findAppointmentInsertion: async (request) =>
      findInsertion(ctx, callerOf(request), paramsOf(request, 'findAppointmentInsertion').id, bodyOf(request, 'findAppointmentInsertion').practitioner_ids),
    listDayIssues: async (request) => listDayIssues(ctx, callerOf(request), queryOf(request, 'listDayIssues').date),
    listRoutes: async (request) => ({ routes: await listRoutes(ctx, callerOf(request), queryOf(request, 'listRoutes').date) }),
    deleteRoute: async (request, reply) => {
      await deleteRoute(ctx, callerOf(request), paramsOf(request, 'deleteRoute').id);
      return reply.code(204).send();
    },
    removeAppointmentFromRoute: async (request) => {
      const auth = callerOf(request);
      const { id } = paramsOf(request, 'removeAppointmentFromRoute');
      await removeFromRoute(ctx, auth, id);
      return { appointment: await appointments.get(auth, id) };
    },
  };
}
