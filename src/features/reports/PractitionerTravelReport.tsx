// /reports/practitioner-travel: how far and how long each practitioner drives — visits, visit hours, travel km and
// hours, and travel's share of the working day — with a chart of travel hours. A practitioner's name opens their
// days, and a day its legs (from → to, km, minutes, whether from the applied route or estimated), asked for only
// then. "Download legs CSV" asks for every leg of the report and saves them. The server says which legs count.
import { useCallback, useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Temporal } from 'temporal-polyfill';
import { useAuthSelector, useServices } from '../../app/ServicesContext';
import { selectUser } from '../../machines/auth';
import { formatCalendarDate, formatDateTime, formatDayRange, todayIn, toRequestDate } from '../../lib/dates';
import { urlParam, useUrlState } from '../../lib/urlState';
import type { RoutePageProps } from '../../router/routeTypes';
import { Button } from '../../ui/Button';
import { fetchPractitionerTravelLegs, type PractitionerTravelDay, type PractitionerTravelRow, type TravelLegRow } from './api';
import { CountsChart } from './CountsChart';
import type { CsvColumn } from './csv';
import { FetchedCsvButton } from './FetchedCsvButton';
import { reportQueries } from './queries';
import { ReportFrame } from './ReportFrame';
import { activeFilterCount, REPORT_PRESETS, reportFilterState, reportQueryOf } from './reportFilters';
import { ReportTable, type ReportColumn } from './ReportTable';
import { hours, km, minutes, percent } from './travelFormat';
import { useBusinessDefaults } from '../../app/businessDefaults';

const SOURCE_LABELS: Record<TravelLegRow['source'], string> = { route: 'Route', estimate: 'Estimate' };

const LEG_COLUMNS: readonly CsvColumn<TravelLegRow>[] = [
  { label: 'Practitioner', text: (leg) => leg.practitioner_name },
  { label: 'Day', text: (leg) => leg.day },
  { label: 'From', text: (leg) => leg.from_name },
  { label: 'To', text: (leg) => leg.to_name },
  { label: 'Km', text: (leg) => km(leg.travel_metres) },
  { label: 'Minutes', text: (leg) => minutes(leg.travel_seconds) },
  { label: 'Source', text: (leg) => SOURCE_LABELS[leg.source] },
];

const numberColumn = <Row,>(id: string, label: string, value: (row: Row) => number, text: (row: Row) => string): ReportColumn<Row> =>
  ({ id, label, text, sortValue: value });

function practitionerColumns(open: (id: number) => void): ReportColumn<PractitionerTravelRow>[] {
  return [
    {
      id: 'practitioner', label: 'Practitioner', text: (row) => row.practitioner_name, sortValue: (row) => row.practitioner_name,
      render: (row) => (
        <button type="button" onClick={() => open(row.practitioner_id)} className="text-left font-medium text-sky-700 hover:underline dark:text-sky-400">
          {row.practitioner_name}
        </button>
      ),
    },
    numberColumn('days', 'Days', (row) => row.days, (row) => String(row.days)),
    numberColumn('visits', 'Visits', (row) => row.visits, (row) => String(row.visits)),
    numberColumn('visit_hours', 'Visit hours', (row) => row.visit_seconds, (row) => hours(row.visit_seconds)),
    numberColumn('travel_km', 'Travel km', (row) => row.travel_metres, (row) => km(row.travel_metres)),
    numberColumn('travel_hours', 'Travel hours', (row) => row.travel_seconds, (row) => hours(row.travel_seconds)),
    { id: 'share', label: 'Travel share', text: (row) => percent(row.travel_share), sortValue: (row) => row.travel_share },
    numberColumn('unlocated', 'Not on map', (row) => row.unlocated_visits, (row) => String(row.unlocated_visits)),
  ];
}

function dayColumns(openDay: (day: string) => void, openedDay: string | null): ReportColumn<PractitionerTravelDay>[] {
  return [
    {
      id: 'day', label: 'Day', text: (row) => row.day, sortValue: (row) => row.day,
      render: (row) => (
        <button
          type="button" aria-expanded={openedDay === row.day} onClick={() => openDay(row.day)}
          className="text-left font-medium whitespace-nowrap text-sky-700 hover:underline dark:text-sky-400"
        >
          {formatCalendarDate(row.day)}
        </button>
      ),
    },
    numberColumn('visits', 'Visits', (row) => row.visits, (row) => String(row.visits)),
    numberColumn('visit_hours', 'Visit hours', (row) => row.visit_seconds, (row) => hours(row.visit_seconds)),
    numberColumn('travel_km', 'Travel km', (row) => row.travel_metres, (row) => km(row.travel_metres)),
    numberColumn('travel_minutes', 'Travel min', (row) => row.travel_seconds, (row) => minutes(row.travel_seconds)),
    numberColumn('working', 'Working hours', (row) => row.working_seconds, (row) => hours(row.working_seconds)),
    {
      id: 'source', label: 'Legs from', sortValue: (row) => row.route_legs,
      text: (row) => (row.route_legs && row.estimate_legs ? 'Route and estimate' : row.route_legs ? 'Route' : 'Estimate'),
    },
  ];
}

export default function PractitionerTravelReport({ route }: RoutePageProps) {
  const { api } = useServices();
  const timeZone = useAuthSelector(selectUser)?.business_account.time_zone ?? 'Australia/Brisbane';
  const today = useMemo(() => todayIn(timeZone), [timeZone]);
  const { weekStart } = useBusinessDefaults();
  const schema = useMemo(() => {
    const week = REPORT_PRESETS[1].range(today, weekStart);
    return { ...reportFilterState(week), open: urlParam.integer(null), day: urlParam.date(null) };
  }, [today, weekStart]);
  const [state, setState] = useUrlState(schema);
  const query = reportQueryOf(state);
  const report = useQuery(reportQueries.practitionerTravel(api, query));
  const drillDown = useQuery({
    ...reportQueries.practitionerTravelLegs(api, { ...query, practitioner_id: state.open ?? 0 }),
    enabled: state.open !== null,
  });
  const summary = report.data?.summary;
  const columns = useMemo(() => practitionerColumns((open) => setState({ open, day: null })), [setState]);
  const openedDay = state.day ? toRequestDate(state.day) : null;
  const days = drillDown.data?.days ?? [];
  const opened = report.data?.rows.find((row) => row.practitioner_id === state.open) ?? null;
  const daysColumns = useMemo(
    () => dayColumns((day) => setState({ day: openedDay === day ? null : Temporal.PlainDate.from(day) }), openedDay),
    [setState, openedDay],
  );
  // A practitioner's days, opened from the table above, are brought into view (on a phone they are far below); once
  // per practitioner opened, not on every change of the page.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const bringIntoView = useCallback((section: HTMLElement | null) => section?.scrollIntoView?.({ block: 'start', behavior: 'smooth' }), [state.open]);
  const dayLegs = drillDown.data?.legs.filter((leg) => leg.day === openedDay) ?? [];

  return (
    <ReportFrame
      title={route.title}
      intro="How far and how long each practitioner travels between visits, and what share of their working day it takes."
      today={today}
      range={state.range}
      onRangeChange={(range) => setState({ range })}
      scope={`Visits from ${formatDayRange(state.range.start, state.range.end)}${
        activeFilterCount(state) > 0 ? ', of the chosen practitioners, types and locations' : ''
      }. Legs counted: ${summary?.legs_counted ?? ''} Printed ${formatDateTime(Temporal.Now.instant().toString(), timeZone)}.`}
      visitFilters={state}
      onVisitFiltersChange={setState}
      status={{ pending: report.isPending, fetching: report.isFetching, error: report.error }}
      summary={summary ? [
        { label: 'Visits', value: summary.visits },
        { label: 'Visit hours', value: hours(summary.visit_seconds) },
        { label: 'Travel km', value: km(summary.travel_metres) },
        { label: 'Travel hours', value: hours(summary.travel_seconds) },
        { label: 'Travel share of the working day', value: percent(summary.travel_share) || '—' },
        { label: 'Legs from routes', value: summary.route_legs },
        { label: 'Legs estimated', value: summary.estimate_legs },
        { label: 'Visits not on the map', value: summary.unlocated_visits },
      ] : null}
      chart={report.data && report.data.rows.length > 0 && (
        <figure>
          <figcaption className="mb-2 text-sm font-medium">Travel hours per practitioner</figcaption>
          <CountsChart name="Travel hours" decimals data={report.data.rows.map((row) => ({ label: row.practitioner_name, count: Number(hours(row.travel_seconds)) }))} />
        </figure>
      )}
    >
      {report.data && summary && (
        <>
          <p className="px-4 pt-3 text-xs text-slate-600 dark:text-slate-400">Legs counted: {summary.legs_counted}</p>
          <ReportTable
            label={route.title}
            columns={columns}
            rows={report.data.rows}
            rowKey={(row) => row.practitioner_id}
            fileName={`practitioner-travel-${toRequestDate(state.range.start)}-${toRequestDate(state.range.end)}.csv`}
            empty="No visits in these days."
            actions={
              <FetchedCsvButton
                label="Download legs CSV" disabled={report.data.rows.length === 0} columns={LEG_COLUMNS}
                fileName={`travel-legs-${toRequestDate(state.range.start)}-${toRequestDate(state.range.end)}.csv`}
                rowsOf={async () => (await fetchPractitionerTravelLegs(api, query)).legs}
              />
            }
          />
          {opened && (
            <section
              ref={bringIntoView}
              aria-label={`Days of ${opened.practitioner_name}`} className="scroll-mt-4 border-t border-slate-200 dark:border-slate-800">
              <div className="flex items-center justify-between gap-2 px-4 pt-4">
                <h2 className="text-base font-semibold">Days of {opened.practitioner_name}</h2>
                <Button variant="secondary" size="sm" onClick={() => setState({ open: null, day: null })}>Close</Button>
              </div>
              <ReportTable
                label={`Days of ${opened.practitioner_name}`}
                columns={daysColumns}
                rows={days}
                rowKey={(row) => row.day}
                fileName={`travel-days-${opened.practitioner_name}-${toRequestDate(state.range.start)}.csv`}
                empty={drillDown.isPending ? 'Loading…' : drillDown.isError ? 'Could not load the days.' : 'No days.'}
              />
              {openedDay && drillDown.data && (
                <div className="px-4 pb-4">
                  <h3 className="mb-2 text-sm font-semibold">Legs on {formatCalendarDate(openedDay)}</h3>
                  <ol aria-label={`Legs on ${formatCalendarDate(openedDay)}`} className="divide-y divide-slate-100 rounded-lg border border-slate-200 text-sm dark:divide-slate-800 dark:border-slate-800">
                    {dayLegs.map((leg) => (
                      <li key={`${leg.kind}-${leg.from_appointment_id}-${leg.to_appointment_id}`} className="flex flex-wrap items-baseline gap-x-3 px-3 py-2">
                        <span className="min-w-0 flex-1">{leg.from_name} → {leg.to_name}</span>
                        <span className="tabular-nums">{km(leg.travel_metres)} km</span>
                        <span className="tabular-nums">{minutes(leg.travel_seconds)} min</span>
                        <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${leg.source === 'route' ? 'bg-emerald-100 text-emerald-900 dark:bg-emerald-900/40 dark:text-emerald-200' : 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300'}`}>
                          {SOURCE_LABELS[leg.source]}
                        </span>
                      </li>
                    ))}
                    {dayLegs.length === 0 && <li className="px-3 py-2 text-slate-500 dark:text-slate-400">No leg counted on this day (a single visit without a start place, or visits not on the map).</li>}
                  </ol>
                </div>
              )}
            </section>
          )}
        </>
      )}
    </ReportFrame>
  );
}
