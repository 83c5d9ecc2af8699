// /reports/appointments: how many visits, and how many hours of them, each practitioner, type, location or day had in
// the chosen days — with the cancelled ones, the visits arriving outside the client's availability and the distinct
// clients — a chart of visits per day, and the totals under the table. The grouping is kept in the address.
import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Temporal } from 'temporal-polyfill';
import { useAuthSelector, useServices } from '../../app/ServicesContext';
import { selectUser } from '../../machines/auth';
import { formatCalendarDate, formatDateTime, formatDayRange, todayIn, toRequestDate } from '../../lib/dates';
import { urlParam, useUrlState } from '../../lib/urlState';
import type { RoutePageProps } from '../../router/routeTypes';
import type { AppointmentsGroupBy, AppointmentsReportRow } from './api';
import { DailyChart } from './DailyChart';
import { reportQueries } from './queries';
import { ReportFrame } from './ReportFrame';
import { activeFilterCount, reportFilterState, reportQueryOf } from './reportFilters';
import { ReportSelect } from './ReportSelect';
import { ReportTable, type ReportColumn } from './ReportTable';

const GROUPS: readonly { value: AppointmentsGroupBy; label: string }[] = [
  { value: 'practitioner', label: 'Practitioner' },
  { value: 'type', label: 'Appointment type' },
  { value: 'location', label: 'Business location' },
  { value: 'day', label: 'Day' },
];

const hours = (value: number) => value.toFixed(2);
const DAY_KEY = /^\d{4}-\d{2}-\d{2}$/;

function columnsFor(groupBy: AppointmentsGroupBy): ReportColumn<AppointmentsReportRow>[] {
  const number = (id: keyof AppointmentsReportRow & string, label: string, text: (row: AppointmentsReportRow) => string = (row) => String(row[id])) =>
    ({ id, label, text, sortValue: (row: AppointmentsReportRow) => row[id] as number });
  return [
    {
      id: 'group', label: GROUPS.find((group) => group.value === groupBy)!.label,
      // A day reads as a date; its key sorts the days in order. (While another grouping loads, the rows shown are
      // still the last grouping's: only a day's key is read as a date.)
      text: (row) => (groupBy === 'day' && DAY_KEY.test(row.key) ? formatCalendarDate(row.key) : row.label),
      sortValue: (row) => (groupBy === 'day' ? row.key : row.label),
    },
    number('visits', 'Visits'),
    number('hours', 'Hours', (row) => hours(row.hours)),
    number('cancelled', 'Cancelled'),
    number('outside_availability', 'Outside availability'),
    number('clients', 'Clients'),
  ];
}

export default function AppointmentsReport({ route }: RoutePageProps) {
  const { api } = useServices();
  const timeZone = useAuthSelector(selectUser)?.business_account.time_zone ?? 'Australia/Brisbane';
  const today = useMemo(() => todayIn(timeZone), [timeZone]);
  const schema = useMemo(() => ({
    // This month so far and what is booked for the rest of it: something to see on any day.
    ...reportFilterState({ start: today.with({ day: 1 }), end: today.with({ day: today.daysInMonth }) }),
    group: urlParam.oneOf(GROUPS.map((group) => group.value), 'practitioner'),
  }), [today]);
  const [state, setState] = useUrlState(schema);
  const report = useQuery(reportQueries.appointments(api, { ...reportQueryOf(state), group_by: state.group }));
  const columns = useMemo(() => columnsFor(state.group), [state.group]);
  const summary = report.data?.summary;

  return (
    <ReportFrame
      title={route.title}
      intro="Visits and their hours by practitioner, type, location or day, with cancellations and visits outside the client's availability."
      today={today}
      range={state.range}
      onRangeChange={(range) => setState({ range })}
      rangeControl={<ReportSelect label="Group by" value={state.group} options={GROUPS} onChange={(group) => setState({ group })} />}
      scope={`Visits from ${formatDayRange(state.range.start, state.range.end)} by ${GROUPS.find((group) => group.value === state.group)!.label.toLowerCase()}${
        activeFilterCount(state) > 0 ? ', of the chosen practitioners, types and locations' : ''
      }; printed ${formatDateTime(Temporal.Now.instant().toString(), timeZone)}.`}
      visitFilters={state}
      onVisitFiltersChange={setState}
      status={{ pending: report.isPending, fetching: report.isFetching, error: report.error }}
      summary={summary ? [
        { label: 'Visits', value: summary.visits },
        { label: 'Hours', value: hours(summary.hours) },
        { label: 'Cancelled', value: summary.cancelled },
        { label: 'Outside availability', value: summary.outside_availability },
      ] : null}
      chart={report.data && report.data.days.some((day) => day.visits + day.cancelled > 0) && <DailyChart data={report.data.days} />}
    >
      {report.data && (
        <ReportTable
          label={route.title}
          columns={columns}
          rows={report.data.rows}
          rowKey={(row) => row.key}
          totals={summary && { key: 'total', label: 'Total', ...summary }}
          fileName={`appointments-by-${state.group}-${toRequestDate(state.range.start)}-${toRequestDate(state.range.end)}.csv`}
          empty="No visits in these days."
        />
      )}
    </ReportFrame>
  );
}
