// HTTP handlers of optimisation runs, the optimiser's place for a visit (Insert into a route) and the day checker, which
// reads a day's travel as the runs do (operationIds in openapi.yaml).
import { callerOf } from '../../auth/access';
import { bodyOf, paramsOf, queryOf, type Handlers } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { listDayIssues } from './day-issues';
import { findInsertion } from './visits-service';
import {
  applyOptimization, cancelOptimization, createOptimization, discardOptimization, findVisibleOptimization, optimizationDtoOf, toOptimizationDto,
  undoOptimization,
} from './service';

export function optimizationsHandlers(ctx: AppContext): Handlers {
  return {
    createOptimization: async (request, reply) => {
      const run = await createOptimization(ctx, callerOf(request), bodyOf(request, 'createOptimization'));
      return reply.code(201).send({ optimization: await optimizationDtoOf(ctx, run) });
    },
    getOptimization: async (request) => ({
      optimization: await optimizationDtoOf(ctx, await findVisibleOptimization(ctx, callerOf(request), paramsOf(request, 'getOptimization').id)),
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

    findAppointmentInsertion: async (request) =>
      findInsertion(ctx, callerOf(request), paramsOf(request, 'findAppointmentInsertion').id, bodyOf(request, 'findAppointmentInsertion').practitioner_ids),
    listDayIssues: async (request) => listDayIssues(ctx, callerOf(request), queryOf(request, 'listDayIssues').date),
  };
}
