// A run while it solves: what it is doing (while it waits, its place in the queue; over several days, which day), the
// share of its search time used, the time elapsed and the total travel of the best plan found so far (of the day
// being planned).
import type { Optimization } from '../../../api/optimizations';
import { formatWeekday } from '../../../lib/dates';
import { Spinner } from '../../../ui/PageSpinner';
import { formatMinutes } from '../../../entities/routes/dayPlan';

/** "0 s", "12 s", "1 min 5 s". */
export function formatElapsed(ms: number): string {
  const seconds = Math.floor(Math.max(0, ms) / 1000);
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/** A waiting run's place in the queue: "Next in line.", "2nd in line: 1 run ahead of it.", "3rd in line: 2 runs ahead of it.". */
export function placeInLine(runsAhead: number): string {
  if (runsAhead === 0) return 'Next in line.';
  const place = runsAhead + 1;
  const suffix = place % 100 >= 11 && place % 100 <= 13 ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[place % 10] ?? 'th';
  return `${place}${suffix} in line: ${runsAhead} run${runsAhead === 1 ? '' : 's'} ahead of it.`;
}

export function RunProgress({ run, cancelling }: { run: Optimization; cancelling: boolean }) {
  const progress = run.progress;
  const percent = Math.round((progress?.fraction ?? 0) * 100);
  const doing = cancelling ? 'Cancelling…' : run.status === 'PENDING' ? 'Waiting for a free worker…' : 'Looking for shorter routes…';
  return (
    <div data-testid="optimization-progress" data-status={run.status} className="space-y-3">
      <p className="flex items-center gap-2 text-sm font-medium" role="status">
        <Spinner className="size-4 text-sky-600" />
        {doing}
      </p>
      {run.status === 'PENDING' && run.runs_ahead != null && !cancelling && (
        <p className="text-sm" data-testid="progress-place">{placeInLine(run.runs_ahead)}</p>
      )}
      {progress?.day_index != null && progress.day_count != null && progress.date && (
        <p className="text-sm" data-testid="progress-day">
          Day {progress.day_index} of {progress.day_count} — {formatWeekday(progress.date)}
        </p>
      )}
      <div
        role="progressbar"
        aria-label="Search time used"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="h-2 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700"
      >
        <div className="h-full rounded-full bg-sky-600 transition-[width]" style={{ width: `${percent}%` }} />
      </div>
      <dl className="grid grid-cols-2 gap-3 text-sm">
        <div>
          <dt className="text-xs text-slate-500 dark:text-slate-400">Elapsed</dt>
          <dd data-testid="progress-elapsed" className="tabular-nums">{formatElapsed(progress?.elapsed_ms ?? 0)}</dd>
        </div>
        <div>
          <dt className="text-xs text-slate-500 dark:text-slate-400">Best travel so far</dt>
          <dd data-testid="progress-best-travel" className="tabular-nums">
            {progress?.best_travel_seconds == null ? '—' : formatMinutes(progress.best_travel_seconds)}
          </dd>
        </div>
      </dl>
      {(progress?.searches ?? 1) > 1 && (
        <p data-testid="progress-searches" className="text-xs text-slate-600 dark:text-slate-300">
          {progress!.searches} searches side by side, each continuing from the best of them as they go.
        </p>
      )}
      <p className="text-xs text-slate-500 dark:text-slate-400">Nothing changes until you apply the proposal. Closing this window cancels the optimisation.</p>
    </div>
  );
}
