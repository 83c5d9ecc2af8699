// The best fits for a visit (a new one, one being rescheduled, an open visit to fill), cheapest first: each a choice with the practitioner,
// the arrival, the travel it adds and its marks (Visited before, Preferred) and soft warnings in words; "Why not
// others?" says why each other qualified practitioner is not offered, and the server's message why nothing fits.
import { useId } from 'react';
import { formatTime } from '../lib/dates';
import type { BestFit, BestFitResult } from '../entities/appointments/booking';

const addedTravelWords = (seconds: number) => `+${Math.round(seconds / 60)} min travel`;

const markClass = 'rounded-full px-2 py-0.5 text-xs font-medium';

export function BestFitChoices({ result, chosen, onChoose, timeZone }: {
  result: BestFitResult;
  chosen: BestFit | null;
  onChoose: (fit: BestFit) => void;
  timeZone: string;
}) {
  const name = useId();
  return (
    <div data-testid="best-fits" className="space-y-2">
      {result.fits.length === 0 ? (
        <p role="status" data-testid="best-fit-message" className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-100">
          {result.message ?? 'No practitioner can take this visit then.'}
        </p>
      ) : (
        <fieldset>
          <legend className="text-sm font-medium text-slate-700 dark:text-slate-200">Best fits, cheapest first</legend>
          <ul className="mt-1 space-y-1.5">
            {result.fits.map((fit) => {
              const arrives = formatTime(fit.arrive_at, timeZone);
              const travel = addedTravelWords(fit.added_travel_seconds);
              const selected = chosen?.practitioner_id === fit.practitioner_id && chosen.arrive_at === fit.arrive_at;
              return (
                <li key={`${fit.practitioner_id}-${fit.arrive_at}`}>
                  <label
                    data-testid="best-fit"
                    className={`flex cursor-pointer items-start gap-3 rounded-md border px-3 py-2 text-sm ${selected ? 'border-sky-600 bg-sky-50 dark:border-sky-500 dark:bg-sky-950/40' : 'border-slate-200 hover:bg-slate-50 dark:border-slate-700 dark:hover:bg-slate-800'}`}
                  >
                    <input type="radio" name={name} className="mt-1" checked={selected} onChange={() => onChoose(fit)} />
                    <span className="min-w-0 flex-1">
                      <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
                        <span aria-hidden="true" className="inline-block size-2.5 rounded-full" style={{ backgroundColor: fit.color ?? '#64748b' }} />
                        <span className="font-semibold [overflow-wrap:anywhere]">{fit.name}</span>
                        {fit.preferred && <span className={`${markClass} bg-emerald-100 text-emerald-900 dark:bg-emerald-900 dark:text-emerald-100`}>Preferred</span>}
                        {fit.continuity && <span className={`${markClass} bg-sky-100 text-sky-900 dark:bg-sky-900 dark:text-sky-100`}>Visited before</span>}
                      </span>
                      <span className="block text-slate-700 tabular-nums dark:text-slate-300">
                        Arrives {arrives}, {travel} · {fit.visits} {fit.visits === 1 ? 'visit' : 'visits'} that day
                      </span>
                      {fit.warnings.map((warning) => (
                        <span key={warning.message} className="block text-xs text-amber-800 dark:text-amber-300">⚠ {warning.message}</span>
                      ))}
                    </span>
                  </label>
                </li>
              );
            })}
          </ul>
        </fieldset>
      )}
      {result.others.length > 0 && (
        <details className="text-sm">
          <summary className="cursor-pointer font-medium text-sky-700 dark:text-sky-400">Why not others?</summary>
          <ul data-testid="best-fit-others" className="mt-1 space-y-0.5 pl-4 text-slate-600 dark:text-slate-300">
            {result.others.map((other) => (
              <li key={other.practitioner_id}>
                <span className="font-medium">{other.name}</span>: {other.reason}
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}
