// Who a proposal plans (issue 35, weeks that fit real rosters): a day with nothing to plan ("Saturday 26: no visits",
// "nobody works"), the practitioners it calls in on a day they had nothing booked ("Calls in Ava Burke on Saturday 26:
// 4 visits, 3 h 10") and those with visits it does not plan that day (no working hours: their visits stay as they
// are); for a run of several days, each client's distinct carers over the days before → after.
import type { Optimization, OptimizationProposal } from '../../../api/optimizations';

/** The day's notes on who it plans; nothing when there are none. */
export function ProposalRoster({ proposal }: { proposal: OptimizationProposal }) {
  const calledIn = proposal.called_in ?? [];
  const notRouted = proposal.not_routed ?? [];
  if (!proposal.empty_day && calledIn.length === 0 && notRouted.length === 0) return null;
  return (
    <div className="space-y-1 text-sm" data-testid="proposal-roster" data-date={proposal.date}>
      {proposal.empty_day && (
        <p className="font-medium text-slate-700 dark:text-slate-200" data-testid="proposal-empty-day" data-reason={proposal.empty_day.reason}>
          {proposal.empty_day.message} Nothing to plan that day.
        </p>
      )}
      {calledIn.length > 0 && (
        <ul className="space-y-0.5" aria-label="Practitioners called in">
          {calledIn.map((practitioner) => (
            <li key={practitioner.practitioner_id} className="text-amber-800 dark:text-amber-300" data-testid="proposal-called-in">
              {practitioner.message}
            </li>
          ))}
        </ul>
      )}
      {notRouted.length > 0 && (
        <ul className="space-y-0.5" aria-label="Practitioners not planned">
          {notRouted.map((practitioner) => (
            <li key={practitioner.practitioner_id} className="text-slate-600 dark:text-slate-300" data-testid="proposal-not-routed">
              {practitioner.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** "Distinct carers per client over these days: 1.8 → 1.4 (12 clients see fewer, 1 more)". */
export function RunContinuityNote({ continuity }: { continuity: Optimization['continuity'] | undefined }) {
  if (!continuity || continuity.clients === 0) return null;
  const { mean_carers_before: before, mean_carers_after: after, clients_with_fewer_carers: fewer, clients_with_more_carers: more } = continuity;
  return (
    <p className="text-sm text-slate-600 dark:text-slate-300" data-testid="proposal-continuity">
      Distinct carers per client over these days: {before.toFixed(1)} → {after.toFixed(1)}
      {(fewer > 0 || more > 0) && ` (${[fewer > 0 ? `${fewer} see fewer` : '', more > 0 ? `${more} see more` : ''].filter(Boolean).join(', ')})`}.
    </p>
  );
}

/** A day's button label beside its weekday: its changes, or why it has none. */
export const dayButtonNote = (proposal: OptimizationProposal, changes: string) =>
  (proposal.empty_day ? (proposal.empty_day.reason === 'no-visits' ? 'no visits' : 'nobody works') : changes);
