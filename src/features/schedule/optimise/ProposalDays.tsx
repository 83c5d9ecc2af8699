// A finished run of several days: the week's figures added up, and one day at a time (chosen by its button) shown as
// a run of one day shows its proposal. Apply and Discard, in the dialog's footer, act on every day together.
import { useEffect, useRef, useState } from 'react';
import type { Optimization, OptimizationProposal } from '../../../api/optimizations';
import { formatWeekday } from '../../../lib/dates';
import { plural } from '../../../lib/plural';
import { Section } from '../../../ui/ModalFrame';
import type { AppointmentSummary } from '../../../entities/appointments/api';
import { totalKpis } from './figures';
import { KpiTable, ProposalView } from './ProposalView';
import { dayButtonNote, ProposalRoster, RunContinuityNote } from './ProposalRoster';

export function ProposalDays({ days, visits, continuity }: {
  days: readonly OptimizationProposal[];
  /** The run's distinct carers per client over its days, before → after. */
  continuity?: Optimization['continuity'];
  /** The days' visits (for their map positions, booked times and types). */
  visits: ReadonlyMap<number, AppointmentSummary>;
}) {
  const [shown, setShown] = useState(0);
  const changes = days.reduce((total, day) => total + day.changes.length, 0);
  const unplaced = days.reduce((total, day) => total + day.unplaced.length, 0);

  // The proposal replaces the buttons that had focus: focus goes to its heading rather than to the page.
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);

  return (
    <>
      <h3 ref={heading} tabIndex={-1} data-testid="proposal-days-heading" className="text-base font-semibold text-slate-900 focus:outline-none dark:text-white">
        The proposal for {days.length} days: {plural(changes, 'visit changes', 'visits change')}{unplaced > 0 && `, ${unplaced} not placed`}
      </h3>
      <Section title="The days together: before → after">
        <KpiTable before={totalKpis(days, 'before')} after={totalKpis(days, 'after')} testId="proposal-week-kpis" />
        <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
          Spread of working time: the most less the fewest hours a practitioner works over these days.
          Apply changes every day together; Discard throws every day away.
        </p>
        <RunContinuityNote continuity={continuity} />
      </Section>
      <div role="group" aria-label="Show the day" className="flex flex-wrap gap-1.5" data-testid="proposal-days">
        {days.map((day, index) => (
          <button
            key={day.date}
            type="button"
            aria-pressed={shown === index}
            data-testid="proposal-day"
            data-date={day.date}
            onClick={() => setShown(index)}
            className={`rounded-md border px-2.5 py-1.5 text-sm font-medium ${shown === index
              ? 'border-sky-700 bg-sky-700 text-white'
              : 'border-slate-300 bg-white hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:hover:bg-slate-800'}`}
          >
            {formatWeekday(day.date)}
            <span className="ml-1 text-xs font-normal">({dayButtonNote(day, plural(day.changes.length, 'change'))})</span>
          </button>
        ))}
      </div>
      <div data-testid="proposal-day-shown" data-date={days[shown].date} className="space-y-6">
        <ProposalRoster proposal={days[shown]} />
        {!days[shown].empty_day && <ProposalView key={days[shown].date} proposal={days[shown]} visits={visits} focusOnShow={false} />}
      </div>
    </>
  );
}
