// /reports/visit-verification: electronic visit verification — every visit of the days with what the
// practitioner's steps recorded: On my way, actual in (Arrived) and out (Done), where each was tapped and how far from
// the client, arrivals flagged far, the status, a Could not attend's reason, who recorded the steps and an arrival
// corrected after the visit's day; the table is the EVV export (Download CSV, its times ISO 8601 with their offset).
// A visit over without a check-in is "Not verified". Beside it, actual vs planned: the headline punctuality from
// check-ins, the plan's apart, visit duration actual vs booked per appointment type, and missed visits by reason.
import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Temporal } from 'temporal-polyfill';
import { useAuthSelector, useServices } from '../../app/ServicesContext';
import { useBusinessDefaults } from '../../app/businessDefaults';
import { selectUser } from '../../machines/auth';
import { REASON_LABELS, STATE_LABELS } from '../../machines/visitSteps';
import { formatDateTime, formatDay, formatDayRange, todayIn, toRequestDate, zonedFromInstant } from '../../lib/dates';
import { useUrlState } from '../../lib/urlState';
import type { RoutePageProps } from '../../router/routeTypes';
import { fetchVisitVerification, type VisitDurationRow, type VisitMissedRow, type VisitVerificationRow } from './api';
import { reportQueries } from './queries';
import { ReportFrame } from './ReportFrame';
import { activeFilterCount, REPORT_PRESETS, reportFilterState, reportPageState, reportPaging, reportQueryOf } from './reportFilters';
import { ReportTable, type ReportColumn } from './ReportTable';
import { minutes, percent } from './travelFormat';

const coordinate = (value: number | null) => (value === null ? '' : value.toFixed(6));
const metres = (value: number | null) => (value === null ? '' : String(value));
const PUNCTUALITY_FROM = { check_in: 'Check-in', planned: 'Planned times' } as const;
/** The columns the server sorts the table by (it pages it: a month of a busy business is thousands of visits). */
const SORTS = ['starts_at', 'visit', 'client', 'practitioner', 'type', 'status', 'in', 'in_distance', 'far', 'out', 'actual', 'punctual', 'reason'] as const;

/** An instant as ISO 8601 in the business's zone with its offset ("2030-03-05T09:10:00+10:00"): the export's times. */
const isoWithOffset = (value: string | null, timeZone: string) =>
  (value === null ? '' : zonedFromInstant(value, timeZone).toString({ timeZoneName: 'never', smallestUnit: 'second' }));

function onTimeText(row: VisitVerificationRow): string {
  if (row.not_verified) return 'Not verified';
  return row.punctual === null ? '' : row.punctual ? 'Yes' : 'No';
}

function columnsOf(timeZone: string): readonly ReportColumn<VisitVerificationRow>[] {
  const when = (value: string | null) => (value === null ? '' : formatDateTime(value, timeZone));
  const at = (id: string, label: string, value: (row: VisitVerificationRow) => string | null): ReportColumn<VisitVerificationRow> =>
    ({ id, label, text: (row) => when(value(row)), csv: (row) => isoWithOffset(value(row), timeZone), sortValue: (row) => value(row) });
  const figure = (id: string, label: string, value: (row: VisitVerificationRow) => number | null, text: (value: number | null) => string): ReportColumn<VisitVerificationRow> =>
    ({ id, label, text: (row) => text(value(row)), sortValue: value });
  return [
    { id: 'visit', label: 'Visit', text: (row) => String(row.appointment_id), sortValue: (row) => row.appointment_id },
    { id: 'client', label: 'Client', text: (row) => row.client_name ?? '', sortValue: (row) => row.client_name },
    { id: 'practitioner', label: 'Practitioner', text: (row) => row.practitioner_name, sortValue: (row) => row.practitioner_name },
    { id: 'type', label: 'Type', text: (row) => row.appointment_type_name ?? '', sortValue: (row) => row.appointment_type_name },
    at('starts_at', 'Scheduled start', (row) => row.starts_at),
    at('ends_at', 'Scheduled end', (row) => row.ends_at),
    { id: 'status', label: 'Status', text: (row) => STATE_LABELS[row.status], sortValue: (row) => STATE_LABELS[row.status] },
    { id: 'recorded_by', label: 'Recorded by', text: (row) => row.recorded_by ?? '', sortValue: (row) => row.recorded_by },
    at('on_my_way', 'On my way', (row) => row.on_my_way_at),
    at('in', 'Actual in', (row) => row.actual_in_at),
    figure('in_lat', 'In lat', (row) => row.in_lat, coordinate),
    figure('in_lng', 'In lng', (row) => row.in_lng, coordinate),
    figure('in_distance', 'In distance (m)', (row) => row.in_distance_m, metres),
    // Only an arrival is near or far: a visit without one leaves the cell empty.
    {
      id: 'far', label: 'Far from client', sortValue: (row) => (row.far_from_client ? 1 : 0),
      text: (row) => (row.actual_in_at === null ? '' : row.far_from_client ? 'Yes' : 'No'),
    },
    at('out', 'Actual out', (row) => row.actual_out_at),
    figure('out_lat', 'Out lat', (row) => row.out_lat, coordinate),
    figure('out_lng', 'Out lng', (row) => row.out_lng, coordinate),
    figure('out_distance', 'Out distance (m)', (row) => row.out_distance_m, metres),
    figure('booked', 'Booked min', (row) => row.booked_seconds, (value) => (value === null ? '' : minutes(value))),
    figure('actual', 'Actual min', (row) => row.actual_seconds, (value) => (value === null ? '' : minutes(value))),
    { id: 'punctual', label: 'On time', text: onTimeText, sortValue: (row) => (row.punctual === null ? null : Number(row.punctual)) },
    {
      id: 'punctuality_from', label: 'On time from', text: (row) => (row.punctuality_from ? PUNCTUALITY_FROM[row.punctuality_from] : ''),
      sortValue: (row) => row.punctuality_from,
    },
    {
      id: 'reason', label: 'Reason', sortValue: (row) => row.reason,
      text: (row) => (row.reason ? `${REASON_LABELS[row.reason]}${row.reason_text ? `: ${row.reason_text}` : ''}` : ''),
    },
    {
      id: 'arrival_corrected', label: 'Arrival corrected', sortValue: (row) => row.arrival_corrected_at,
      text: (row) => (row.arrival_corrected_at ? `Arrival corrected by ${row.arrival_corrected_by} on ${formatDay(zonedFromInstant(row.arrival_corrected_at, timeZone).toPlainDate())}` : ''),
    },
  ];
}

const DURATION_COLUMNS: readonly ReportColumn<VisitDurationRow>[] = [
  { id: 'type', label: 'Appointment type', text: (row) => row.appointment_type_name, sortValue: (row) => row.appointment_type_name },
  { id: 'visits', label: 'Visits with in and out', text: (row) => String(row.visits), sortValue: (row) => row.visits },
  { id: 'booked', label: 'Booked min (average)', text: (row) => minutes(row.booked_seconds), sortValue: (row) => row.booked_seconds },
  { id: 'actual', label: 'Actual min (average)', text: (row) => minutes(row.actual_seconds), sortValue: (row) => row.actual_seconds },
  // The shown minutes' difference, so the row adds up as read.
  {
    id: 'difference', label: 'Difference min', sortValue: (row) => row.difference_seconds,
    text: (row) => String(Number(minutes(row.actual_seconds)) - Number(minutes(row.booked_seconds))),
  },
];

const MISSED_COLUMNS: readonly ReportColumn<VisitMissedRow>[] = [
  { id: 'reason', label: 'Reason', text: (row) => REASON_LABELS[row.reason], sortValue: (row) => REASON_LABELS[row.reason] },
  { id: 'visits', label: 'Visits', text: (row) => String(row.visits), sortValue: (row) => row.visits },
];

export default function VisitVerificationReport({ route }: RoutePageProps) {
  const { api } = useServices();
  const timeZone = useAuthSelector(selectUser)?.business_account.time_zone ?? 'Australia/Brisbane';
  const today = useMemo(() => todayIn(timeZone), [timeZone]);
  const { weekStart } = useBusinessDefaults();
  const schema = useMemo(() => ({ ...reportFilterState(REPORT_PRESETS[1].range(today, weekStart)), ...reportPageState(SORTS, 'starts_at') }), [today, weekStart]);
  const [state, setState] = useUrlState(schema);
  /** A new filter shows the first page. */
  const setFilters = (patch: Partial<typeof state>) => setState({ ...patch, page: 1 });
  const table = reportPaging(state, SORTS, setState);
  const query = reportQueryOf(state);
  const report = useQuery(reportQueries.visitVerification(api, { ...query, ...table.page }));
  const columns = useMemo(() => columnsOf(timeZone), [timeZone]);
  const summary = report.data?.summary;
  const days = `${toRequestDate(state.range.start)}-${toRequestDate(state.range.end)}`;

  return (
    <ReportFrame
      title={route.title}
      intro="Each visit as the practitioner’s phone recorded it — when they arrived and left, where, how far from the client — and how the days went against the plan."
      today={today}
      range={state.range}
      onRangeChange={(range) => setFilters({ range })}
      scope={`Visits from ${formatDayRange(state.range.start, state.range.end)}${
        activeFilterCount(state) > 0 ? ', of the chosen practitioners, types and locations' : ''
      }. Times in ${timeZone}. Printed ${formatDateTime(Temporal.Now.instant().toString(), timeZone)}.`}
      visitFilters={state}
      onVisitFiltersChange={setFilters}
      status={{ pending: report.isPending, fetching: report.isFetching, error: report.error }}
      summary={summary ? [
        { label: 'Visits', value: summary.visits },
        { label: 'Done', value: summary.done },
        { label: 'Could not attend', value: summary.could_not_attend },
        { label: 'Arrived far from client', value: summary.far_from_client },
        { label: 'Punctuality, from check-ins', value: percent(summary.punctuality) || '—' },
        { label: 'On time, from check-ins', value: `${summary.checked_in_on_time} of ${summary.checked_in}` },
        { label: 'Not verified (no check-in)', value: summary.not_verified },
        { label: 'Punctual, from planned times', value: `${summary.planned_punctual} of ${summary.planned_only}` },
        { label: 'Not started', value: summary.not_started },
      ] : null}
      chart={null}
    >
      {report.data && summary && (
        <>
          <dl className="grid gap-1 px-4 pt-3 text-xs text-slate-600 dark:text-slate-400">
            <div><dt className="inline font-semibold">In and out: </dt><dd className="inline">when the practitioner tapped Arrived and Done, where the phone was, and its distance from the client’s point (since the visit was last reopened).</dd></div>
            <div><dt className="inline font-semibold">On time, from check-ins: </dt><dd className="inline">a visit with an Arrived check-in is on time when it arrived within the visit’s tolerance of its planned arrival (the arrival time, else the booked start).</dd></div>
            <div><dt className="inline font-semibold">Not verified: </dt><dd className="inline">a visit whose scheduled end has passed without an Arrived check-in (and not marked Could not attend) is missed, never on time.</dd></div>
            <div><dt className="inline font-semibold">Punctual, from planned times: </dt><dd className="inline">a visit not over yet and without a check-in counts by its plan: its arrival is within the client’s availability. It is a forecast, so it stays out of the punctuality above. Visits that could not be attended count in neither.</dd></div>
            <div><dt className="inline font-semibold">Recorded by: </dt><dd className="inline">“Practitioner’s phone” when the practitioner tapped the steps on their own login, else the coordinator who recorded them. Times in the CSV are ISO 8601 with their offset.</dd></div>
          </dl>
          <ReportTable
            label={route.title}
            columns={columns}
            rows={report.data.rows}
            rowKey={(row) => row.appointment_id}
            fileName={`visit-verification-${days}.csv`}
            empty="No visits in these days."
            paging={{ ...table.paging, total: report.data.meta.total, allRows: async () => (await fetchVisitVerification(api, { ...query, ...table.order })).rows }}
          />
          <h2 className="border-t border-slate-200 px-4 pt-4 text-sm font-semibold dark:border-slate-800">Visit duration, actual vs booked</h2>
          <ReportTable
            label="Visit duration per appointment type"
            columns={DURATION_COLUMNS}
            rows={report.data.durations}
            rowKey={(row) => row.appointment_type_id ?? 'none'}
            fileName={`visit-durations-${days}.csv`}
            empty="No visit has both an Arrived and a Done in these days."
          />
          <h2 className="border-t border-slate-200 px-4 pt-4 text-sm font-semibold dark:border-slate-800">Missed visits by reason</h2>
          <ReportTable
            label="Missed visits by reason"
            columns={MISSED_COLUMNS}
            rows={report.data.missed}
            rowKey={(row) => row.reason}
            fileName={`missed-visits-${days}.csv`}
            empty="No reasons."
          />
        </>
      )}
    </ReportFrame>
  );
}
