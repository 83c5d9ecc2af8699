// A finished run's proposal beside the day as it is: the KPIs before → after, the rule book's problems before → after,
// the visits that could not be placed and why, the lanes and the routes on the map (before / after), and the table of changes.
import { useEffect, useMemo, useRef, useState } from 'react';
import type { OptimizationProposal } from '../../../api/optimizations';
import { plural } from '../../../lib/plural';
import { hasCoordinates, type MapPlace, type MapRoute } from '../../../lib/map/mapTypes';
import { Section } from '../../../ui/ModalFrame';
import { PointPrecision, precisionOfPlaces, PrecisionSummary } from '../../../ui/PointPrecision';
import type { AppointmentSummary } from '../../../entities/appointments/api';
import { twoCarerKey } from '../../../entities/appointments/facts';
import { kpiRows } from './figures';
import { ProposalLanes, type LaneSide } from './ProposalLanes';
import { ProposalRules } from './ProposalRules';
import { ProposalTableHead } from './ProposalTableHead';
import type { RoutePlace } from '../../../entities/routes/api';
import { RouteMap } from './RouteMap';
import { ProposalChanges } from './ProposalChanges';

type Lane = OptimizationProposal['lanes'][number];
type DayKpis = OptimizationProposal['kpis']['before'];

const TREND_STYLE = {
  better: 'text-emerald-700 dark:text-emerald-400',
  worse: 'text-rose-700 dark:text-rose-400',
  same: 'text-slate-500 dark:text-slate-400',
} as const;

const placeOf = ({ lat, lng, name }: RoutePlace): MapPlace => ({ lat, lng, name });

/** How precise the lanes' visits' points are, by client (the map's points; none for visits without one). */
function precisionOfVisits(lanes: readonly Lane[], visits: ReadonlyMap<number, AppointmentSummary>) {
  return lanes.flatMap((lane) => lane.after.stops.flatMap((stop) => {
    const visit = visits.get(stop.appointment_id);
    return visit ? [{ name: stop.client_name ?? `Visit #${stop.appointment_id}`, precision: visit.geo_precision }] : [];
  }));
}

/** Each lane on the map, as the day is (before) or as proposed (after). */
function mapRoutes(lanes: readonly Lane[], side: LaneSide, visits: ReadonlyMap<number, AppointmentSummary>): MapRoute[] {
  return lanes.map((lane) => ({
    id: lane.practitioner_id,
    name: lane.practitioner_name,
    color: lane.color,
    start: placeOf(lane.start_place),
    end: placeOf(lane.end_place),
    stops: lane[side].stops.flatMap((stop) => {
      const visit = visits.get(stop.appointment_id);
      return visit && hasCoordinates(visit)
        ? [{ id: stop.appointment_id, lat: visit.lat, lng: visit.lng, title: stop.client_name ?? 'Visit', together: twoCarerKey(stop.appointment_id, stop.partner) }]
        : [];
    }),
  }));
}

/** The figures before → after, with the change (under the figure on a phone). */
export function KpiTable({ before, after, testId }: { before: DayKpis; after: DayKpis; testId: string }) {
  const rows = kpiRows(before, after);
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-sm" data-testid={testId}>
        <ProposalTableHead columns={[{ label: 'Figure' }, { label: 'Before' }, { label: 'After' }, { label: 'Change', wide: true }]} />
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {rows.map((row) => (
            <tr key={row.key} data-testid={`kpi-${row.key}`} data-trend={row.trend}>
              <th scope="row" className="py-1.5 pr-3 text-left font-medium">{row.label}</th>
              <td className="py-1.5 pr-3 whitespace-nowrap tabular-nums">{row.before}</td>
              <td className="py-1.5 pr-3 font-semibold whitespace-nowrap tabular-nums">
                {row.after}
                {/* On a phone the change sits under the figure instead of in a column of its own. */}
                <span aria-hidden="true" className={`block text-xs font-normal sm:hidden ${TREND_STYLE[row.trend]}`}>{row.change || 'same'}</span>
              </td>
              <td className={`hidden py-1.5 whitespace-nowrap tabular-nums sm:table-cell ${TREND_STYLE[row.trend]}`}>{row.change || 'same'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function ProposalView({ proposal, visits, focusOnShow = true }: {
  proposal: OptimizationProposal;
  /** The day's visits (for their map positions, booked times and types). */
  visits: ReadonlyMap<number, AppointmentSummary>;
  /** Focus the proposal's heading when shown (not when the day is chosen among a run's days). */
  focusOnShow?: boolean;
}) {
  const [side, setSide] = useState<LaneSide>('after');
  // The visit chosen from a change, a problem or a visit not placed: shown on the "after" lanes and on the map.
  const [focused, setFocused] = useState<number | null>(null);
  const [changesOnly, setChangesOnly] = useState(false);
  const lanesAndMap = useRef<HTMLDivElement>(null);
  const showVisit = (appointmentId: number) => {
    setSide('after');
    setFocused(appointmentId);
    lanesAndMap.current?.scrollIntoView?.({ block: 'start', behavior: 'smooth' });
  };
  const zone = proposal.time_zone;
  const changedIds = useMemo(() => new Set(proposal.changes.map((change) => change.appointment_id)), [proposal.changes]);
  const routes = useMemo(() => mapRoutes(proposal.lanes, side, visits), [proposal.lanes, side, visits]);
  const precisions = useMemo(() => precisionOfVisits(proposal.lanes, visits), [proposal.lanes, visits]);
  const places = useMemo(
    () => precisionOfPlaces(proposal.lanes.map((lane) => ({ name: lane.practitioner_name, places: [lane.start_place, lane.end_place] }))),
    [proposal.lanes],
  );

  // The proposal replaces the buttons that had focus: focus goes to its heading rather than to the page.
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focusOnShow) heading.current?.focus();
  }, [focusOnShow]);

  return (
    <>
      <h3 ref={heading} tabIndex={-1} data-testid="proposal-heading" className="text-base font-semibold text-slate-900 focus:outline-none dark:text-white">
        The proposal: {plural(proposal.changes.length, 'visit changes', 'visits change')}{proposal.unplaced.length > 0 && `, ${proposal.unplaced.length} not placed`}
      </h3>
      <Section title="Before → after">
        <KpiTable before={proposal.kpis.before} after={proposal.kpis.after} testId="proposal-kpis" />
        {proposal.figures_note && <p className="mt-1 text-xs text-slate-600 dark:text-slate-300" data-testid="proposal-figures-note">{proposal.figures_note}</p>}
        {proposal.search.stopped_by === 'budget' && (
          <p className="mt-1 text-xs text-amber-800 dark:text-amber-300" data-testid="proposal-time-capped">
            The search stopped at its time limit before its {proposal.search.max_iterations?.toLocaleString('en-AU') ?? ''} iterations (the server was busy):
            running this plan again may give a different one.
          </p>
        )}
      </Section>

      {proposal.checks && <ProposalRules checks={proposal.checks} onShowVisit={showVisit} />}

      {proposal.unplaced.length > 0 && (
        <Section title={`Visits not placed (${proposal.unplaced.length})`}>
          <ul className="space-y-1 text-sm" data-testid="proposal-unplaced">
            {proposal.unplaced.map((visit) => (
              <li key={visit.appointment_id} className="rounded-md border border-amber-200 bg-amber-50 px-3 py-1.5 dark:border-amber-900 dark:bg-amber-950">
                <button type="button" onClick={() => showVisit(visit.appointment_id)} className="font-medium text-sky-800 underline-offset-2 hover:underline dark:text-sky-300">
                  {visit.client_name ?? `Visit #${visit.appointment_id}`}
                </button>: {visit.message}
                {visit.reason === 'no-location' && <PointPrecision precision="none" className="ml-1.5" />}
              </li>
            ))}
          </ul>
          <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">Applying keeps these visits where they are now.</p>
        </Section>
      )}

      <div ref={lanesAndMap} className="scroll-mt-4">
      <Section
        title="Lanes and map"
        actions={
          <div className="flex flex-wrap items-center gap-2">
          <label className="inline-flex items-center gap-1 text-xs">
            <input type="checkbox" checked={changesOnly} onChange={(event) => setChangesOnly(event.target.checked)} data-testid="map-changes-only" />
            Changes only
          </label>
          <div role="group" aria-label="Show the day" className="inline-flex overflow-hidden rounded-md border border-slate-300 text-xs dark:border-slate-700">
            {(['before', 'after'] as const).map((option) => (
              <button
                key={option}
                type="button"
                aria-pressed={side === option}
                onClick={() => setSide(option)}
                className={`px-2.5 py-1 font-medium ${side === option ? 'bg-sky-700 text-white' : 'bg-white hover:bg-slate-50 dark:bg-slate-900 dark:hover:bg-slate-800'}`}
              >
                {option === 'before' ? 'Before' : 'After'}
              </button>
            ))}
          </div>
          </div>
        }
      >
        <ProposalLanes lanes={proposal.lanes} side={side} timeZone={zone} changedIds={changedIds} changesOnly={changesOnly} focused={focused} />
        <div className="mt-3">
          <RouteMap routes={routes} height={320} changedIds={changedIds} changesOnly={changesOnly} focused={focused} />
          {changesOnly && <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">Only the routes with a change are drawn; a changed visit&apos;s number has a star (3*).</p>}
          <PrecisionSummary points={precisions} />
          <PrecisionSummary points={places} noun="start and end places" />
        </div>
      </Section>

      </div>

      <Section title={`Changes (${proposal.changes.length})`}>
        {proposal.changes.length === 0 ? (
          <p className="text-sm text-slate-500 dark:text-slate-400">The proposal keeps every visit as it is.</p>
        ) : (
          <ProposalChanges changes={proposal.changes} visits={visits} timeZone={zone} onShowVisit={showVisit} />
        )}
      </Section>
    </>
  );
}
