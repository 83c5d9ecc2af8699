// The dashboard in one answer, per role. Nothing here is a rule of its own: visits outside availability are the
// optimiser's availability windows at the visit's arrival (as the day schedule marks them) and travel warnings the day
// schedule's rule (travelOfOrderedVisits), both stored per visit by the travel summary and counted per
// practitioner-day there; stale routes the routes' own mark, clients missing address the report's query, the last
// import and export the sync module's, and a practitioner's hours and start place the practitioners module's day.
//
// Queries per load: ADMIN and REGULAR_USER: the business's time zone, then in parallel: practitioners (their days
// ahead, and each week's working time), business locations, custom locations, the travel summary's fresh check and
// its practitioner-days (visits, booked and travel time, outside availability, warnings) from last week to the last
// day shown, routes of those days, clients missing address, last import and export, failed reminders, visits booked
// in leave in the next 4 weeks, today's visits needing the desk (and the setting; the travel of those on their way); a PRACTITIONER
// 3 (time zone, today's list — often from the list cache — and the next visit).
import { Temporal } from 'temporal-polyfill';
import type { AuthContext } from '../../auth/access';
import type { Schemas } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { appointmentsServiceOf, deskAlerts, type AppointmentsService } from '../appointments';
import { checkDay, dayStartMs, listRouteDaysBetween, travelProviderFor } from '../schedule';
import { businessTimeZone } from '../../db/business-time-zone';
import { visitsInLeave } from '../leave';
import { loadPractitionerDaysOn, loadWorkingTime, utilisationOf, type PractitionerDay } from '../practitioners';
import { failedReminderSummary } from '../reminders';
import { clientsMissingAddress } from '../reports';
import { lastSyncJobs, toExportDto, toImportDto } from '../sync';
import { summaryDayTotals, travelDays } from '../travel';
import { nextVisit } from './repository';

type Dashboard = Schemas['Dashboard'];
type Overview = Schemas['DashboardOverview'];
type TodayList = Schemas['DashboardPractitionerDay']['today'];

/** The days unrouted days and stale routes look at: today and the 6 after. */
export const DAYS_AHEAD = 7;
/** Unrouted practitioner-days listed (the tile links to the first; the count says how many in all). */
export const UNROUTED_DAYS_LISTED = 5;
/** The days visits booked in leave are looked for: today and the 27 after (leave is known ahead). */
export const LEAVE_DAYS_AHEAD = 28;

/** localeCompare's order (the default locale), with one collator rather than one per comparison. */
const byName = new Intl.Collator();
const plus = (date: string, days: number) => Temporal.PlainDate.from(date).add({ days }).toString();
const daysFrom = (from: string, count: number) => Array.from({ length: count }, (_, index) => plus(from, index));

export class DashboardService {
  private readonly appointments: AppointmentsService;

  constructor(private readonly ctx: AppContext) {
    this.appointments = appointmentsServiceOf(ctx);
  }

  /** `date` is the day taken as today (default: today in the business's time zone). */
  async dashboard(auth: AuthContext, date?: string): Promise<Dashboard> {
    if (date !== undefined) checkDay(date);
    const timeZone = await businessTimeZone(this.ctx.db, auth.businessAccountId);
    const realToday = Temporal.Now.plainDateISO(timeZone).toString();
    const today = date ?? realToday;
    const base = { role: auth.role, today, tomorrow: plus(today, 1), business_time_zone: timeZone };
    if (auth.role === 'PRACTITIONER') {
      // Another day than today is looked at from its start.
      const now = today === realToday ? new Date() : new Date(dayStartMs(today, timeZone));
      return { ...base, overview: null, practitioner_day: await this.practitionerDay(auth, today, now) };
    }
    // Overdue visits are today's as of now; another day is looked at from its start (none overdue yet).
    const now = today === realToday ? new Date() : new Date(dayStartMs(today, timeZone));
    return { ...base, overview: await this.overview(auth, today, timeZone, now), practitioner_day: null };
  }

  private async practitionerDay(auth: AuthContext, today: string, now: Date): Promise<NonNullable<Dashboard['practitioner_day']>> {
    const [listJson, next] = await Promise.all([
      this.appointments.listJson(auth, { startDate: today, endDate: today }),
      nextVisit(this.ctx.db, auth.businessAccountId, auth.associatedPractitionerIds, now),
    ]);
    const { appointments, clients, practitioners, appointment_types } = JSON.parse(listJson) as TodayList;
    return {
      next_visit: next ? {
        appointment_id: next.id,
        starts_at: new Date(next.starts_at).toISOString(),
        arrive_at: next.arrive_at === null ? null : new Date(next.arrive_at).toISOString(),
        client_name: next.client_name,
        suburb: next.suburb,
        practitioner_id: next.practitioner_id,
        practitioner_name: next.practitioner_name,
      } : null,
      today: { appointments, clients, practitioners, appointment_types },
    };
  }

  private async overview(auth: AuthContext, today: string, timeZone: string, now: Date): Promise<Overview> {
    const { db } = this.ctx;
    const businessAccountId = auth.businessAccountId;
    const tomorrow = plus(today, 1);
    const ahead = daysFrom(today, DAYS_AHEAD);
    // Weeks run Monday to Sunday; the range read covers last week, this week and the days ahead.
    const thisWeek = plus(today, 1 - Temporal.PlainDate.from(today).dayOfWeek);
    const lastWeek = plus(thisWeek, -7);
    const last = [plus(thisWeek, 6), ahead.at(-1)!].sort().at(-1)!;

    const [practitioners, thisWeekWorking, lastWeekWorking, totals, routeDays, missing, jobs, failedReminders, inLeave, overdue] = await Promise.all([
      // Whole days (places, hours) only where unrouted days are looked for; the weeks need only working time.
      loadPractitionerDaysOn(db, businessAccountId, null, ahead),
      loadWorkingTime(db, businessAccountId, null, daysFrom(thisWeek, 7)),
      loadWorkingTime(db, businessAccountId, null, daysFrom(lastWeek, 7)),
      // Every practitioner-day of the range from the travel summary (fresh first): visits and their booked time, travel
      // (every visit's legs, routes' where they say them), visits outside availability and travel warnings.
      summaryDayTotals(db, this.ctx.config, businessAccountId, { startDate: lastWeek, endDate: last }),
      listRouteDaysBetween(db, businessAccountId, lastWeek, last),
      clientsMissingAddress(db, businessAccountId, { range: null, practitionerIds: [], appointmentTypeIds: [], businessLocationIds: [] }),
      lastSyncJobs(this.ctx, auth),
      failedReminderSummary(this.ctx, businessAccountId, today),
      visitsInLeave(db, businessAccountId, new Date(dayStartMs(today, timeZone)), new Date(dayStartMs(plus(today, LEAVE_DAYS_AHEAD), timeZone))),
      deskAlerts(db, businessAccountId, new Date(dayStartMs(today, timeZone)), now, async (practitionerIds) => {
        const days = await travelDays(db, travelProviderFor(this.ctx.config), businessAccountId, { startDate: today, endDate: today, practitionerIds });
        return new Map(days.flatMap((day) => day.legs).filter((leg) => leg.toAppointmentId !== null).map((leg) => [leg.toAppointmentId!, leg.seconds]));
      }),
    ]);

    const dayIndex = new Map(ahead.map((day, index) => [day, index]));
    const byId = new Map(practitioners.map((practitioner) => [practitioner.days[0].practitionerId, practitioner]));
    const dayOf = (practitionerId: number, day: string): PractitionerDay | undefined => byId.get(practitionerId)?.days[dayIndex.get(day)!];

    // Today's and tomorrow's visits per practitioner, outside availability and travel warnings.
    const counts = new Map<number, { today: number; tomorrow: number }>();
    const outside = new Map([[today, 0], [tomorrow, 0]]);
    const warnings = new Map([[today, 0], [tomorrow, 0]]);
    for (const total of totals) {
      if (total.day !== today && total.day !== tomorrow) continue;
      const count = counts.get(total.practitionerId) ?? { today: 0, tomorrow: 0 };
      count[total.day === today ? 'today' : 'tomorrow'] += total.visits;
      counts.set(total.practitionerId, count);
      outside.set(total.day, outside.get(total.day)! + total.outsideVisits);
      warnings.set(total.day, warnings.get(total.day)! + total.shortLegs);
    }

    const routed = new Set(routeDays.map((route) => `${route.practitionerId}|${route.day}`));
    const nameOf = (id: number) => byId.get(id)?.days[0].name ?? 'Unknown practitioner';
    // Lists are by practitioner name, then id: the business's practitioners are put in that order once, and each
    // list is sorted by that rank (comparing names for every pair of a list of thousands was much of the time).
    const byNameThenId = (a: number, b: number) => byName.compare(nameOf(a), nameOf(b)) || a - b;
    const rank = new Map([...byId.keys()].sort(byNameThenId).map((id, index) => [id, index]));
    const compareNames = (a: number, b: number) => {
      const [rankA, rankB] = [rank.get(a), rank.get(b)];
      return rankA !== undefined && rankB !== undefined ? rankA - rankB : byNameThenId(a, b);
    };
    const totalsByDay = new Map<string, typeof totals>();
    for (const total of totals) {
      const own = totalsByDay.get(total.day);
      if (own) own.push(total);
      else totalsByDay.set(total.day, [total]);
    }
    const unrouted = ahead.flatMap((day) => (totalsByDay.get(day) ?? [])
      .filter((total) => total.visits > 0 && !routed.has(`${total.practitionerId}|${day}`))
      .filter((total) => {
        const own = dayOf(total.practitionerId, day);
        // A day of leave is not one to route: its visits are counted as booked in leave instead.
        return own !== undefined && own.active && own.startPlace !== null && own.shift !== null && own.onLeave === null;
      })
      .map((total) => ({ date: day, practitioner_id: total.practitionerId, practitioner_name: nameOf(total.practitionerId), visits: total.visits }))
      .sort((a, b) => compareNames(a.practitioner_id, b.practitioner_id)));
    // Visits booked in leave, per practitioner-day in the business's days.
    const leaveDays = new Map<string, { date: string; practitioner_id: number; practitioner_name: string; visits: number }>();
    for (const visit of inLeave) {
      const date = Temporal.Instant.fromEpochMilliseconds(visit.startsAt.getTime()).toZonedDateTimeISO(timeZone).toPlainDate().toString();
      const key = `${date}|${visit.practitionerId}`;
      const row = leaveDays.get(key) ?? { date, practitioner_id: visit.practitionerId, practitioner_name: nameOf(visit.practitionerId), visits: 0 };
      row.visits += 1;
      leaveDays.set(key, row);
    }
    const onLeave = [...leaveDays.values()].sort((a, b) => a.date.localeCompare(b.date) || compareNames(a.practitioner_id, b.practitioner_id));
    const stale = routeDays
      .filter((route) => route.staleAt !== null && route.day >= today && route.day <= ahead.at(-1)!)
      .map((route) => ({ date: route.day, practitioner_id: route.practitionerId, practitioner_name: nameOf(route.practitionerId), stale_at: route.staleAt!.toISOString() }))
      .sort((a, b) => a.date.localeCompare(b.date) || a.practitioner_name.localeCompare(b.practitioner_name));

    const week = (start: string, workingTime: Awaited<ReturnType<typeof loadWorkingTime>>): Schemas['DashboardWeek'] => {
      const end = plus(start, 6);
      const inWeek = (day: string) => day >= start && day <= end;
      const routes = routeDays.filter((route) => inWeek(route.day));
      // Utilisation counts active practitioners with working hours in their settings.
      const working = new Map(workingTime
        .filter((practitioner) => practitioner.active && practitioner.workingSeconds > 0)
        .map((practitioner) => [practitioner.practitionerId, practitioner.workingSeconds]));
      const visitSeconds = totals.filter((total) => inWeek(total.day) && working.has(total.practitionerId)).reduce((sum, total) => sum + total.visitSeconds, 0);
      const workingSeconds = [...working.values()].reduce((sum, seconds) => sum + seconds, 0);
      return {
        start, end,
        routed_days: routes.length,
        travel_seconds: totals.filter((total) => inWeek(total.day)).reduce((sum, total) => sum + total.travelSeconds, 0),
        travel_metres: totals.filter((total) => inWeek(total.day)).reduce((sum, total) => sum + total.travelMetres, 0),
        visit_seconds: visitSeconds,
        working_seconds: Math.round(workingSeconds),
        utilisation: utilisationOf(visitSeconds, workingSeconds),
      };
    };

    const job = (row: Parameters<typeof toImportDto>[0] | null, kind: 'IMPORT' | 'EXPORT'): Schemas['DashboardJob'] | null => {
      if (!row) return null;
      const dto = kind === 'IMPORT' ? toImportDto(row) : toExportDto(row);
      const problems = kind === 'IMPORT' ? toImportDto(row).result?.warnings?.length ?? 0 : toExportDto(row).result?.conflicts?.length ?? 0;
      return {
        id: dto.id, status: dto.status, start_date: dto.start_date, end_date: dto.end_date, error_message: dto.error_message,
        created_at: dto.created_at, finished_at: dto.finished_at ?? null, created_by_name: dto.created_by_name ?? null,
        automatic: dto.automatic ?? false, problems,
      };
    };

    const lastDay = ahead.at(-1)!;
    return {
      visits_by_practitioner: [...counts.entries()]
        .map(([id, count]) => ({ practitioner_id: id, name: nameOf(id), color: byId.get(id)?.color ?? '#64748b', ...count }))
        .sort((a, b) => compareNames(a.practitioner_id, b.practitioner_id)),
      outside_availability: [today, tomorrow].map((day) => ({ date: day, count: outside.get(day)! })),
      travel_warnings: [today, tomorrow].map((day) => ({ date: day, count: warnings.get(day)! })),
      unrouted_days: unrouted.slice(0, UNROUTED_DAYS_LISTED),
      unrouted_day_count: unrouted.length,
      visits_on_leave: { count: inLeave.length, days: onLeave.slice(0, UNROUTED_DAYS_LISTED) },
      stale_routes: stale,
      clients_missing_address: {
        clients: missing.summary.clients,
        with_visit_this_week: missing.rows.filter((row) => row.next_visit !== null
          && Temporal.Instant.from(row.next_visit.starts_at).toZonedDateTimeISO(timeZone).toPlainDate().toString() <= lastDay).length,
      },
      last_import: job(jobs.import, 'IMPORT'),
      last_export: job(jobs.export, 'EXPORT'),
      this_week: week(thisWeek, thisWeekWorking),
      last_week: week(lastWeek, lastWeekWorking),
      travel: this.ctx.config.osrmUrl ? 'osrm' : 'haversine',
      failed_reminders: failedReminders,
      overdue_visits: {
        date: today, count: overdue.visits.length, after_minutes: overdue.afterMinutes,
        alerts: overdue.visits.slice(0, 5).map((visit) => ({ appointment_id: visit.appointmentId, kind: visit.alert.kind, minutes: visit.alert.minutes, text: visit.text })),
      },
    };
  }
}
