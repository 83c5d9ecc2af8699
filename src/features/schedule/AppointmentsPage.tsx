// /appointments: a date range, filters (practitioner, appointment type, business location), and the
// appointments as a table (a page at a time) or as one day's schedule with a map. A PRACTITIONER lands on their run
// sheet: their day in visiting order with the travel, addresses, phones and directions, and the map.
import { useId, useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Temporal } from 'temporal-polyfill';
import { useAuthSelector, useServices } from '../../app/ServicesContext';
import { selectRole, selectUser } from '../../machines/auth';
import { ApiError, messageOfError } from '../../api/errors';
import type { RoutePageProps } from '../../router/routeTypes';
import { formatDay, toRequestDate, todayIn, zonedFromInstant } from '../../lib/dates';
import { MAX_RANGE_DAYS } from '../../lib/dayRange';
import { urlParam, useUrlState } from '../../lib/urlState';
import { Card, PageHeader } from '../../ui/PageHeader';
import { LoadingText, Spinner } from '../../ui/PageSpinner';
import { ErrorNote } from '../../ui/forms';
import { CollapsibleFilters } from '../../ui/CollapsibleFilters';
import type { AppointmentListQuery, AppointmentSummary } from '../../entities/appointments/api';
import { appointmentQueries } from '../../entities/appointments/queries';
import { appointmentTimeZone } from '../../entities/appointments/facts';
import { AppointmentsTable } from './AppointmentsTable';
import { DaySchedule } from './DaySchedule';
import { VisitFilters } from '../../ui/VisitFilters';
import { DayMap } from './DayMap';
import { OverdueBanner } from './OverdueBanner';
import { OpenVisitsNotice } from './OpenVisitsNotice';
import { deskAlerts, LIVE_REFRESH_MS, liveRefetchInterval, useNow, useOverdueAfterMinutes } from '../../entities/appointments/desk';
import { useLiveDesk } from '../../entities/appointments/liveDesk';
import { clockOf, minutesOfSpan } from './scheduleLayout';
import { DayIssuesBanner, useDayIssues, useVisitProblems } from './DayIssues';
import { LaneDayTimes, OptimiseAction, RouteLaneMark, StaleRoutesBanner } from './DayRoutes';
import { useMoveAppointment } from './mutations';
import { useTravelWarnings, useVisitsOnLeave } from './TravelWarning';
import { UnavailableFromNow } from './UnavailableFromNow';
import { RunSheet } from '../../ui/RunSheet';
import { DayChangedNotice } from './DayChangedNotice';
import { canPlanRoutes } from '../../entities/routes/access';
import { useFixedBeforeMinutes } from '../../entities/optimization-settings/fixedVisits';
import { routeQueries } from '../../entities/routes/queries';
import type { DayTravel } from '../../entities/routes/api';
import type { DeskAlert } from '../../entities/appointments/desk';
import { DateRangePicker, type DayRange } from '../../ui/DateRangePicker';
import { Pagination } from '../../ui/Pagination';
import { useViewedDaysForSync } from '../../app/syncModalStore';
import { NEW_VISIT_KEYS } from '../../entities/appointments/newVisitLink';
import { Button } from '../../ui/Button';
import { NewVisitDialog } from './NewVisitDialog';
import { OptimiseDialog } from './optimise/OptimiseDialog';

const STAFF_VIEWS = ['list', 'schedule'] as const;
/** A practitioner's own day first. */
const PRACTITIONER_VIEWS = ['run', 'list', 'schedule'] as const;
type View = (typeof PRACTITIONER_VIEWS)[number];
const VIEW_LABELS: Record<View, string> = { run: 'Run sheet', list: 'List', schedule: 'Day schedule' };
const LIST_PAGE_SIZES = [10, 20, 50, 100] as const;
/** How often a day with a visit being saved to the PMS is read again. */
const SAVING_REFRESH_MS = 3_000;

/**
 * What the address keeps of this page; the date range (`start` and `end`, always together) defaults to today in the
 * business's zone, the view to the run sheet for a practitioner and to the list for everyone else.
 */
function pageState(today: Temporal.PlainDate, views: readonly View[]) {
  return {
    range: urlParam.dateRange({ start: today, end: today }, { maxDays: MAX_RANGE_DAYS }),
    practitioner: urlParam.ids(),
    type: urlParam.ids(),
    location: urlParam.ids(),
    view: urlParam.oneOf(views, views[0]),
    day: urlParam.date(null),
    /** Where a new visit fits in the one practitioner's day shown ("HH:mm-HH:mm"), from the nearby search. */
    fit: urlParam.text(),
    page: urlParam.integer(1),
    per_page: urlParam.oneOf(LIST_PAGE_SIZES, 50),
    /** The "New visit" dialog, open and prefilled (links from a client's details and the nearby search). */
    [NEW_VISIT_KEYS.open]: urlParam.flag(),
    [NEW_VISIT_KEYS.client]: urlParam.integer(null),
    [NEW_VISIT_KEYS.type]: urlParam.integer(null),
    [NEW_VISIT_KEYS.practitioner]: urlParam.integer(null),
    [NEW_VISIT_KEYS.time]: urlParam.text(),
    /** The Optimise dialog open on the shown day for this practitioner (offered after a visit is cancelled). */
    optimise: urlParam.integer(null),
  };
}

/** The travel to each visit of a day from the visit before, or from the start place for the first, by id. */
function travelToVisits(travel: DayTravel | undefined): ReadonlyMap<number, number> {
  const seconds = new Map<number, number>();
  if (!travel) return seconds;
  const firstOf = new Map(travel.practitioners.map((day) => [day.practitioner_id, day.start_leg?.travel_seconds ?? null]));
  for (const visit of travel.appointments) {
    const travelled = visit.previous_appointment_id === null ? firstOf.get(visit.practitioner_id) : visit.travel_seconds_from_previous;
    if (travelled !== null && travelled !== undefined) seconds.set(visit.appointment_id, travelled);
  }
  return seconds;
}

function localDay(appointment: AppointmentSummary, businessTimeZone?: string | null): string {
  return zonedFromInstant(appointment.starts_at, appointmentTimeZone(businessTimeZone)).toPlainDate().toString();
}

export default function AppointmentsPage({ route }: RoutePageProps) {
  const { api } = useServices();
  const user = useAuthSelector(selectUser);
  const businessTimeZone = user?.business_account.time_zone ?? null;
  const today = useMemo(() => todayIn(businessTimeZone ?? undefined), [businessTimeZone]);
  const isPractitioner = useAuthSelector(selectRole) === 'PRACTITIONER';
  const views: readonly View[] = isPractitioner ? PRACTITIONER_VIEWS : STAFF_VIEWS;
  const [state, setState] = useUrlState(useMemo(() => pageState(today, views), [today, views]));
  const { range, practitioner: practitionerIds, type: typeIds, location: locationIds, view, page, per_page: perPage } = state;
  const scheduleDay = state.day?.toString() ?? null;
  const fitSpan = minutesOfSpan(state.fit);
  const fit = fitSpan && practitionerIds.length === 1 ? { practitionerId: practitionerIds[0], ...fitSpan } : null;
  const dayId = useId();


  /** A new range or filter starts the table at its first page again. */
  const refine = (patch: Partial<typeof state>) => setState({ ...patch, page: 1 });
  const setRange = (next: DayRange) => refine({ range: next });
  const activeFilters = [practitionerIds, typeIds, locationIds].filter((ids) => ids.length > 0).length;

  const days: string[] = [];
  for (let day = range.start; Temporal.PlainDate.compare(day, range.end) <= 0; day = day.add({ days: 1 })) days.push(day.toString());
  const shownDay = scheduleDay && days.includes(scheduleDay) ? scheduleDay : days[0];
  // Import and Export open on what is shown: the list's days, or the one day of the schedule or the run sheet.
  useViewedDaysForSync(view === 'list' ? days[0] : shownDay, view === 'list' ? days.at(-1)! : shownDay);

  const filters = {
    ...(practitionerIds.length ? { practitioner_ids: practitionerIds } : {}),
    ...(typeIds.length ? { appointment_type_ids: typeIds } : {}),
    ...(locationIds.length ? { business_location_ids: locationIds } : {}),
  };
  // The table asks for one page of the range; the schedule and the run sheet for the whole of the day they show (one
  // answer for both).
  const listKind = view === 'list' ? 'list' : 'schedule';
  const query: AppointmentListQuery =
    listKind === 'list'
      ? { start_date: toRequestDate(range.start), end_date: toRequestDate(range.end), ...filters, page, per_page: perPage }
      : { start_date: shownDay, end_date: shownDay, ...filters };
  // Live while today is shown (the business's today): the day is read again every 15 s, and not on other days.
  const todayText = today.toString();
  const refetchInterval = liveRefetchInterval(listKind === 'list' ? days : [shownDay], todayText);
  const appointments = useQuery({
    ...appointmentQueries.list(api, listKind, query),
    // While a visit shown is being saved to the PMS, the list is read again until its mark can go.
    refetchInterval: (listQuery) =>
      refetchInterval !== false ? refetchInterval : listQuery.state.data?.appointments.some((visit) => visit.pms_write_state === 'saving') ? SAVING_REFRESH_MS : false,
    // The previous answer stays up while the next loads, but a table page is never drawn as a schedule.
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[1] === listKind ? previous : undefined),
  });
  const listed = appointments.data?.appointments;
  // Without signal: the query waits for the network, or the service worker has no answer kept (the day was never read
  // online on this phone) and the request failed without one from the server.
  const dayNotSaved = (appointments.isPending && appointments.fetchStatus === 'paused')
    || (appointments.isError && !(appointments.error instanceof ApiError) && navigator.onLine === false);
  const dayAppointments = useMemo(
    () => (listKind === 'schedule' && listed ? listed.filter((appointment) => localDay(appointment, businessTimeZone) === shownDay) : []),
    [listKind, listed, businessTimeZone, shownDay],
  );

  // While today is shown, the server's pushes refresh what changed at once; the 15 s reading stays as the fallback.
  useLiveDesk(refetchInterval !== false);
  // Today's visits not started, on the way or still there past the business's setting: a banner and a mark on each
  // (the shared rule); the travel to each visit is the day's travel.
  const now = useNow(LIVE_REFRESH_MS, refetchInterval !== false);
  const overdueAfter = useOverdueAfterMinutes();
  const todaysTravel = useQuery({ ...routeQueries.dayTravel(api, todayText), enabled: refetchInterval !== false });
  const travelTo = useMemo(() => travelToVisits(todaysTravel.data), [todaysTravel.data]);
  const overdue = useMemo(() => {
    if (refetchInterval === false || !listed) return new Map<number, DeskAlert>();
    const todays = listed.filter((appointment) => localDay(appointment, businessTimeZone) === todayText);
    return deskAlerts(todays, now, overdueAfter, travelTo);
  }, [refetchInterval, listed, businessTimeZone, todayText, now, overdueAfter, travelTo]);

  // The schedule marks each practitioner's route (the day map reads the same key) and says when one is stale.
  const dayRoutes = useQuery({ ...routeQueries.day(api, shownDay), enabled: view === 'schedule' });
  const routeOf = useMemo(() => new Map((dayRoutes.data ?? []).map((dayRoute) => [dayRoute.practitioner_id, dayRoute])), [dayRoutes.data]);
  const plansRoutes = canPlanRoutes(user?.role);
  const fixedBeforeMinutes = useFixedBeforeMinutes(plansRoutes);
  const optimises = plansRoutes && view === 'schedule';
  // Travel warnings on the schedule's day, and in the list when it shows one day.
  const warnings = useTravelWarnings(view === 'schedule' ? shownDay : view === 'list' && days.length === 1 ? days[0] : null, view === 'schedule' ? dayAppointments : listed ?? []);
  // The day's problems by the rule book, for those who plan routes: a banner and a mark on each visit concerned.
  const dayIssues = useDayIssues(view === 'schedule' ? shownDay : null);
  const problems = useVisitProblems(dayIssues);
  const onLeave = useVisitsOnLeave(view === 'schedule' ? shownDay : null);
  const move = useMoveAppointment();
  const books = plansRoutes;
  const newVisitOpen = books && state[NEW_VISIT_KEYS.open];
  const closeNewVisit = () =>
    // In place: Back then goes to where the dialog was opened from, not to the dialog again.
    setState({ [NEW_VISIT_KEYS.open]: false, [NEW_VISIT_KEYS.client]: null, [NEW_VISIT_KEYS.type]: null, [NEW_VISIT_KEYS.practitioner]: null, [NEW_VISIT_KEYS.time]: '' }, { replace: true });

  return (
    <>
      <PageHeader title={route.title}>
        {isPractitioner
          ? 'Your visits by day, in visiting order: the address, the phone and the way there, and each visit’s steps.'
          : 'Visits by day: open one to see its details, change its arrival time or read its history.'}
      </PageHeader>
      <Card className="p-0">
        <div className="flex flex-wrap items-end gap-3 border-b border-slate-200 p-4 dark:border-slate-800">
          <div className="w-full md:w-auto">
            <DateRangePicker label="Dates" compact steps maxDays={MAX_RANGE_DAYS} value={range} onChange={setRange} today={today} />
          </div>
          {/* On a phone the filters wait behind a button, so the first visits are on the first screen. */}
          <CollapsibleFilters activeCount={activeFilters} panelClassName="md:min-w-[24rem] md:flex-1 md:basis-0 md:flex-row md:items-end">
            <VisitFilters value={{ practitioner: practitionerIds, type: typeIds, location: locationIds }} onChange={refine} />
          </CollapsibleFilters>
          <div role="group" aria-label="View" className="inline-flex overflow-hidden rounded-md border border-slate-300 md:ml-auto dark:border-slate-700">
            {views.map((option) => (
              <button
                key={option}
                type="button"
                aria-pressed={view === option}
                onClick={() => setState({ view: option })}
                className={`px-3 py-1.5 text-sm font-medium max-md:min-h-11 ${view === option ? 'bg-sky-700 text-white' : 'bg-white hover:bg-slate-50 dark:bg-slate-900 dark:hover:bg-slate-800'}`}
              >
                {VIEW_LABELS[option]}
              </button>
            ))}
          </div>
          {appointments.isFetching && <Spinner className="size-4 text-slate-400" />}
          {books && (
            <Button size="sm" onClick={() => setState({ [NEW_VISIT_KEYS.open]: true })} className="max-md:min-h-11">
              New visit
            </Button>
          )}
        </div>
        {newVisitOpen && (
          <NewVisitDialog
            initial={{
              day: Temporal.PlainDate.from(shownDay),
              clientId: state[NEW_VISIT_KEYS.client],
              appointmentTypeId: state[NEW_VISIT_KEYS.type],
              practitionerId: state[NEW_VISIT_KEYS.practitioner],
              time: state[NEW_VISIT_KEYS.time] || null,
            }}
            onClose={closeNewVisit}
          />
        )}
        {plansRoutes && state.optimise !== null && (
          <OptimiseDialog initialDay={shownDay} initialPractitionerIds={[state.optimise]} onClose={() => setState({ optimise: null }, { replace: true })} />
        )}

        {appointments.isError && !dayNotSaved && (
          <div className="p-4">
            <ErrorNote>{messageOfError(appointments.error, 'An error has occurred. Could not load appointments list.')}</ErrorNote>
          </div>
        )}
        {dayNotSaved ? (
          <p role="status" data-testid="day-not-saved" className="px-4 py-10 text-center text-sm text-slate-600 dark:text-slate-300">
            This day is not saved on this phone: it was not opened while there was signal. It shows once the network is back.
          </p>
        ) : appointments.isPending && <LoadingText label="Loading appointments" className="justify-center px-4 py-10 text-sm" />}

        {listed && view === 'list' && (
          <>
            <OverdueBanner appointments={listed} overdue={overdue} afterMinutes={overdueAfter} />
            <AppointmentsTable appointments={listed} businessTimeZone={businessTimeZone} showDate={days.length > 1} warnings={warnings} overdue={overdue} />
            <Pagination
              page={page}
              perPage={perPage}
              pageSizes={LIST_PAGE_SIZES}
              total={appointments.data?.meta.total ?? 0}
              onPageChange={(next) => setState({ page: next })}
              onPerPageChange={(size) => refine({ per_page: size })}
            />
          </>
        )}
        {listed && view !== 'list' && (
          <div>
            {(days.length > 1 || optimises) && (
              <div className="flex flex-wrap items-center gap-2 px-4 pt-3 text-sm">
                {days.length > 1 && (
                  <>
                    <label htmlFor={dayId}>Day</label>
                    <select id={dayId} value={shownDay} onChange={(event) => setState({ day: Temporal.PlainDate.from(event.target.value) })} className="rounded-md border border-slate-300 bg-white px-2 py-1 dark:border-slate-700 dark:bg-slate-900">
                      {days.map((day) => (
                        <option key={day} value={day}>{formatDay(Temporal.PlainDate.from(day))}</option>
                      ))}
                    </select>
                  </>
                )}
                {optimises && (
                  <>
                    <span className="text-xs text-slate-500 dark:text-slate-400">Drag a visit to another time or practitioner to move it (on a touch screen, hold it first).</span>
                    <span className="ml-auto">
                      <OptimiseAction day={shownDay} />
                    </span>
                  </>
                )}
              </div>
            )}
            {view === 'run' && appointments.isSuccess && !appointments.isPlaceholderData && <DayChangedNotice appointments={dayAppointments} day={shownDay} timeZone={businessTimeZone ?? 'UTC'} />}
            {view === 'run' ? (
              <RunSheet appointments={dayAppointments} day={shownDay} businessTimeZone={businessTimeZone} />
            ) : (
              <>
                {plansRoutes && <StaleRoutesBanner routes={dayRoutes.data ?? []} timeZone={businessTimeZone ?? 'UTC'} />}
                <OverdueBanner appointments={dayAppointments} overdue={overdue} afterMinutes={overdueAfter} />
                <DayIssuesBanner issues={dayIssues} />
                <OpenVisitsNotice day={shownDay} />
                {fit && (
                  <p role="status" data-testid="fit-note" className="mx-4 mt-3 rounded-md border border-emerald-300 bg-emerald-50 px-3 py-2 text-sm text-emerald-900 dark:border-emerald-800 dark:bg-emerald-950 dark:text-emerald-100">
                    From Nearby search: the new visit fits this day at {clockOf(fit.from)}–{clockOf(fit.to)}, marked “Fits here” on the lane.
                  </p>
                )}
                <DaySchedule
                  fit={fit}
                  appointments={dayAppointments}
                  businessTimeZone={businessTimeZone}
                  warnings={warnings}
                  problems={problems}
                  onLeave={onLeave}
                  onMoveVisit={plansRoutes ? (appointmentId, change) => move.mutateAsync({ appointmentId, move: change }) : undefined}
                  onNewVisit={books ? (practitionerId, time) => setState({ [NEW_VISIT_KEYS.open]: true, [NEW_VISIT_KEYS.practitioner]: practitionerId, [NEW_VISIT_KEYS.time]: time ?? '' }) : undefined}
                  fixedBeforeMinutes={fixedBeforeMinutes}
                  overdue={overdue}
                  live={shownDay === todayText}
                  laneNote={(practitionerId) => {
                    const laneRoute = routeOf.get(practitionerId);
                    return (
                      <>
                        <LaneDayTimes day={shownDay} practitionerId={practitionerId} timeZone={businessTimeZone ?? 'UTC'} />
                        {laneRoute && <RouteLaneMark route={laneRoute} canEdit={plansRoutes} />}
                        {plansRoutes && shownDay === todayText && (
                          <UnavailableFromNow
                            practitionerId={practitionerId}
                            practitionerName={dayAppointments.find((visit) => visit.practitioner.id === practitionerId)?.practitioner.full_name ?? 'The practitioner'}
                            day={shownDay}
                            timeZone={businessTimeZone ?? 'UTC'}
                          />
                        )}
                      </>
                    );
                  }}
                />
                <DayMap appointments={dayAppointments} day={shownDay} />
              </>
            )}
            <p className="border-t border-slate-200 px-4 py-2 text-xs text-slate-500 dark:text-slate-400 dark:border-slate-800" data-testid="appointments-count">
              {dayAppointments.length} appointment{dayAppointments.length === 1 ? '' : 's'} on this day
            </p>
          </div>
        )}
      </Card>
    </>
  );
}
