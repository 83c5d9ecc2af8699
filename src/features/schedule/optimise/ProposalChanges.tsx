// The proposal's table of changes: per visit, the minutes it moves from the time agreed with the client, its arrival
// and practitioner (with their role) before → after, and why it changes. The biggest moves come first; a column's
// header sorts by it (minutes moved, arrival, client, practitioner), and the filters keep the moves of 30 or 60 min
// and more, the visits given to another practitioner, or those with one reason. A visit's name shows it on the lanes
// and the map.
import { useState } from 'react';
import type { OptimizationProposal } from '../../../api/optimizations';
import { formatTime } from '../../../lib/dates';
import { plural } from '../../../lib/plural';
import type { AppointmentSummary } from '../../../entities/appointments/api';
import { changesShown, minutesMoved, movedText, REASON_LABELS, type ChangeFilter, type ChangeReasonKind, type ChangeSort } from './figures';
import { ProposalTableHead } from './ProposalTableHead';

type Change = OptimizationProposal['changes'][number];

const FILTERS: ReadonlyArray<{ value: ChangeFilter; label: string }> = [
  { value: 'all', label: 'All changes' },
  { value: 'moved-30', label: 'Moved 30 min or more' },
  { value: 'moved-60', label: 'Moved 60 min or more' },
  { value: 'practitioner-changed', label: 'Practitioner changed' },
];

const selectClass = 'rounded-md border border-slate-300 bg-white px-2 py-1 text-xs dark:border-slate-700 dark:bg-slate-900';

const Profession = ({ profession }: { profession: string | null | undefined }) =>
  (profession ? <span className="block text-xs text-slate-500 dark:text-slate-400">{profession}</span> : null);

function Reasons({ change }: { change: Change }) {
  if ((change.reasons ?? []).length === 0) return <>—</>;
  return (
    <ul className="space-y-0.5">
      {change.reasons!.map((item) => (
        <li key={item.kind} data-kind={item.kind} className={item.kind === 'preferred-not-kept' ? 'text-amber-800 dark:text-amber-300' : ''}>
          <span className="mr-1 rounded bg-slate-100 px-1 py-px text-[11px] font-medium text-slate-700 dark:bg-slate-800 dark:text-slate-200">{REASON_LABELS[item.kind]}</span>
          <span className="text-xs">{item.message}</span>
        </li>
      ))}
    </ul>
  );
}

export function ProposalChanges({ changes, visits, timeZone, onShowVisit }: {
  changes: readonly Change[];
  visits: ReadonlyMap<number, AppointmentSummary>;
  timeZone: string;
  /** Shows the visit on the lanes and the map. */
  onShowVisit: (appointmentId: number) => void;
}) {
  const [sort, setSort] = useState<ChangeSort>('moved');
  const [ascending, setAscending] = useState(false);
  const [filter, setFilter] = useState<ChangeFilter>('all');
  const [reason, setReason] = useState<ChangeReasonKind | null>(null);
  const shown = changesShown(changes, { sort, ascending, filter, reason });
  const reasonsPresent = (Object.keys(REASON_LABELS) as ChangeReasonKind[])
    .filter((kind) => changes.some((change) => change.reasons?.some((candidate) => candidate.kind === kind)));
  const sortBy = (column: ChangeSort) => ({
    active: sort === column,
    ascending,
    onSort: () => {
      // The same column again turns the order round; another starts with the biggest moves, else from the start.
      if (sort === column) setAscending(!ascending);
      else {
        setSort(column);
        setAscending(column !== 'moved');
      }
    },
  });
  const moves = { 30: changes.filter((change) => minutesMoved(change) >= 30).length, 60: changes.filter((change) => minutesMoved(change) >= 60).length };

  return (
    <div className="space-y-2">
      <p className="text-xs text-slate-600 dark:text-slate-300" data-testid="proposal-moves-summary">
        Minutes moved count from the time agreed with the client. {plural(moves[30], 'visit moves', 'visits move')} 30 min or more, {moves[60]} of them 60 min or more.
      </p>
      <div className="flex flex-wrap items-center gap-2" role="group" aria-label="Show the changes">
        <label className="text-xs">
          <span className="sr-only">Which changes</span>
          <select value={filter} onChange={(event) => setFilter(event.target.value as ChangeFilter)} className={selectClass} data-testid="changes-filter">
            {FILTERS.map((option) => <option key={option.value} value={option.value}>{option.label}</option>)}
          </select>
        </label>
        {reasonsPresent.length > 0 && (
          <label className="text-xs">
            <span className="sr-only">Reason</span>
            <select
              value={reason ?? ''}
              onChange={(event) => setReason(event.target.value === '' ? null : event.target.value as ChangeReasonKind)}
              className={selectClass}
              data-testid="changes-reason-filter"
            >
              <option value="">Any reason</option>
              {reasonsPresent.map((kind) => <option key={kind} value={kind}>{REASON_LABELS[kind]}</option>)}
            </select>
          </label>
        )}
        <span className="text-xs text-slate-500 dark:text-slate-400" role="status" data-testid="changes-shown">
          {shown.length === changes.length ? plural(changes.length, 'change') : `${shown.length} of ${plural(changes.length, 'change')}`}
        </span>
      </div>
      {shown.length === 0 ? (
        <p className="text-sm text-slate-500 dark:text-slate-400" data-testid="changes-none-shown">No change is of this kind.</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-sm" data-testid="proposal-changes">
            <ProposalTableHead
              columns={[
                { label: 'Client', sort: sortBy('client') },
                { label: 'Moved', nowrap: true, sort: sortBy('moved') },
                { label: 'Arrival', nowrap: true, sort: sortBy('arrival') },
                { label: 'Practitioner', wide: true, sort: sortBy('practitioner') },
                { label: 'Why', wide: true },
              ]}
            />
            <tbody className="divide-y divide-slate-100 align-top dark:divide-slate-800">
              {shown.map((change) => {
                const visit = visits.get(change.appointment_id);
                const reassigned = change.old_practitioner_id !== change.new_practitioner_id;
                return [
                  <tr key={change.appointment_id} data-testid="proposal-change" data-minutes-moved={minutesMoved(change)} className="max-sm:border-b-0">
                    <td className="py-1.5 pr-3">
                      <button
                        type="button"
                        data-testid="change-client"
                        onClick={() => onShowVisit(change.appointment_id)}
                        className="text-left font-medium text-sky-800 underline-offset-2 hover:underline dark:text-sky-300"
                        title="Show on the lanes and the map"
                      >
                        {change.client_name ?? `Visit #${change.appointment_id}`}
                      </button>
                      {visit?.appointment_type && <span className="block text-xs text-slate-500 dark:text-slate-400">{visit.appointment_type.name}</span>}
                      {/* On a phone the practitioner's column is left out: a new practitioner shows here. */}
                      {reassigned && <span className="block text-xs sm:hidden">→ {change.new_practitioner_name}</span>}
                    </td>
                    <td className="py-1.5 pr-3 whitespace-nowrap tabular-nums" data-testid="change-moved">
                      <span className={minutesMoved(change) >= 60 ? 'font-semibold text-rose-700 dark:text-rose-400' : minutesMoved(change) >= 30 ? 'font-semibold text-amber-700 dark:text-amber-400' : ''}>
                        {movedText(change)}
                      </span>
                      {change.agreed_start_at && <span className="block text-xs text-slate-500 dark:text-slate-400">agreed {formatTime(change.agreed_start_at, timeZone)}</span>}
                    </td>
                    <td className="py-1.5 pr-3 whitespace-nowrap tabular-nums">
                      {change.old_arrive_at ? formatTime(change.old_arrive_at, timeZone) : '—'} → <span className="font-semibold">{formatTime(change.new_arrive_at, timeZone)}</span>
                    </td>
                    <td className="hidden py-1.5 pr-3 sm:table-cell">
                      {reassigned ? (
                        <div className="flex flex-wrap items-start gap-x-1">
                          <span>{change.old_practitioner_name}<Profession profession={change.old_practitioner_profession} /></span>
                          <span aria-label="to">→</span>
                          <span className="font-semibold">{change.new_practitioner_name}<Profession profession={change.new_practitioner_profession} /></span>
                        </div>
                      ) : (
                        <span className="text-slate-600 dark:text-slate-300">{change.new_practitioner_name}<Profession profession={change.new_practitioner_profession} /></span>
                      )}
                    </td>
                    <td className="hidden py-1.5 sm:table-cell" data-testid="change-reasons"><Reasons change={change} /></td>
                  </tr>,
                  // On a phone the reasons take a row of their own under the change, across the table.
                  <tr key={`${change.appointment_id}-why`} className="sm:hidden" data-testid="proposal-change-why">
                    <td colSpan={3} className="pb-2"><Reasons change={change} /></td>
                  </tr>,
                ];
              })}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
