// /reports/activity: the audit trail — who imported, exported, optimised, changed an arrival time, an availability,
// tags, settings or users, or was logged in as by support, when, on what, and each change in the words of the appointment
// modal's change log (times in the business's zone). Filtered by days, kind, author and the visit filters, all in
// the address; counts per kind in the summary and the chart; the table paged and sorted by the server (ADR 0018),
// newest first.
import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Temporal } from 'temporal-polyfill';
import { useAuthSelector, useServices } from '../../app/ServicesContext';
import { selectUser } from '../../machines/auth';
import { formatDateTime, formatDayRange, todayIn, toRequestDate } from '../../lib/dates';
import { urlParam, useUrlState } from '../../lib/urlState';
import type { RoutePageProps } from '../../router/routeTypes';
import { changeLineText } from '../../entities/appointments/changeLine';
import { fetchActivity, type ActivityKind, type ActivityRow } from './api';
import { CountsChart } from './CountsChart';
import { reportQueries } from './queries';
import { ReportFrame } from './ReportFrame';
import { activeFilterCount, reportFilterState, reportPageState, reportPaging, reportQueryOf } from './reportFilters';
import { ReportSelect } from './ReportSelect';
import { ReportTable, type ReportColumn } from './ReportTable';

const ACTIVITY_KIND_LABELS: Record<ActivityKind, string> = {
  import: 'Import',
  export: 'Export',
  optimisation: 'Optimisation',
  arrival_time: 'Arrival time',
  visit: 'Visit change',
  availability: 'Availability',
  tags: 'Tags',
  client: 'Client change',
  settings: 'Settings',
  user: 'User change',
  login_as: 'Login as',
};
const KINDS = Object.keys(ACTIVITY_KIND_LABELS) as ActivityKind[];
const FEW_CHANGES = 3;
/** The columns the server sorts the table by. */
const SORTS = ['at', 'who'] as const;

/** Each change in words; a new record's values as set (a job's status, too); the reason or a job's error after. */
function changesText(row: ActivityRow, timeZone: string): string[] {
  const event = row.event === 'update' || row.event === 'destroy' ? row.event : 'create';
  return [...row.changes.map((change) => changeLineText(change, event, timeZone)), ...(row.reason ? [row.reason] : [])];
}

/** The kind in words; a visit or client added or removed says so. */
const kindText = (row: ActivityRow) => {
  const record = row.kind === 'visit' ? 'Visit' : row.kind === 'client' ? 'Client' : null;
  if (row.kind === 'user' && row.event === 'create') return 'User invited';
  if (record && row.event === 'create') return `${record} added`;
  if (record && row.event === 'destroy') return `${record} removed`;
  return ACTIVITY_KIND_LABELS[row.kind];
};

/** The first few changes; the rest (a record added with all its fields) behind "and N more". The CSV has them all. */
function ChangeLines({ lines }: { lines: string[] }) {
  const list = (shown: string[]) => <ul className="space-y-0.5">{shown.map((line, index) => <li key={index}>{line}</li>)}</ul>;
  if (lines.length <= FEW_CHANGES + 1) return list(lines);
  return (
    <>
      {list(lines.slice(0, FEW_CHANGES))}
      <details className="mt-0.5">
        <summary className="cursor-pointer text-sky-700 dark:text-sky-400">and {lines.length - FEW_CHANGES} more</summary>
        {list(lines.slice(FEW_CHANGES))}
      </details>
    </>
  );
}

function columnsFor(timeZone: string): ReportColumn<ActivityRow>[] {
  return [
    { id: 'at', label: 'When', text: (row) => formatDateTime(row.at, timeZone), sortValue: (row) => row.at },
    { id: 'who', label: 'Who', text: (row) => row.who ?? 'The system', sortValue: (row) => row.who },
    { id: 'kind', label: 'Kind', text: kindText, sortValue: kindText },
    { id: 'what', label: 'What', text: (row) => row.what, sortValue: (row) => row.what },
    {
      id: 'changes', label: 'Changes', text: (row) => changesText(row, timeZone).join('; '), sortValue: (row) => changesText(row, timeZone).join('; '),
      render: (row) => <ChangeLines lines={changesText(row, timeZone)} />,
    },
  ];
}

export default function ActivityReport({ route }: RoutePageProps) {
  const { api } = useServices();
  const timeZone = useAuthSelector(selectUser)?.business_account.time_zone ?? 'Australia/Brisbane';
  const today = useMemo(() => todayIn(timeZone), [timeZone]);
  const schema = useMemo(() => ({
    // The last seven days: this week's imports and whatever changed since.
    ...reportFilterState({ start: today.subtract({ days: 6 }), end: today }),
    kind: urlParam.oneOf(['', ...KINDS] as const, ''),
    author: urlParam.text(),
    ...reportPageState(SORTS, 'at', 'desc'),
  }), [today]);
  const [state, setState] = useUrlState(schema);
  /** A new filter shows the first page. */
  const setFilters = (patch: Partial<typeof state>) => setState({ ...patch, page: 1 });
  const table = reportPaging(state, SORTS, setState);
  const query = { ...reportQueryOf(state), ...(state.kind ? { kinds: [state.kind] } : {}), ...(state.author ? { author: state.author } : {}) };
  const report = useQuery(reportQueries.activity(api, { ...query, ...table.page }));
  const columns = useMemo(() => columnsFor(timeZone), [timeZone]);
  const data = report.data;
  const authors = [...new Set([...(data?.authors ?? []), ...(state.author ? [state.author] : [])])];

  return (
    <ReportFrame
      title={route.title}
      intro="Who imported, exported, optimised or changed what, and when: arrival times, availability, tags, settings and users."
      today={today}
      range={state.range}
      onRangeChange={(range) => setFilters({ range })}
      rangeControl={
        <>
          <ReportSelect label="Kind" value={state.kind} onChange={(kind) => setFilters({ kind })}
            options={[{ value: '', label: 'Every kind' }, ...KINDS.map((kind) => ({ value: kind, label: ACTIVITY_KIND_LABELS[kind] }))]} />
          <ReportSelect label="Who" value={state.author} onChange={(author) => setFilters({ author })}
            options={[{ value: '', label: 'Everyone' }, ...authors.map((author) => ({ value: author, label: author }))]} />
        </>
      }
      scope={`Activity from ${formatDayRange(state.range.start, state.range.end)}${state.kind ? `, ${ACTIVITY_KIND_LABELS[state.kind].toLowerCase()} only` : ''}${
        state.author ? `, by ${state.author}` : ''}${activeFilterCount(state) > 0 ? ', changes to the chosen practitioners\u2019, types\u2019 and locations\u2019 visits' : ''
      }; printed ${formatDateTime(Temporal.Now.instant().toString(), timeZone)}.`}
      visitFilters={state}
      onVisitFiltersChange={setFilters}
      status={{ pending: report.isPending, fetching: report.isFetching, error: report.error }}
      summary={data ? [
        { label: 'All activity', value: data.summary.total },
        ...data.summary.by_kind.map((entry) => ({ label: ACTIVITY_KIND_LABELS[entry.kind], value: entry.count })),
      ] : null}
      chart={data && data.summary.total > 0 && (
        <CountsChart name="Activity" data={data.summary.by_kind.map((entry) => ({ label: ACTIVITY_KIND_LABELS[entry.kind], count: entry.count }))} />
      )}
    >
      {data && (
        <ReportTable
          label={route.title}
          columns={columns}
          rows={data.rows}
          rowKey={(row) => row.id}
          paging={{ ...table.paging, total: data.meta.total, allRows: async () => (await fetchActivity(api, { ...query, ...table.order })).rows }}
          fileName={`activity-${toRequestDate(state.range.start)}-${toRequestDate(state.range.end)}.csv`}
          empty="Nothing was done in these days."
        />
      )}
    </ReportFrame>
  );
}
