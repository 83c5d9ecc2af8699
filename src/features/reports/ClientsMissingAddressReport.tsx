// /reports/clients-missing-address: the clients a route cannot place well — an incomplete address, no map point, or
// only the suburb's centre — with the visit that makes fixing them urgent (the soonest first). Every such client by
// default, or only those with a visit in the chosen days; each row opens the client, where the address or the pin
// can be corrected.
import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useAuthSelector, useServices } from '../../app/ServicesContext';
import { selectUser } from '../../machines/auth';
import { Temporal } from 'temporal-polyfill';
import { formatDateTime, formatDayRange, todayIn, toRequestDate } from '../../lib/dates';
import { urlParam, useUrlState } from '../../lib/urlState';
import type { RoutePageProps } from '../../router/routeTypes';
import type { AddressProblem, ClientMissingAddressRow } from './api';
import { CountsChart } from './CountsChart';
import { reportQueries } from './queries';
import { ReportFrame } from './ReportFrame';
import { activeFilterCount, reportFilterState, reportQueryOf, UPCOMING_PRESETS } from './reportFilters';
import { clientColumn, ReportTable, type ReportColumn } from './ReportTable';

/** The range offered first: long enough to fix an address before the visit is routed. */
const DEFAULT_DAYS_AHEAD = 13;

export const PROBLEM_LABELS: Record<AddressProblem, string> = {
  incomplete_address: 'Address incomplete',
  no_point: 'Not on the map',
  approximate_point: 'Suburb only',
};

function columnsFor(timeZone: string): ReportColumn<ClientMissingAddressRow>[] {
  return [
    clientColumn(),
    { id: 'address', label: 'Address', text: (row) => row.address, sortValue: (row) => row.address || null },
    { id: 'suburb', label: 'Suburb', text: (row) => row.city ?? '', sortValue: (row) => row.city || null },
    { id: 'postcode', label: 'Postcode', text: (row) => row.postcode ?? '', sortValue: (row) => row.postcode || null },
    {
      id: 'problems', label: 'Problem', text: (row) => row.problems.map((problem) => PROBLEM_LABELS[problem]).join('; '),
      sortValue: (row) => row.problems.map((problem) => PROBLEM_LABELS[problem]).join('; '),
      render: (row) => (
        <ul className="flex flex-wrap gap-1">
          {row.problems.map((problem) => (
            <li key={problem} className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900 dark:bg-amber-900/40 dark:text-amber-200">
              {PROBLEM_LABELS[problem]}
            </li>
          ))}
        </ul>
      ),
    },
    {
      id: 'next_visit', label: 'Next visit', text: (row) => (row.next_visit ? formatDateTime(row.next_visit.starts_at, timeZone) : 'None'),
      sortValue: (row) => row.next_visit?.starts_at ?? null,
    },
    {
      id: 'practitioner', label: 'Practitioner', text: (row) => row.next_visit?.practitioner_name ?? '',
      sortValue: (row) => row.next_visit?.practitioner_name ?? null,
    },
  ];
}

export default function ClientsMissingAddressReport({ route }: RoutePageProps) {
  const { api } = useServices();
  const timeZone = useAuthSelector(selectUser)?.business_account.time_zone ?? 'Australia/Brisbane';
  const today = useMemo(() => todayIn(timeZone), [timeZone]);
  const schema = useMemo(() => ({ ...reportFilterState({ start: today, end: today.add({ days: DEFAULT_DAYS_AHEAD }) }), visits: urlParam.flag() }), [today]);
  const [state, setState] = useUrlState(schema);
  const query = reportQueryOf({ ...state, range: state.visits ? state.range : null });
  const report = useQuery(reportQueries.clientsMissingAddress(api, query));
  const columns = useMemo(() => columnsFor(timeZone), [timeZone]);
  const summary = report.data?.summary;

  return (
    <ReportFrame
      title={route.title}
      intro="Clients a route cannot place well: fix their address or move their pin before their visit is routed."
      today={today}
      range={state.range}
      onRangeChange={(range) => setState({ range, visits: true })}
      presets={UPCOMING_PRESETS}
      rangeLabel="Visits between"
      rangeControl={
        <label className="flex items-center gap-2 pb-1.5 text-sm">
          <input type="checkbox" checked={state.visits} onChange={(event) => setState({ visits: event.target.checked })} className="size-4 rounded border-slate-300" />
          Only clients with a visit in these days
        </label>
      }
      scope={`${state.visits ? `Clients with a visit from ${formatDayRange(state.range.start, state.range.end)}` : 'Every client'}${
        activeFilterCount(state) > 0 ? `, counting only the visits of the chosen practitioners, types and locations` : ''
      }; printed ${formatDateTime(Temporal.Now.instant().toString(), timeZone)}.`}
      visitFilters={state}
      onVisitFiltersChange={setState}
      status={{ pending: report.isPending, fetching: report.isFetching, error: report.error }}
      summary={summary ? [
        { label: 'Clients to fix', value: summary.clients },
        { label: PROBLEM_LABELS.incomplete_address, value: summary.incomplete_address },
        { label: PROBLEM_LABELS.no_point, value: summary.no_point },
        { label: PROBLEM_LABELS.approximate_point, value: summary.approximate_point },
      ] : null}
      chart={summary && summary.clients > 0 && (
        <CountsChart data={(['incomplete_address', 'no_point', 'approximate_point'] as const).map((problem) => ({ label: PROBLEM_LABELS[problem], count: summary[problem] }))} />
      )}
    >
      {report.data && (
        <ReportTable
          label={route.title}
          columns={columns}
          rows={report.data.rows}
          rowKey={(row) => row.client_id}
          fileName={`clients-missing-address-${toRequestDate(today)}.csv`}
          empty={state.visits ? 'No client with a visit in these days needs fixing.' : 'Every client has a full address and a precise point.'}
        />
      )}
    </ReportFrame>
  );
}
