// /reports/client-travel: the travel to bill each client for — every visit's inbound leg (minutes and km; from the
// applied route, else estimated), the minutes claimable under the cap (30 min, or 60 for a regional client: one
// tagged "Regional"), and km × the rate. The cap, the regional cap and the rate are this report's own filters, in
// the address; the table totals each client (paged and sorted by the server, ADR 0018; the summary and chart are
// over every client), and "Download visits CSV" asks for each visit's line and saves them for invoicing.
import { useEffect, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Temporal } from 'temporal-polyfill';
import { useAuthSelector, useServices } from '../../app/ServicesContext';
import { selectUser } from '../../machines/auth';
import { formatDateTime, formatDayRange, formatTime, todayIn, toRequestDate } from '../../lib/dates';
import { urlParam, useUrlState, type UrlParam } from '../../lib/urlState';
import type { RoutePageProps } from '../../router/routeTypes';
import { fetchClientTravel, fetchClientTravelVisits, type ClientTravelRow, type ClientTravelVisit } from './api';
import { CountsChart } from './CountsChart';
import type { CsvColumn } from './csv';
import { FetchedCsvButton } from './FetchedCsvButton';
import { reportQueries } from './queries';
import { ReportFrame } from './ReportFrame';
import { activeFilterCount, REPORT_PRESETS, reportFilterState, reportPageState, reportPaging, reportQueryOf } from './reportFilters';
import { clientColumn, ReportTable, type ReportColumn } from './ReportTable';
import { dollars, km, minutes } from './travelFormat';
import { useBusinessDefaults } from '../../app/businessDefaults';

/** The defaults the server applies too (NDIS provider travel: 30 min, 60 min regional; $0.99/km). */
export const CLAIM_DEFAULTS = { cap: 30, regionalCap: 60, rate: 0.99 } as const;
const MAX_CAP_MINUTES = 600;
const MAX_RATE = 100;
/** Clients shown in the chart: those with the largest amounts (the server's `largest`). */
const CHART_CLIENTS = 12;
/** The columns the server sorts the table by. */
const SORTS = ['client', 'suburb', 'regional', 'visits', 'without', 'minutes', 'km', 'cap', 'claimable', 'amount'] as const;

/** Dollars a kilometre in the address: 0 to 100, at most two decimals. */
const rateParam = (fallback: number): UrlParam<number> => ({
  parse: (entries) => {
    const value = entries.length ? Number(entries[0]) : NaN;
    return /^\d{1,3}(\.\d{1,2})?$/.test(entries[0] ?? '') && value <= MAX_RATE ? value : undefined;
  },
  format: (value) => [String(value)],
  fallback,
});

function columnsFor(): ReportColumn<ClientTravelRow>[] {
  return [
    clientColumn(),
    // The suburb and id tell two clients of the same name apart on an invoice.
    { id: 'suburb', label: 'Suburb', text: (row) => row.client_suburb ?? '', sortValue: (row) => row.client_suburb },
    { id: 'client_id', label: 'Client id', text: (row) => String(row.client_id), sortValue: (row) => row.client_id },
    { id: 'regional', label: 'Regional', text: (row) => (row.regional ? 'Yes' : 'No'), sortValue: (row) => (row.regional ? 1 : 0) },
    { id: 'visits', label: 'Visits', text: (row) => String(row.visits), sortValue: (row) => row.visits },
    { id: 'without', label: 'No leg', text: (row) => String(row.visits_without_travel), sortValue: (row) => row.visits_without_travel },
    { id: 'minutes', label: 'Travel min', text: (row) => minutes(row.travel_seconds), sortValue: (row) => row.travel_seconds },
    { id: 'km', label: 'Travel km', text: (row) => km(row.travel_metres), sortValue: (row) => row.travel_metres },
    { id: 'cap', label: 'Cap min', text: (row) => String(row.cap_minutes), sortValue: (row) => row.cap_minutes },
    { id: 'claimable', label: 'Claimable min', text: (row) => minutes(row.claimable_seconds), sortValue: (row) => row.claimable_seconds },
    { id: 'amount', label: 'Km $', text: (row) => dollars(row.amount), sortValue: (row) => row.amount },
  ];
}

function visitColumnsFor(timeZone: string): CsvColumn<ClientTravelVisit>[] {
  return [
    { label: 'Client', text: (visit) => visit.client_name },
    { label: 'Suburb', text: (visit) => visit.client_suburb ?? '' },
    { label: 'Client id', text: (visit) => String(visit.client_id) },
    { label: 'Regional', text: (visit) => (visit.regional ? 'Yes' : 'No') },
    { label: 'Day', text: (visit) => visit.day },
    { label: 'Start', text: (visit) => formatTime(visit.starts_at, timeZone) },
    { label: 'Appointment id', text: (visit) => String(visit.appointment_id) },
    { label: 'Practitioner', text: (visit) => visit.practitioner_name },
    { label: 'From', text: (visit) => visit.from_name ?? '' },
    { label: 'Travel min', text: (visit) => (visit.travel_seconds === null ? '' : minutes(visit.travel_seconds)) },
    { label: 'Travel km', text: (visit) => (visit.travel_metres === null ? '' : km(visit.travel_metres)) },
    { label: 'Claimable min', text: (visit) => minutes(visit.claimable_seconds) },
    { label: 'Km $', text: (visit) => dollars(visit.amount) },
    { label: 'Source', text: (visit) => (visit.source === 'route' ? 'Route' : visit.source === 'estimate' ? 'Estimate' : 'No leg') },
  ];
}

const isValidNumber = (text: string, max: number, step: number) => {
  const value = Number(text);
  return text.trim() !== '' && Number.isFinite(value) && value >= 0 && value <= max && (step === 1 ? Number.isInteger(value) : Math.round(value * 100) === value * 100);
};

/** A number filter kept in the address once it is valid; while it is not, the field says why and the report waits. */
export function NumberFilter({ label, value, onChange, max, step, unit }: {
  label: string; value: number; onChange: (value: number) => void; max: number; step: number; unit: string;
}) {
  const [text, setText] = useState(String(value));
  useEffect(() => setText(String(value)), [value]);
  const valid = isValidNumber(text, max, step);
  return (
    <label className="flex flex-col gap-1 text-sm">
      <span className="font-medium">{label}</span>
      <span className="flex items-center gap-1">
        <input
          type="number" inputMode="decimal" min={0} max={max} step={step} value={text} aria-invalid={!valid}
          onChange={(event) => {
            setText(event.target.value);
            if (isValidNumber(event.target.value, max, step)) onChange(Number(event.target.value));
          }}
          className="w-24 rounded-md border border-slate-300 px-2 py-1.5 dark:border-slate-700 dark:bg-slate-900"
        />
        <span className="text-slate-600 dark:text-slate-400">{unit}</span>
      </span>
      {!valid && <span className="text-xs text-red-700 dark:text-red-400">From 0 to {max}{step === 1 ? ', whole' : ', to the cent'}.</span>}
    </label>
  );
}

export default function ClientTravelReport({ route }: RoutePageProps) {
  const { api } = useServices();
  const timeZone = useAuthSelector(selectUser)?.business_account.time_zone ?? 'Australia/Brisbane';
  const today = useMemo(() => todayIn(timeZone), [timeZone]);
  const { weekStart } = useBusinessDefaults();
  const schema = useMemo(() => ({
    ...reportFilterState(REPORT_PRESETS[1].range(today, weekStart)),
    cap: urlParam.integer(CLAIM_DEFAULTS.cap, { min: 0, max: MAX_CAP_MINUTES }),
    regional_cap: urlParam.integer(CLAIM_DEFAULTS.regionalCap, { min: 0, max: MAX_CAP_MINUTES }),
    rate: rateParam(CLAIM_DEFAULTS.rate),
    ...reportPageState(SORTS, 'client'),
  }), [today, weekStart]);
  const [state, setState] = useUrlState(schema);
  /** A new filter shows the first page. */
  const setFilters = (patch: Partial<typeof state>) => setState({ ...patch, page: 1 });
  const table = reportPaging(state, SORTS, setState);
  const query = { ...reportQueryOf(state), cap_minutes: state.cap, regional_cap_minutes: state.regional_cap, rate_per_km: state.rate };
  const report = useQuery(reportQueries.clientTravel(api, { ...query, ...table.page }));
  const summary = report.data?.summary;
  const columns = useMemo(columnsFor, []);
  const visitColumns = useMemo(() => visitColumnsFor(timeZone), [timeZone]);
  const top = report.data?.largest ?? [];
  const period = `${toRequestDate(state.range.start)}-${toRequestDate(state.range.end)}`;

  return (
    <ReportFrame
      title={route.title}
      intro="Travel to bill each client for: the leg that brought the practitioner to each visit, capped, and its kilometres at the rate."
      today={today}
      range={state.range}
      onRangeChange={(range) => setFilters({ range })}
      rangeControl={
        <div className="flex flex-wrap items-end gap-3">
          <NumberFilter label="Cap" unit="min" value={state.cap} max={MAX_CAP_MINUTES} step={1} onChange={(cap) => setFilters({ cap })} />
          <NumberFilter label="Regional cap" unit="min" value={state.regional_cap} max={MAX_CAP_MINUTES} step={1} onChange={(value) => setFilters({ regional_cap: value })} />
          <NumberFilter label="Rate" unit="$/km" value={state.rate} max={MAX_RATE} step={0.01} onChange={(rate) => setFilters({ rate })} />
        </div>
      }
      scope={`Visits from ${formatDayRange(state.range.start, state.range.end)}${
        activeFilterCount(state) > 0 ? ', of the chosen practitioners, types and locations' : ''
      }; cap ${state.cap} min (regional ${state.regional_cap} min), $${dollars(state.rate)}/km. Printed ${formatDateTime(Temporal.Now.instant().toString(), timeZone)}.`}
      visitFilters={state}
      onVisitFiltersChange={setFilters}
      status={{ pending: report.isPending, fetching: report.isFetching, error: report.error }}
      summary={summary ? [
        { label: 'Clients', value: summary.clients },
        { label: 'Visits', value: summary.visits },
        { label: 'Travel km', value: km(summary.travel_metres) },
        { label: 'Travel hours', value: (summary.travel_seconds / 3600).toFixed(1) },
        { label: 'Claimable hours', value: (summary.claimable_seconds / 3600).toFixed(1) },
        { label: 'Km amount', value: `$${dollars(summary.amount)}` },
      ] : null}
      chart={top.length > 0 && (
        <figure>
          <figcaption className="mb-2 text-sm font-medium">Km amount per client ($){top.length === CHART_CLIENTS ? `, the ${CHART_CLIENTS} largest` : ''}</figcaption>
          <CountsChart name="Km amount ($)" decimals data={top.map((row) => ({ label: row.client_name, count: row.amount }))} />
        </figure>
      )}
    >
      {report.data && summary && (
        <>
          <p className="px-4 pt-3 text-xs text-slate-600 dark:text-slate-400">
            A visit’s travel is the leg that reaches it. Regional clients are those tagged “Regional”. Legs counted: {summary.legs_counted}
          </p>
          <ReportTable
            label={route.title}
            columns={columns}
            rows={report.data.rows}
            rowKey={(row) => row.client_id}
            fileName={`client-travel-${period}.csv`}
            empty="No client visits in these days."
            paging={{ ...table.paging, total: report.data.meta.total, allRows: async () => (await fetchClientTravel(api, { ...query, ...table.order })).rows }}
            actions={
              <FetchedCsvButton
                label="Download visits CSV" disabled={report.data.rows.length === 0} columns={visitColumns} fileName={`client-travel-visits-${period}.csv`}
                rowsOf={async () => (await fetchClientTravelVisits(api, query)).visits}
              />
            }
          />
        </>
      )}
    </ReportFrame>
  );
}
