// The demo's day as it happens: on a fresh start, today's visits that should have begun are walked through
// their steps as the practitioners' phones would have recorded them (through the appointments module's own service, so
// the state, the steps and the change log are as real ones), so the coordinator's live desk shows states, actual
// times and lateness. Each practitioner runs a few minutes late or early in their own way (one of them 20-odd minutes
// late); one earlier visit is marked Could not attend (client not home); and exactly one visit is left with no
// check-in, overdue by the business's setting. Before the first visit of the day nothing is walked.
import { and, asc, eq, gte, isNull, lt } from 'drizzle-orm';
import { Temporal } from 'temporal-polyfill';
import type { AuthContext } from '../auth/access';
import { appointments, practitioners, users } from '../db/schema';
import type { AppContext } from '../http/context';
import { businessTimeZone } from '../db/business-time-zone';
import { VisitStepsService } from '../modules/appointments';
import { OVERDUE_AFTER_MINUTES_DEFAULT, plannedStartMs } from '../lib/overdue';

/** Minutes each practitioner arrives after the plan, by their place in the list (negative: early). */
const LATENESS = [3, -2, 8, 22, 0, 5, 12, -4, 1, 6];
const MINUTE = 60_000;

interface DemoVisit { id: number; practitionerId: number; startsAt: Date; endsAt: Date; arriveAt: Date | null }

export interface DemoDay {
  steps: number;
  /** The visit left overdue; null when none is (early in the day). */
  overdueAppointmentId: number | null;
}

export async function walkDemoDay(ctx: AppContext, businessAccountId: number, now = new Date()): Promise<DemoDay> {
  const { db } = ctx;
  const timeZone = await businessTimeZone(db, businessAccountId);
  const today = Temporal.Instant.fromEpochMilliseconds(now.getTime()).toZonedDateTimeISO(timeZone).startOfDay();
  const dayStart = new Date(today.epochMilliseconds);
  const [admin] = await db.select({ id: users.id }).from(users)
    .where(and(eq(users.business_account_id, businessAccountId), eq(users.role, 'ADMIN'))).orderBy(asc(users.id)).limit(1);
  if (!admin) return { steps: 0, overdueAppointmentId: null };
  const names = new Map((await db.select({ id: practitioners.id, first: practitioners.first_name, last: practitioners.last_name })
    .from(practitioners).where(eq(practitioners.business_account_id, businessAccountId)))
    .map((row) => [row.id, `${row.first} ${row.last}`.trim()]));
  const visits: DemoVisit[] = await db.select({
    id: appointments.id, practitionerId: appointments.practitioner_id, startsAt: appointments.starts_at, endsAt: appointments.ends_at, arriveAt: appointments.arrive_at,
  }).from(appointments).where(and(
    eq(appointments.business_account_id, businessAccountId), isNull(appointments.cancelled_at), eq(appointments.visit_state, 'not_started'),
    gte(appointments.starts_at, dayStart), lt(appointments.starts_at, now),
  ));
  const planned = (visit: DemoVisit) => plannedStartMs({ starts_at: visit.startsAt, arrive_at: visit.arriveAt });
  const byPractitioner = new Map<number, DemoVisit[]>();
  for (const visit of visits.sort((a, b) => planned(a) - planned(b) || a.id - b.id)) {
    byPractitioner.set(visit.practitionerId, [...(byPractitioner.get(visit.practitionerId) ?? []), visit]);
  }

  // The one overdue visit: a practitioner's last visit planned at least 20 minutes ago whose next visit (if any) is not
  // overdue yet, so that it stays the only one; the latest such.
  const overdueAfter = OVERDUE_AFTER_MINUTES_DEFAULT * MINUTE;
  let overdue: DemoVisit | null = null;
  for (const own of byPractitioner.values()) {
    const candidates = own.filter((visit) => planned(visit) <= now.getTime() - overdueAfter - 5 * MINUTE);
    const last = candidates.at(-1);
    const next = last ? own[own.indexOf(last) + 1] : undefined;
    if (!last || (next && planned(next) <= now.getTime() - overdueAfter)) continue;
    if (!overdue || planned(last) > planned(overdue)) overdue = last;
  }

  const service = new VisitStepsService(ctx);
  let steps = 0;
  let keys = 0;
  const record = async (auth: AuthContext, visit: DemoVisit, step: 'on_my_way' | 'arrived' | 'done' | 'could_not_attend', at: number) => {
    await service.record(auth, visit.id, {
      step, at: new Date(Math.max(at, dayStart.getTime())).toISOString(), idempotency_key: `demo-${visit.id}-${step}-${(keys += 1)}`,
      ...(step === 'could_not_attend' ? { reason: 'client_not_home' as const } : {}),
    });
    steps += 1;
  };
  let practitionerIndex = 0;
  let couldNotAttend = false;
  for (const [practitionerId, own] of byPractitioner) {
    const late = LATENESS[practitionerIndex % LATENESS.length] * MINUTE;
    practitionerIndex += 1;
    // As if from their phone: the practitioner's name on each step.
    const auth: AuthContext = {
      sessionId: 0, userId: admin.id, businessAccountId, role: 'ADMIN', associatedPractitionerIds: [], paymentRequired: false,
      fullName: names.get(practitionerId) ?? 'Demo practitioner',
    };
    // One visit at a time: a visit begins once the one before is done (a few minutes' drive later).
    let busyUntil = 0;
    let current: { visit: DemoVisit; arrivedAt: number } | null = null;
    for (const [index, visit] of own.entries()) {
      if (visit.id === overdue?.id) break; // this one and the rest of their day wait
      const arrival = Math.max(planned(visit) + late + ((visit.id % 3) - 1) * MINUTE, busyUntil + 4 * MINUTE);
      const duration = visit.endsAt.getTime() - visit.startsAt.getTime();
      if (arrival >= now.getTime() - MINUTE) {
        // Not there yet: the visit before ends short, and they are on the way; the rest of their day waits.
        if (current) {
          busyUntil = Math.max(current.arrivedAt + MINUTE, now.getTime() - 4 * MINUTE);
          await record(auth, current.visit, 'done', busyUntil);
        }
        await record(auth, visit, 'on_my_way', Math.max(busyUntil, Math.min(arrival - 12 * MINUTE, now.getTime() - MINUTE)));
        break;
      }
      if (!couldNotAttend && practitionerIndex === 2 && index === 1) {
        couldNotAttend = true;
        busyUntil = arrival + 5 * MINUTE;
        await record(auth, visit, 'could_not_attend', Math.min(busyUntil, now.getTime() - MINUTE));
        continue;
      }
      await record(auth, visit, 'arrived', arrival);
      busyUntil = arrival + duration;
      if (busyUntil < now.getTime()) await record(auth, visit, 'done', busyUntil);
      else current = { visit, arrivedAt: arrival };
    }
  }
  return { steps, overdueAppointmentId: overdue?.id ?? null };
}
