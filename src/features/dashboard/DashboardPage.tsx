// The dashboard, from one request (GET /dashboard). ADMIN and REGULAR_USER see tiles of what needs doing — each with
// a figure, a line of words and a link to the page that fixes it (and "Open visits", the next 4 weeks' visits without a
// practitioner, from the open visits list; "Problems today", from the day checker's own
// request; "Overdue visits": today's visits not started, on the way or still there past the business's setting, each in
// words, to today's live schedule); the figures are live (pushed changes, and read every minute for the clock's own);
// a PRACTITIONER sees their next visit and today's run sheet. Times and days are the business's.
import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Temporal } from 'temporal-polyfill';
import { useAuthSelector, useServices } from '../../app/ServicesContext';
import { openAppointmentModal, openClientModal } from '../../app/modalStore';
import { selectRole, selectUser } from '../../machines/auth';
import { greetingFor } from '../../lib/greeting';
import { formatDateTime, formatTime } from '../../lib/dates';
import { plural } from '../../lib/plural';
import { Card, PageHeader } from '../../ui/PageHeader';
import { useShownTimeZone } from '../../app/timeZone';
import { Button } from '../../ui/Button';
import { TextLink } from '../../ui/TextLink';
import { RunSheet } from '../../ui/RunSheet';
import { routeQueries } from '../../entities/routes/queries';
import { jobStatusLabel } from '../../entities/jobs/jobStatus';
import type { Dashboard, DashboardJob, DashboardOverview, DashboardWeek } from './api';
import { dashboardQueries } from './queries';
import { openVisitQueries } from '../../entities/open-visits/queries';
import { LoadingText } from '../../ui/PageSpinner';
import { useLiveDesk } from '../../entities/appointments/liveDesk';

/** How often the dashboard is read again while open: what only time changes (overdue visits) has no push. */
export const DASHBOARD_REFRESH_MS = 60_000;

export default function DashboardPage() {
  const { api } = useServices();
  const user = useAuthSelector(selectUser);
  const role = useAuthSelector(selectRole);
  const timeZone = useShownTimeZone();
  const greeting = greetingFor(new Date(), timeZone);
  // Live: changes to visits are pushed (useLiveDesk); the clock's own (a visit becoming overdue) are read every minute.
  const dashboard = useQuery({ ...dashboardQueries.current(api), refetchInterval: DASHBOARD_REFRESH_MS });
  useLiveDesk(true);
  return (
    <>
      <PageHeader title="Dashboard" />
      <Card>
        <h2 className="text-xl font-semibold text-slate-900 dark:text-white" data-testid="dashboard-greeting">
          {user ? `${greeting}, ${user.first_name}` : greeting}
        </h2>
        {user && (
          <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
            {user.business_account.name} · times shown in <span data-testid="dashboard-time-zone">{timeZone}</span>
          </p>
        )}
      </Card>
      {dashboard.isPending ? (
        <LoadingText label="Loading the dashboard" className="mt-6 text-sm" />
      ) : dashboard.isError ? (
        <div role="alert" className="mt-6 rounded-lg border border-rose-200 bg-rose-50 p-4 text-sm text-rose-900 dark:border-rose-900 dark:bg-rose-950 dark:text-rose-100">
          <p>{dashboard.error.message || 'Could not load the dashboard.'} The figures are not shown.</p>
          <Button variant="secondary" size="sm" className="mt-3" onClick={() => void dashboard.refetch()}>Try again</Button>
        </div>
      ) : dashboard.data.practitioner_day ? (
        <PractitionerDashboard dashboard={dashboard.data} day={dashboard.data.practitioner_day} />
      ) : dashboard.data.overview ? (
        <Overview dashboard={dashboard.data} overview={dashboard.data.overview} admin={role === 'ADMIN'} />
      ) : null}
    </>
  );
}

// ---- Words and links ----

/** "Fri 27 Nov". */
function dayName(date: string): string {
  const day = Temporal.PlainDate.from(date);
  return `${day.toLocaleString('en-AU', { weekday: 'short' })} ${day.day} ${day.toLocaleString('en-AU', { month: 'short' })}`;
}
const scheduleOf = (start: string, end = start) => `/appointments?view=schedule&start=${start}&end=${end}`;
const percent = (value: number | null) => (value === null ? '—' : `${(Math.round(value * 1000) / 10).toLocaleString('en-AU')}%`);

function duration(seconds: number): string {
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const rest = minutes % 60;
  return rest ? `${Math.floor(minutes / 60)} h ${rest} min` : `${minutes / 60} h`;
}

const distance = (metres: number) => `${(Math.round(metres / 100) / 10).toLocaleString('en-AU')} km`;

/** "up 12% on last week" / "down …" / "the same as last week" / "none last week". */
function against(current: number, previous: number, format: (value: number) => string): string {
  if (previous === 0) return current === 0 ? 'none last week either' : 'none last week';
  const change = Math.round(((current - previous) / previous) * 100);
  if (change === 0) return `the same as last week (${format(previous)})`;
  return `${change > 0 ? 'up' : 'down'} ${Math.abs(change)}% on last week (${format(previous)})`;
}

interface TileLink { href: string; label: string }

type Tone = 'neutral' | 'good' | 'warn' | 'bad';
const toneClasses: Record<Tone, string> = {
  neutral: 'text-slate-900 dark:text-white',
  good: 'text-emerald-700 dark:text-emerald-400',
  warn: 'text-amber-700 dark:text-amber-400',
  bad: 'text-rose-700 dark:text-rose-400',
};

function Tile({ title, figure, tone = 'neutral', text, links, children, testId }: {
  title: string; figure: string; tone?: Tone; text: ReactNode; links: TileLink[]; children?: ReactNode; testId: string;
}) {
  return (
    <section aria-label={title} data-testid={testId} className="flex flex-col rounded-xl border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-800 dark:bg-slate-900">
      <h3 className="text-sm font-medium text-slate-600 dark:text-slate-300">{title}</h3>
      <p className={`mt-1 text-3xl font-semibold tabular-nums ${toneClasses[tone]}`} data-testid="tile-figure">{figure}</p>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400" data-testid="tile-text">{text}</p>
      {children}
      {links.length > 0 && (
        <p className="mt-auto flex flex-wrap gap-x-4 gap-y-1 pt-3 text-sm">
          {links.map((link) => <TextLink key={link.href + link.label} href={link.href}>{link.label}</TextLink>)}
        </p>
      )}
    </section>
  );
}

/** A short list inside a tile (at most `max` rows, then "and N more"). */
/** The first `max` rows; `total` counts rows the server did not send (default: those given). */
function TileList({ rows, max = 4, total = rows.length, label }: { rows: { key: string; text: ReactNode }[]; max?: number; total?: number; label: string }) {
  if (rows.length === 0) return null;
  const shown = rows.slice(0, max);
  return (
    <ul aria-label={label} className="mt-2 space-y-0.5 text-sm text-slate-700 dark:text-slate-200">
      {shown.map((row) => <li key={row.key}>{row.text}</li>)}
      {total > shown.length && <li className="text-slate-500 dark:text-slate-400">and {total - shown.length} more</li>}
    </ul>
  );
}

// ---- ADMIN and REGULAR_USER ----

/** Visits of the next 4 weeks waiting for a practitioner (the open visits list's own request). */
function OpenVisitsTile() {
  const { api } = useServices();
  const visits = useQuery(openVisitQueries.list(api));
  const count = visits.data?.length;
  const first = visits.data?.[0];
  return (
    <Tile
      testId="tile-open-visits" title="Open visits" figure={count === undefined ? '—' : String(count)} tone={count ? 'warn' : count === 0 ? 'good' : 'neutral'}
      text={visits.isError
        ? 'Could not load the open visits.'
        : count === undefined
          ? 'Loading…'
          : count === 0
            ? 'Every visit of the next 4 weeks has a practitioner.'
            : `${count === 1 ? 'visit needs' : 'visits need'} a practitioner in the next 4 weeks${first ? `, the first on ${dayName(first.date)}` : ''}.`}
      links={[{ href: '/open-visits', label: count ? 'Fill them' : 'Open visits' }]}
    />
  );
}

function Overview({ dashboard, overview, admin }: { dashboard: Dashboard; overview: DashboardOverview; admin: boolean }) {
  const { today, tomorrow } = dashboard;
  const [outsideToday, outsideTomorrow] = overview.outside_availability;
  const [warningsToday, warningsTomorrow] = overview.travel_warnings;
  const visitsToday = overview.visits_by_practitioner.reduce((sum, row) => sum + row.today, 0);
  const visitsTomorrow = overview.visits_by_practitioner.reduce((sum, row) => sum + row.tomorrow, 0);
  const firstDay = (counts: { date: string; count: number }[]) => counts.find((day) => day.count > 0)?.date ?? today;
  /** To the first day with some, as "Fix on …"; with none, just today's schedule. */
  const fixLink = (counts: { date: string; count: number }[]): TileLink => {
    const day = firstDay(counts);
    if (!counts.some((entry) => entry.count > 0)) return { href: scheduleOf(today), label: 'Today’s schedule' };
    return { href: scheduleOf(day), label: `Fix on ${day === today ? 'today’s' : 'tomorrow’s'} schedule` };
  };
  const { this_week: week, last_week: lastWeek } = overview;
  const estimate = overview.travel === 'osrm' ? 'road travel times' : 'a straight-line estimate of travel';
  const missing = overview.clients_missing_address;
  return (
    <div className="mt-6 grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-3" data-testid="dashboard-tiles">
      <Tile
        testId="tile-visits" title="Visits today" figure={String(visitsToday)}
        text={`${plural(visitsTomorrow, 'visit')} tomorrow, not counting cancelled ones.`}
        links={[{ href: scheduleOf(today), label: 'Today’s schedule' }, { href: scheduleOf(tomorrow), label: 'Tomorrow’s schedule' }]}
      >
        {overview.visits_by_practitioner.length > 0 && (
          <div className="mt-2 max-h-96 overflow-y-auto">
          <table className="w-full text-sm" aria-label="Visits per practitioner">
            <thead>
              <tr className="text-left text-xs text-slate-500 dark:text-slate-400">
                <th className="font-normal">Practitioner</th><th className="text-right font-normal">Today</th><th className="text-right font-normal">Tomorrow</th>
              </tr>
            </thead>
            <tbody>
              {overview.visits_by_practitioner.map((row) => (
                <tr key={row.practitioner_id} className="text-slate-700 dark:text-slate-200">
                  <td className="py-0.5"><span className="mr-1.5 inline-block size-2.5 rounded-full" style={{ backgroundColor: row.color }} aria-hidden="true" />{row.name}</td>
                  <td className="text-right tabular-nums">{row.today}</td>
                  <td className="text-right tabular-nums">{row.tomorrow}</td>
                </tr>
              ))}
            </tbody>
          </table>
          </div>
        )}
      </Tile>
      <Tile
        testId="tile-overdue-visits" title="Overdue visits" figure={String(overview.overdue_visits.count)} tone={overview.overdue_visits.count ? 'bad' : 'good'}
        text={`${overview.overdue_visits.count === 1 ? 'visit today needs' : 'visits today need'} you: more than ${overview.overdue_visits.after_minutes} min without a check-in, on the way beyond the travel, or there beyond the booked length.`}
        links={[{ href: scheduleOf(overview.overdue_visits.date), label: overview.overdue_visits.count ? 'See them on today’s schedule' : 'Today’s schedule' }]}
      >
        <TileList
          label="Visits that need you"
          total={overview.overdue_visits.count}
          rows={overview.overdue_visits.alerts.map((alert) => ({
            key: String(alert.appointment_id),
            text: <TextLink onClick={() => openAppointmentModal(alert.appointment_id)} className="text-left">{alert.text}</TextLink>,
          }))}
        />
      </Tile>
      <OpenVisitsTile />
      <Tile
        testId="tile-outside-availability" title="Outside availability" figure={String(outsideToday.count)} tone={outsideToday.count ? 'warn' : 'good'}
        text={`${outsideToday.count === 1 ? 'visit arrives' : 'visits arrive'} today outside the client’s availability; ${outsideTomorrow.count} tomorrow.`}
        links={[fixLink(overview.outside_availability)]}
      />
      <Tile
        testId="tile-travel-warnings" title="Travel-time warnings" figure={String(warningsToday.count)} tone={warningsToday.count ? 'warn' : 'good'}
        text={`${warningsToday.count === 1 ? 'visit leaves' : 'visits leave'} less time than the travel from the visit before today (${estimate}); ${warningsTomorrow.count} tomorrow.`}
        links={[fixLink(overview.travel_warnings)]}
      />
      <ProblemsTodayTile today={today} />
      <Tile
        testId="tile-unrouted-days" title="Unrouted days" figure={String(overview.unrouted_day_count)} tone={overview.unrouted_day_count ? 'warn' : 'good'}
        text="Practitioner-days in the next 7 days with visits but no applied route, counting practitioners with a start place and working hours that day."
        links={[
          ...(overview.unrouted_days[0] ? [{ href: scheduleOf(overview.unrouted_days[0].date), label: `Optimise ${dayName(overview.unrouted_days[0].date)}` }] : []),
          ...(admin ? [{ href: '/settings/practitioners', label: 'Start places and hours' }] : []),
        ]}
      >
        <TileList
          label="Unrouted days"
          total={overview.unrouted_day_count}
          rows={overview.unrouted_days.map((row) => ({
            key: `${row.date}-${row.practitioner_id}`,
            text: <><TextLink variant="prose" href={scheduleOf(row.date)}>{dayName(row.date)}</TextLink> · {row.practitioner_name} ({plural(row.visits, 'visit')})</>,
          }))}
        />
      </Tile>
      <VisitsOnLeaveTile onLeave={overview.visits_on_leave} admin={admin} />
      <Tile
        testId="tile-stale-routes" title="Stale routes" figure={String(overview.stale_routes.length)} tone={overview.stale_routes.length ? 'warn' : 'good'}
        text="Routes of today and the next 6 days whose visits changed after the route was applied: optimise the day again."
        links={overview.stale_routes[0] ? [{ href: scheduleOf(overview.stale_routes[0].date), label: `Re-optimise ${dayName(overview.stale_routes[0].date)}` }] : []}
      >
        <TileList
          label="Stale routes"
          rows={overview.stale_routes.map((row) => ({
            key: `${row.date}-${row.practitioner_id}`,
            text: <><TextLink variant="prose" href={scheduleOf(row.date)}>{dayName(row.date)}</TextLink> · {row.practitioner_name}</>,
          }))}
        />
      </Tile>
      <Tile
        testId="tile-clients-missing-address" title="Clients missing address" figure={String(missing.clients)} tone={missing.with_visit_this_week ? 'warn' : missing.clients ? 'neutral' : 'good'}
        text={`${missing.clients === 1 ? 'client has' : 'clients have'} an incomplete address or an imprecise map point; ${missing.with_visit_this_week} with a visit in the next 7 days.`}
        links={[admin ? { href: '/reports/clients-missing-address', label: 'Fix them (report)' } : { href: '/clients', label: 'Open clients' }]}
      />
      <JobTile kind="import" job={overview.last_import} admin={admin} timeZone={dashboard.business_time_zone} />
      <JobTile kind="export" job={overview.last_export} admin={admin} timeZone={dashboard.business_time_zone} />
      <Tile
        testId="tile-travel" title="Travel this week" figure={duration(week.travel_seconds)}
        text={`Travel between every visit (${distance(week.travel_metres)}; ${plural(week.routed_days, 'practitioner-day')} on an optimised route), ${against(week.travel_seconds, lastWeek.travel_seconds, duration)}.`}
        links={[{ href: scheduleOf(week.start, week.end), label: 'This week’s schedule' }]}
      />
      <UtilisationTile week={week} lastWeek={lastWeek} admin={admin} />
      <FailedRemindersTile failed={overview.failed_reminders} today={today} admin={admin} />
    </div>
  );
}

/** Visits booked while their practitioner is on leave: reassigning the day (Optimise, reassign mode) moves them. */
function VisitsOnLeaveTile({ onLeave, admin }: { onLeave: DashboardOverview['visits_on_leave']; admin: boolean }) {
  const first = onLeave.days[0];
  return (
    <Tile
      testId="tile-visits-on-leave" title="Visits in leave" figure={String(onLeave.count)} tone={onLeave.count ? 'warn' : 'good'}
      text={`${onLeave.count === 1 ? 'visit is' : 'visits are'} booked while their practitioner is on leave, in the next 4 weeks: `
        + 'optimise the day, reassigning between practitioners, to move them.'}
      links={[
        ...(first ? [{ href: scheduleOf(first.date), label: `Reassign ${dayName(first.date)}` }] : []),
        ...(admin ? [{ href: '/settings/practitioners', label: 'Leave' }] : []),
      ]}
    >
      <TileList
        label="Visits booked in leave"
        rows={onLeave.days.map((row) => ({
          key: `${row.date}-${row.practitioner_id}`,
          text: <><TextLink variant="prose" href={scheduleOf(row.date)}>{dayName(row.date)}</TextLink> · {row.practitioner_name} ({plural(row.visits, 'visit')})</>,
        }))}
      />
    </Tile>
  );
}

/** Reminders that could not be sent after every retry: staff tell those clients another way (the client's window has their phone). */
function FailedRemindersTile({ failed, today, admin }: { failed: DashboardOverview['failed_reminders']; today: string; admin: boolean }) {
  const first = failed.clients[0];
  return (
    <Tile
      testId="tile-failed-reminders" title="Reminders failed" figure={String(failed.count)} tone={failed.count ? 'bad' : 'good'}
      text={failed.count
        ? `${failed.count === 1 ? 'reminder' : 'reminders'} to clients could not be sent after retrying; let ${failed.count === 1 ? 'that client' : 'those clients'} know another way.`
        : 'Every appointment reminder for the visits ahead has gone out (or is on its way).'}
      links={[
        ...(first ? [{ href: scheduleOf(first.visit_date), label: first.visit_date === today ? 'Today’s schedule' : `Schedule of ${dayName(first.visit_date)}` }] : []),
        ...(admin ? [{ href: '/settings/business-account', label: 'Reminder settings' }] : []),
      ]}
    >
      <TileList
        label="Clients whose reminder failed" max={5}
        rows={failed.clients.map((row) => ({
          key: `${row.client_id}|${row.visit_date}|${row.channel}`,
          text: (
            <>
              <TextLink variant="prose" onClick={() => openClientModal(row.client_id)}>{row.client_name}</TextLink> · {dayName(row.visit_date)} ·{' '}
              {row.channel === 'sms' ? 'SMS' : 'email'}
              {row.error ? <span className="block text-xs text-slate-500 dark:text-slate-400">{row.error}</span> : null}
            </>
          ),
        }))}
      />
      {failed.count > failed.clients.length && <p className="text-sm text-slate-500 dark:text-slate-400">and {failed.count - failed.clients.length} more</p>}
    </Tile>
  );
}

/** Today's schedule checked by the rule book (GET /schedule/issues): its hard problems, counted by rule. */
function ProblemsTodayTile({ today }: { today: string }) {
  const { api } = useServices();
  const issues = useQuery(routeQueries.dayIssues(api, today));
  const hard = (issues.data?.counts ?? []).filter((count) => count.hard && count.count > 0);
  const total = hard.reduce((sum, count) => sum + count.count, 0);
  const text = issues.isError
    ? 'Today’s schedule could not be checked against the rules of home care.'
    : issues.isPending
      ? 'Checking today’s schedule against the rules of home care…'
      : total > 0
        ? `${total === 1 ? 'problem' : 'problems'} with the rules of home care on today’s schedule.`
        : 'Today’s schedule keeps every hard rule of home care.';
  return (
    <Tile
      testId="tile-problems-today" title="Problems today" figure={issues.data ? String(total) : '—'} tone={!issues.data ? 'neutral' : total ? 'bad' : 'good'}
      text={text} links={[{ href: scheduleOf(today), label: total ? 'Fix on today’s schedule' : 'Today’s schedule' }]}
    >
      <TileList label="Problems today by rule" rows={hard.map((count) => ({ key: count.rule, text: `${count.title}: ${count.count}` }))} />
    </Tile>
  );
}

function UtilisationTile({ week, lastWeek, admin }: { week: DashboardWeek; lastWeek: DashboardWeek; admin: boolean }) {
  const text = week.utilisation === null
    ? 'No practitioner has working hours in their settings, so utilisation cannot be worked out.'
    : `Visit hours ÷ working hours (practitioners’ settings): ${duration(week.visit_seconds)} of ${duration(week.working_seconds)}; last week ${percent(lastWeek.utilisation)}.`;
  return (
    <Tile
      testId="tile-utilisation" title="Utilisation this week" figure={percent(week.utilisation)} text={text}
      links={admin ? [{ href: '/settings/practitioners', label: 'Working hours' }] : [{ href: scheduleOf(week.start, week.end), label: 'This week’s schedule' }]}
    />
  );
}

function JobTile({ kind, job, admin, timeZone }: { kind: 'import' | 'export'; job: DashboardJob | null; admin: boolean; timeZone: string }) {
  const title = admin ? `Last ${kind}` : `Your last ${kind}`;
  const links = admin ? [{ href: `/${kind}s`, label: `${kind === 'import' ? 'Imports' : 'Exports'}` }] : [];
  if (!job) {
    const none = admin ? `No ${kind} yet.` : `You have not started an ${kind} yet.`;
    return <Tile testId={`tile-last-${kind}`} title={title} figure="None" text={none} links={links} />;
  }
  const tone: Tone = job.status === 'ERROR' ? 'bad' : job.status === 'COMPLETE' ? (job.problems ? 'warn' : 'good') : 'neutral';
  const problems = job.problems ? ` · ${plural(job.problems, kind === 'import' ? 'warning' : 'conflict')}` : '';
  const when = formatDateTime(job.finished_at ?? job.created_at, timeZone);
  const who = job.automatic ? 'automatic' : job.created_by_name ? `by ${job.created_by_name}` : '';
  return (
    <Tile
      testId={`tile-last-${kind}`} title={title} figure={jobStatusLabel(job.status)} tone={tone}
      text={`${dayName(job.start_date)}${job.end_date !== job.start_date ? ` – ${dayName(job.end_date)}` : ''} · ${when}${who ? ` · ${who}` : ''}${problems}`}
      links={links}
    >
      {job.error_message && <p className="mt-2 text-sm text-rose-800 dark:text-rose-200" data-testid="job-error">{job.error_message}</p>}
    </Tile>
  );
}

// ---- PRACTITIONER ----

function PractitionerDashboard({ dashboard, day }: { dashboard: Dashboard; day: NonNullable<Dashboard['practitioner_day']> }) {
  const zone = dashboard.business_time_zone;
  const next = day.next_visit;
  const arrival = next ? next.arrive_at ?? next.starts_at : null;
  const nextDay = arrival ? Temporal.Instant.from(arrival).toZonedDateTimeISO(zone).toPlainDate().toString() : null;
  const booked = day.today.filter((appointment) => appointment.status !== 'CANCELLED').length;
  return (
    <div className="mt-6 space-y-4">
      <section aria-label="Next visit" data-testid="next-visit" className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-800 dark:bg-slate-900">
        <h3 className="text-sm font-medium text-slate-600 dark:text-slate-300">Next visit</h3>
        {next && arrival ? (
          <>
            <p className="mt-1 text-2xl font-semibold text-slate-900 dark:text-white">
              {nextDay === dashboard.today ? '' : `${dayName(nextDay!)} `}{formatTime(arrival, zone)} · {next.client_name ?? 'No client'}
            </p>
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{[next.suburb, next.practitioner_name].filter(Boolean).join(' · ')}</p>
            <p className="mt-1 text-sm"><TextLink className="inline-flex min-h-11 items-center" onClick={() => openAppointmentModal(next.appointment_id)}>Open the visit</TextLink></p>
          </>
        ) : (
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">No visits ahead.</p>
        )}
      </section>
      <Card className="p-0">
        <div className="flex flex-wrap items-baseline justify-between gap-2 px-4 pt-4">
          <h3 className="text-base font-semibold text-slate-900 dark:text-white">Today’s run sheet</h3>
          {/* The appointments page opens on a practitioner's run sheet of today, and steps to other days. */}
          <TextLink href="/appointments" className="inline-flex min-h-11 items-center">Open today’s run sheet in Appointments</TextLink>
        </div>
        {booked === 0
          ? <p className="px-4 py-10 text-center text-sm text-slate-500 dark:text-slate-400">No visits today.</p>
          : <RunSheet appointments={day.today} day={dashboard.today} businessTimeZone={zone} />}
      </Card>
    </div>
  );
}
