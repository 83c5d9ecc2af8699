// Care-plan allocations: POST generates the plans' open visits for the weeks ahead and queues the CARE_ALLOCATION job
// (answering RUNNING at once); the job stores the proposal (DONE) or why it failed (ERROR); Apply books each placed
// visit through the bookings module, each in its own transaction with its open visit, and the rest stay open.
import type { AuthContext } from '../../auth/access';
import { businessTimeZone } from '../../db/business-time-zone';
import type { BodyOf, Schemas } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { conflict, HttpError, invalid, notFound } from '../../http/errors';
import { enqueueJob } from '../../jobs/queue';
import { lockBookingDay } from './bookings-link';
import { addDays, parseDay, today } from './clock';
import { allocationDto, type AllocationResult } from './dto';
import { generateOpenVisits } from './generation';
import {
  findAllocation, findOpenVisit, insertAllocation, openVisitsByIds, runningAllocation, setOpenReason, updateAllocation,
} from './repository';
import { requirePmsConnection } from './bookings-link';
import { bookingOf, fillInTx, weeksAhead } from './service';

export async function startCarePlanAllocation(
  ctx: AppContext, auth: AuthContext, body: BodyOf<'startCarePlanAllocation'> | undefined,
): Promise<Schemas['CarePlanAllocation']> {
  const business = auth.businessAccountId;
  const timeZone = await businessTimeZone(ctx.db, business);
  const tomorrow = addDays(today(timeZone), 1);
  const from = body?.start_date ? parseDay(body.start_date, 'start_date') : tomorrow;
  if (from < today(timeZone)) throw invalid(`start_date: ${from} has passed; an allocation plans from today on.`);
  const weeks = body?.weeks ?? await weeksAhead(ctx.db, business);
  const to = addDays(from, weeks * 7 - 1);
  const row = await ctx.db.transaction(async (tx) => {
    if (await runningAllocation(tx, business)) throw conflict('An allocation is running already: wait for its proposal.', 'ALLOCATION_RUNNING');
    const generated = await generateOpenVisits(tx, business, timeZone, from, to);
    const allocation = await insertAllocation(tx, {
      business_account_id: business, start_date: from, end_date: to, generated: generated.length, created_by_name: auth.fullName,
    });
    const job = await enqueueJob(tx, {
      businessAccountId: business, kind: 'CARE_ALLOCATION', startDate: from, endDate: to, createdByUserId: auth.userId,
      createdByName: auth.fullName, maxAttempts: 2, params: { allocation_id: allocation.id },
    });
    return updateAllocation(tx, allocation.id, { job_id: job.id });
  });
  return allocationDto(row);
}

export async function getCarePlanAllocation(ctx: AppContext, auth: AuthContext, id: number): Promise<Schemas['CarePlanAllocation']> {
  const row = await findAllocation(ctx.db, auth.businessAccountId, id);
  if (!row) throw notFound('Allocation');
  return allocationDto(row);
}

export async function applyCarePlanAllocation(ctx: AppContext, auth: AuthContext, id: number): Promise<Schemas['CarePlanAllocation']> {
  const business = auth.businessAccountId;
  const row = await findAllocation(ctx.db, business, id);
  if (!row) throw notFound('Allocation');
  if (row.status === 'APPLIED') throw conflict('This allocation was applied already.', 'ALLOCATION_APPLIED');
  if (row.status !== 'DONE') throw conflict(row.status === 'RUNNING' ? 'This allocation is still running.' : 'This allocation failed; start another.', 'ALLOCATION_NOT_DONE');
  const result = row.result as unknown as AllocationResult;
  const placed = result.visits.filter((visit) => visit.practitioner !== null && visit.arrive_at !== null);
  const current = await openVisitsByIds(ctx.db, business, placed.map((visit) => visit.open_visit_id));
  if (current.length !== placed.length || current.some((visit) => visit.state !== 'open')) {
    throw conflict('Some of these open visits were filled or removed since the allocation ran: start another allocation.', 'ALLOCATION_STALE');
  }
  await requirePmsConnection(ctx, business);
  // Claimed first, so a second Apply meanwhile is refused.
  const claimed = await ctx.db.transaction(async (tx) => {
    const locked = await findAllocation(tx, business, id, true);
    if (locked?.status !== 'DONE') return false;
    await updateAllocation(tx, id, { status: 'APPLIED', message: 'Booking…' });
    return true;
  });
  if (!claimed) throw conflict('This allocation was applied already.', 'ALLOCATION_APPLIED');

  let booked = 0;
  const left: string[] = [];
  for (const unit of bookedTogether(placed.sort((a, b) => a.arrive_at!.localeCompare(b.arrive_at!)))) {
    try {
      // A two-carer occurrence books both carers in one transaction (all or none), the pair checked together.
      await ctx.db.transaction(async (tx) => {
        // The day's booking lock before the open visits' rows, in the order a fill by hand takes them (no deadlock).
        await lockBookingDay(tx, business, unit[0].date);
        for (const [index, visit] of unit.entries()) {
          const open = await findOpenVisit(tx, business, visit.open_visit_id, true);
          if (!open || open.state !== 'open') throw conflict('It was filled or removed meanwhile.');
          await fillInTx(ctx, auth, tx, open, bookingOf(open, visit.practitioner!.id, visit.arrive_at!), { partnerFollows: index < unit.length - 1 });
        }
      });
      booked += unit.length;
    } catch (error) {
      if (!(error instanceof HttpError) || (error.statusCode !== 409 && error.statusCode !== 422 && error.statusCode !== 404)) {
        // What was booked stays booked; the allocation says how far it got.
        await updateAllocation(ctx.db, id, { message: `Booked ${booked} of ${result.visits.length} visits before an error: ${(error as Error).message}` });
        throw error;
      }
      for (const visit of unit) {
        await setOpenReason(ctx.db, business, visit.open_visit_id, `Could not be booked with ${visit.practitioner!.name}: ${error.message}`);
        left.push(`${visit.client.name} on ${visit.date} (${error.message})`);
      }
    }
  }
  const unplaced = result.visits.length - placed.length + left.length;
  const message = `Booked ${booked} of ${result.visits.length} visit${result.visits.length === 1 ? '' : 's'}`
    + (unplaced ? `; ${unplaced} stay${unplaced === 1 ? 's' : ''} open${left.length ? `: ${left.join('; ')}` : ''}` : '') + '.';
  // The unplaced keep the allocation's reason, in the open list.
  for (const visit of result.visits) if (visit.practitioner === null && visit.reason) await setOpenReason(ctx.db, business, visit.open_visit_id, visit.reason);
  return allocationDto(await updateAllocation(ctx.db, id, { message }));
}

/** The placed visits as they are booked: a care plan's two-carer occurrence (same plan, day and arrival) together. */
function bookedTogether<Visit extends { care_plan_id: number | null; client: { id: number }; date: string; window_start: string; arrive_at: string | null }>(
  visits: readonly Visit[],
): Visit[][] {
  const units = new Map<string, Visit[]>();
  for (const [index, visit] of visits.entries()) {
    const key = visit.care_plan_id === null ? `single ${index}` : [visit.care_plan_id, visit.client.id, visit.date, visit.window_start, visit.arrive_at].join(' ');
    units.set(key, [...(units.get(key) ?? []), visit]);
  }
  return [...units.values()];
}
