// HTTP handlers of booking, rescheduling and cancelling visits written through to the PMS (tag booking in
// openapi.yaml): ADMIN and REGULAR_USER (x-roles).
import { callerOf } from '../../auth/access';
import { bodyOf, paramsOf, queryOf, type Handlers } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { findBestFit } from './best-fit';
import { bookVisit, cancellationReasons, cancelVisit, discardWrite, listWrites, rescheduleVisit, retryWrite } from './service';

export function bookingsHandlers(ctx: AppContext): Handlers {
  return {
    findBestFit: async (request) => findBestFit(ctx, callerOf(request), bodyOf(request, 'findBestFit')),
    bookVisit: async (request, reply) => reply.code(201).send(await bookVisit(ctx, callerOf(request), bodyOf(request, 'bookVisit'))),
    listCancellationReasons: async () => ({ reasons: cancellationReasons() }),
    rescheduleVisit: async (request) => rescheduleVisit(ctx, callerOf(request), paramsOf(request, 'rescheduleVisit').id, bodyOf(request, 'rescheduleVisit')),
    cancelVisit: async (request) => cancelVisit(ctx, callerOf(request), paramsOf(request, 'cancelVisit').id, bodyOf(request, 'cancelVisit')),
    listPmsWrites: async (request) => listWrites(ctx, callerOf(request), queryOf(request, 'listPmsWrites').state),
    retryPmsWrite: async (request) => retryWrite(ctx, callerOf(request), paramsOf(request, 'retryPmsWrite').id, bodyOf(request, 'retryPmsWrite')?.overwrite ?? false),
    discardPmsWrite: async (request) => discardWrite(ctx, callerOf(request), paramsOf(request, 'discardPmsWrite').id),
  };
}
