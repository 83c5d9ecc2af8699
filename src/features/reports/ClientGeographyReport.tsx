// /reports/client-geography: where clients live — each client on the map (rose: beyond the service radius), counts
// by suburb or postcode, and each client's great-circle distance to the nearest start place of an active
// practitioner. Every client by default; or only those with a visit in the chosen days (and of the chosen
// practitioners, types and locations), as Clients missing address reads them. The radius (km) and the grouping are
// in the address. The map is a density view: where clients crowd at the scale shown, one counted circle (rose when
// most of them are beyond the radius), parting into single clients as a street map zooms in; at most 5,000 clients
// (beyond-radius first: the server's `points`). The clients' table is paged and sorted by the server (ADR 0018).
import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Temporal } from 'temporal-polyfill';
import { useAuthSelector, useServices } from '../../app/ServicesContext';
import { openClientModal } from '../../app/modalStore';
import { selectUser } from '../../machines/auth';
import { formatDateTime, formatDayRange, todayIn, toRequestDate } from '../../lib/dates';
import { urlParam, useUrlState } from '../../lib/urlState';
import type { RoutePageProps } from '../../router/routeTypes';
import { MapView } from '../../ui/map/MapView';
import type { MapPin } from '../../lib/map/mapTypes';
import { fetchClientGeography, type ClientGeographyGroup, type ClientGeographyRow } from './api';
import { NumberFilter } from './ClientTravelReport';
import { CountsChart } from './CountsChart';
import { reportQueries } from './queries';
import { ReportFrame } from './ReportFrame';
import { activeFilterCount, REPORT_PRESETS, reportFilterState, reportPageState, reportPaging, reportQueryOf } from './reportFilters';
import { clientColumn, ReportTable, type ReportColumn } from './ReportTable';
import { useBusinessDefaults } from '../../app/businessDefaults';

export const DEFAULT_RADIUS_KM = 25;
const MAX_RADIUS_KM = 1000;
/** The columns the server sorts the clients' table by. */
const SORTS = ['client', 'suburb', 'postcode', 'point', 'start', 'practitioner', 'distance', 'outside'] as const;
/** Groups in the chart: the largest. */
const CHART_GROUPS = 12;
const GROUP_LABELS = { suburb: 'Suburb', postcode: 'Postcode' } as const;

const CLIENT_COLUMNS: readonly ReportColumn<ClientGeographyRow>[] = [
  clientColumn(),
  { id: 'suburb', label: 'Suburb', text: (row) => row.suburb ?? '', sortValue: (row) => row.suburb },
  { id: 'postcode', label: 'Postcode', text: (row) => row.postcode ?? '', sortValue: (row) => row.postcode },
  { id: 'point', label: 'On the map', text: (row) => (row.lat === null ? 'No' : row.geo_precision === 'suburb' ? 'Suburb only' : 'Yes'), sortValue: (row) => (row.lat === null ? 0 : 1) },
  { id: 'start', label: 'Nearest start', text: (row) => row.nearest_start_place ?? '', sortValue: (row) => row.nearest_start_place },
  { id: 'practitioner', label: 'Practitioner', text: (row) => row.nearest_practitioner_name ?? '', sortValue: (row) => row.nearest_practitioner_name },
  { id: 'distance', label: 'Km', text: (row) => (row.distance_km === null ? '' : row.distance_km.toFixed(1)), sortValue: (row) => row.distance_km },
  { id: 'outside', label: 'Beyond radius', text: (row) => (row.outside_radius ? 'Yes' : 'No'), sortValue: (row) => (row.outside_radius ? 1 : 0) },
];

function groupColumns(by: 'suburb' | 'postcode'): ReportColumn<ClientGeographyGroup>[] {
  return [
    { id: 'key', label: GROUP_LABELS[by], text: (group) => group.key || '(none)', sortValue: (group) => group.key },
    { id: 'clients', label: 'Clients', text: (group) => String(group.clients), sortValue: (group) => group.clients },
    { id: 'placed', label: 'On the map', text: (group) => String(group.placed), sortValue: (group) => group.placed },
    { id: 'outside', label: 'Beyond radius', text: (group) => String(group.outside_radius), sortValue: (group) => group.outside_radius },
  ];
}

export default function ClientGeographyReport({ route }: RoutePageProps) {
  const { api } = useServices();
  const timeZone = useAuthSelector(selectUser)?.business_account.time_zone ?? 'Australia/Brisbane';
  const today = useMemo(() => todayIn(timeZone), [timeZone]);
  const { weekStart } = useBusinessDefaults();
  const schema = useMemo(() => ({
    ...reportFilterState(REPORT_PRESETS[3].range(today, weekStart)),
    visits: urlParam.flag(),
    radius: urlParam.integer(DEFAULT_RADIUS_KM, { min: 1, max: MAX_RADIUS_KM }),
    by: urlParam.oneOf(['suburb', 'postcode'] as const, 'suburb'),
    ...reportPageState(SORTS, 'client'),
  }), [today, weekStart]);
  const [state, setState] = useUrlState(schema);
  /** A new filter shows the first page. */
  const setFilters = (patch: Partial<typeof state>) => setState({ ...patch, page: 1 });
  const table = reportPaging(state, SORTS, setState);
  const query = { ...reportQueryOf({ ...state, range: state.visits ? state.range : null }), radius_km: state.radius, group_by: state.by };
  const report = useQuery(reportQueries.clientGeography(api, { ...query, ...table.page }));
  const summary = report.data?.summary;
  const groups = useMemo(() => groupColumns(state.by), [state.by]);
  const pins = useMemo<MapPin[]>(() => (report.data?.points ?? [])
    .map((point) => ({ id: point.client_id, lat: point.lat, lng: point.lng, title: point.client_name, color: point.outside_radius ? '#e11d48' : '#0284c7' })), [report.data]);

  return (
    <ReportFrame
      title={route.title}
      intro="Where clients live, how far they are from the nearest practitioner’s start place, and who is beyond the service radius."
      today={today}
      range={state.range}
      onRangeChange={(range) => setFilters({ range, visits: true })}
      rangeLabel="Visits between"
      rangeControl={
        <div className="flex flex-wrap items-end gap-3">
          <label className="flex items-center gap-2 pb-1.5 text-sm">
            <input type="checkbox" checked={state.visits} onChange={(event) => setFilters({ visits: event.target.checked })} className="size-4 rounded border-slate-300" />
            Only clients with a visit in these days
          </label>
          <NumberFilter label="Service radius" unit="km" value={state.radius} max={MAX_RADIUS_KM} step={1} onChange={(radius) => setFilters({ radius: Math.max(1, radius) })} />
          <label className="flex flex-col gap-1 text-sm">
            <span className="font-medium">Count by</span>
            <select
              value={state.by} onChange={(event) => setFilters({ by: event.target.value as 'suburb' | 'postcode' })}
              className="rounded-md border border-slate-300 px-2 py-1.5 dark:border-slate-700 dark:bg-slate-900"
            >
              <option value="suburb">Suburb</option>
              <option value="postcode">Postcode</option>
            </select>
          </label>
        </div>
      }
      scope={`${state.visits ? `Clients with a visit from ${formatDayRange(state.range.start, state.range.end)}` : 'Every client'}${
        activeFilterCount(state) > 0 ? ', of the chosen practitioners, types and locations' : ''
      }; service radius ${state.radius} km from the nearest start place of an active practitioner (straight line). Printed ${formatDateTime(Temporal.Now.instant().toString(), timeZone)}.`}
      visitFilters={state}
      onVisitFiltersChange={setFilters}
      status={{ pending: report.isPending, fetching: report.isFetching, error: report.error }}
      summary={summary ? [
        { label: 'Clients', value: summary.clients },
        { label: 'On the map', value: summary.placed },
        { label: `Beyond ${summary.radius_km} km`, value: summary.outside_radius },
        { label: 'Median distance', value: summary.median_distance_km === null ? '—' : `${summary.median_distance_km.toFixed(1)} km` },
      ] : null}
      chart={report.data && report.data.meta.total > 0 && (
        <div className="grid gap-4 lg:grid-cols-2">
          <figure>
            <figcaption className="mb-2 text-sm font-medium">
              Clients on the map{pins.length < (summary?.placed ?? 0) ? ` (${pins.length} of ${summary?.placed}, those beyond the radius first)` : ''}; a circle counts clients close together; rose: beyond {state.radius} km
            </figcaption>
            <div className="print:hidden"><MapView pins={pins} density height={360} onPinClick={(pin) => openClientModal(Number(pin.id))} /></div>
          </figure>
          <figure>
            <figcaption className="mb-2 text-sm font-medium">Clients per {state.by}{report.data.groups.length > CHART_GROUPS ? `, the ${CHART_GROUPS} largest` : ''}</figcaption>
            <CountsChart data={report.data.groups.slice(0, CHART_GROUPS).map((group) => ({ label: group.key || '(none)', count: group.clients }))} />
          </figure>
        </div>
      )}
    >
      {report.data && summary && (
        <>
          {summary.start_places === 0 && (
            <p className="px-4 pt-3 text-sm text-amber-800 dark:text-amber-300">No active practitioner has a start place with a map position: distances cannot be measured. Set start places in Settings → Practitioners.</p>
          )}
          <h2 className="px-4 pt-4 text-sm font-semibold">Clients per {state.by}</h2>
          <ReportTable
            label={`Clients per ${state.by}`} columns={groups} rows={report.data.groups} rowKey={(group) => group.key}
            fileName={`client-geography-${state.by}-${toRequestDate(today)}.csv`} empty="No clients."
          />
          <h2 className="px-4 pt-4 text-sm font-semibold">Clients</h2>
          <ReportTable
            label={route.title} columns={CLIENT_COLUMNS} rows={report.data.rows} rowKey={(row) => row.client_id}
            fileName={`client-geography-${toRequestDate(today)}.csv`}
            empty={state.visits ? 'No client has a visit in these days.' : 'No clients yet.'}
            paging={{ ...table.paging, total: report.data.meta.total, allRows: async () => (await fetchClientGeography(api, { ...query, ...table.order })).rows }}
          />
        </>
      )}
    </ReportFrame>
  );
}
