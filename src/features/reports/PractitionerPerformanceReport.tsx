// /reports/practitioner-performance: how each practitioner's days went — visits and cancellations, utilisation (visit
// hours ÷ the working hours of their settings, as the dashboard counts it), idle time between visits beyond the
// travel, punctuality (the check-in's arrival where a visit has one, else the plan's arrival within the client's
// availability; how many were judged by check-in said), distinct clients and continuity (visits to a
// client they had visited before) — with a totals row and a chart of utilisation. One row per practitioner.
import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Temporal } from 'temporal-polyfill';
import { useAuthSelector, useServices } from '../../app/ServicesContext';
import { selectUser } from '../../machines/auth';
import { formatDateTime, formatDayRange, todayIn, toRequestDate } from '../../lib/dates';
import { useUrlState } from '../../lib/urlState';
import type { RoutePageProps } from '../../router/routeTypes';
import type { PractitionerPerformanceRow, PractitionerPerformanceSummary } from './api';
import { CountsChart } from './CountsChart';
import { reportQueries } from './queries';
import { ReportFrame } from './ReportFrame';
import { activeFilterCount, REPORT_PRESETS, reportFilterState, reportQueryOf } from './reportFilters';
import { ReportTable, type ReportColumn } from './ReportTable';
import { hours, percent } from './travelFormat';
import { useBusinessDefaults } from '../../app/businessDefaults';

const number = (id: keyof PractitionerPerformanceRow & string, label: string, text = (value: number) => String(value)): ReportColumn<PractitionerPerformanceRow> =>
  ({ id, label, text: (row) => text(row[id] as number), sortValue: (row) => row[id] as number });
const share = (id: 'utilisation' | 'punctuality' | 'continuity', label: string): ReportColumn<PractitionerPerformanceRow> =>
  ({ id, label, text: (row) => percent(row[id]), sortValue: (row) => row[id] });

const COLUMNS: readonly ReportColumn<PractitionerPerformanceRow>[] = [
  { id: 'practitioner', label: 'Practitioner', text: (row) => row.practitioner_name, sortValue: (row) => row.practitioner_name },
  number('visits', 'Visits'),
  number('cancellations', 'Cancelled'),
  number('visit_seconds', 'Visit hours', hours),
  number('working_seconds', 'Working hours', hours),
  share('utilisation', 'Utilisation'),
  number('idle_seconds', 'Idle hours', hours),
  share('punctuality', 'Punctuality'),
  number('from_check_ins', 'Judged by check-in'),
  number('clients', 'Clients'),
  share('continuity', 'Continuity'),
];

/** The summary as a row of the table, under the practitioners. */
const totalsOf = (summary: PractitionerPerformanceSummary): PractitionerPerformanceRow => ({
  ...summary, practitioner_id: 0, practitioner_name: `Total (${summary.practitioners})`,
});

export default function PractitionerPerformanceReport({ route }: RoutePageProps) {
  const { api } = useServices();
  const timeZone = useAuthSelector(selectUser)?.business_account.time_zone ?? 'Australia/Brisbane';
  const today = useMemo(() => todayIn(timeZone), [timeZone]);
  const { weekStart } = useBusinessDefaults();
  const schema = useMemo(() => reportFilterState(REPORT_PRESETS[1].range(today, weekStart)), [today, weekStart]);
  const [state, setState] = useUrlState(schema);
  const report = useQuery(reportQueries.practitionerPerformance(api, reportQueryOf(state)));
  const summary = report.data?.summary;
  const charted = report.data?.rows.filter((row) => row.utilisation !== null) ?? [];

  return (
    <ReportFrame
      title={route.title}
      intro="How each practitioner’s days went: how full they were, how long they waited between visits, whether they arrived when clients are available, and how often they saw the same clients."
      today={today}
      range={state.range}
      onRangeChange={(range) => setState({ range })}
      scope={`Visits from ${formatDayRange(state.range.start, state.range.end)}${
        activeFilterCount(state) > 0 ? ', of the chosen practitioners, types and locations' : ''
      }. Printed ${formatDateTime(Temporal.Now.instant().toString(), timeZone)}.`}
      visitFilters={state}
      onVisitFiltersChange={setState}
      status={{ pending: report.isPending, fetching: report.isFetching, error: report.error }}
      summary={summary ? [
        { label: 'Visits', value: summary.visits },
        { label: 'Cancelled', value: summary.cancellations },
        { label: 'Utilisation', value: percent(summary.utilisation) || '—' },
        { label: 'Idle hours', value: hours(summary.idle_seconds) },
        { label: 'Punctuality', value: percent(summary.punctuality) || '—' },
        { label: 'Judged by check-in', value: `${summary.from_check_ins} of ${summary.from_check_ins + summary.from_planned_times}` },
        { label: 'Clients', value: summary.clients },
        { label: 'Continuity', value: percent(summary.continuity) || '—' },
      ] : null}
      chart={charted.length > 0 && (
        <figure>
          <figcaption className="mb-2 text-sm font-medium">Utilisation per practitioner (%)</figcaption>
          <CountsChart name="Utilisation (%)" decimals data={charted.map((row) => ({ label: row.practitioner_name, count: Math.round(row.utilisation! * 1000) / 10 }))} />
        </figure>
      )}
    >
      {report.data && summary && (
        <>
          <dl className="grid gap-1 px-4 pt-3 text-xs text-slate-600 dark:text-slate-400">
            <div><dt className="inline font-semibold">Utilisation: </dt><dd className="inline">booked visit hours ÷ the working hours in the practitioner’s settings over these days (no hours: not counted).</dd></div>
            <div><dt className="inline font-semibold">Idle: </dt><dd className="inline">between two visits in a row, the time beyond the travel between them (the route’s leg, else the estimate; visits without a map point are left out).</dd></div>
            <div><dt className="inline font-semibold">Punctuality: </dt><dd className="inline">visits on time. A visit checked in on the phone counts by its actual arrival: within the visit’s tolerance of its planned arrival (“Judged by check-in” says how many). One without a check-in counts by its plan: its arrival is within the client’s availability (a client without set availability is always available). Visits that could not be attended are not counted.</dd></div>
            <div><dt className="inline font-semibold">Continuity: </dt><dd className="inline">visits to a client the practitioner had visited before (every visit but their first to that client).</dd></div>
          </dl>
          <ReportTable
            label={route.title}
            columns={COLUMNS}
            rows={report.data.rows}
            rowKey={(row) => row.practitioner_id}
            totals={totalsOf(summary)}
            fileName={`practitioner-performance-${toRequestDate(state.range.start)}-${toRequestDate(state.range.end)}.csv`}
            empty="No practitioner worked or had visits in these days."
          />
        </>
      )}
    </ReportFrame>
  );
}
