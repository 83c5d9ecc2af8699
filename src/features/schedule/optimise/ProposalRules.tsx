// The proposal's "Rules" section: the day checked by the rule book (ADR 0020) before and after, rule by rule — hard
// rules first, the rules without a problem either side folded into one line — and the problems the plan still has, in
// words, each with its visits to show on the lanes and the map. A proposal made before the rule book has no checks and
// shows no section.
import type { OptimizationProposal } from '../../../api/optimizations';
import { plural } from '../../../lib/plural';
import { Section } from '../../../ui/ModalFrame';
import { ProposalTableHead } from './ProposalTableHead';

type RuleChecks = NonNullable<OptimizationProposal['checks']>;

const TREND_STYLE = {
  better: 'text-emerald-700 dark:text-emerald-400',
  worse: 'text-rose-700 dark:text-rose-400',
  same: 'text-slate-600 dark:text-slate-300',
} as const;

const SoftTag = () => (
  <span className="ml-1.5 rounded bg-slate-100 px-1 py-px text-[11px] font-normal text-slate-600 dark:bg-slate-800 dark:text-slate-300">soft</span>
);

export function ProposalRules({ checks, onShowVisit }: {
  checks: RuleChecks;
  /** Shows a visit on the lanes and the map (absent: the problems are text only). */
  onShowVisit?: (appointmentId: number) => void;
}) {
  // Hard rules first (a stable sort keeps the rule book's order within each).
  const counted = [...checks.counts].sort((a, b) => Number(b.hard) - Number(a.hard));
  const withProblems = counted.filter((count) => count.before > 0 || count.after > 0);
  const left = [...checks.after].sort((a, b) => Number(b.hard) - Number(a.hard));
  return (
    <Section title="Rules">
      {withProblems.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-300" data-testid="proposal-rules-none">No problems with the rules, before or after.</p>
      ) : (
        <table className="w-full text-sm" data-testid="proposal-rules">
          <ProposalTableHead columns={[{ label: 'Rule' }, { label: 'Problems before → after', nowrap: true }]} />
          <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
            {withProblems.map((count) => {
              const trend = count.after < count.before ? 'better' : count.after > count.before ? 'worse' : 'same';
              return (
                <tr key={count.rule} data-testid="proposal-rule" data-trend={trend}>
                  <th scope="row" className="py-1.5 pr-3 text-left font-medium">{count.title}{!count.hard && <SoftTag />}</th>
                  <td className={`py-1.5 whitespace-nowrap tabular-nums ${TREND_STYLE[trend]}`}>{count.before} → <span className="font-semibold">{count.after}</span></td>
                </tr>
              );
            })}
            {withProblems.length < counted.length && (
              <tr data-testid="proposal-rules-others">
                <td colSpan={2} className="py-1.5 text-slate-500 dark:text-slate-400">No other problems.</td>
              </tr>
            )}
          </tbody>
        </table>
      )}
      {left.length > 0 && (
        <div className="mt-3">
          <h4 className="text-sm font-medium">{plural(left.length, 'problem')} left after</h4>
          <ul className="mt-1 space-y-1 text-sm" data-testid="proposal-rules-left">
            {left.map((issue, index) => (
              <li
                key={index}
                className={`rounded-md border px-3 py-1.5 ${issue.hard ? 'border-rose-200 bg-rose-50 dark:border-rose-900 dark:bg-rose-950' : 'border-slate-200 dark:border-slate-700'}`}
              >
                {issue.message}{!issue.hard && <SoftTag />}
                {onShowVisit && issue.appointment_ids.length > 0 && (
                  <span className="ml-1.5 inline-flex flex-wrap gap-1">
                    {issue.appointment_ids.map((id, visitIndex) => (
                      <button
                        key={id}
                        type="button"
                        data-testid="rule-show-visit"
                        onClick={() => onShowVisit(id)}
                        className="text-xs font-medium text-sky-800 underline underline-offset-2 dark:text-sky-300"
                      >
                        {issue.appointment_ids.length === 1 ? 'Show the visit' : `Show visit ${visitIndex + 1}`}
                      </button>
                    ))}
                  </span>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}
    </Section>
  );
}
