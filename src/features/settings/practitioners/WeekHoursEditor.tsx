// A week of working hours: one row a weekday with whether they work and from when to when (one range a day). The
// edit dialog and the "Set hours" dialog both use it; a day's problem shows under its row. In "Set hours" a day the
// practitioners work differently shows as mixed, in words, until someone chooses to change it for them all.
import { Button } from '../../../ui/Button';
import { FieldMessage } from '../../../ui/forms';
import { TimeField } from '../../../ui/TimeField';
import { WEEKDAY_NAMES, type DayDraft } from './workingHours';

export const timeInputClass =
  'w-20 rounded-md border bg-white px-2 py-1 text-sm disabled:opacity-50 dark:bg-slate-900 border-slate-300 dark:border-slate-700 aria-invalid:border-rose-500';

export function WeekHoursEditor({ days, onChange, problems, idPrefix, mixed, onChangeMixed }: {
  days: readonly DayDraft[];
  onChange: (days: DayDraft[]) => void;
  /** By weekday index. */
  problems: ReadonlyMap<number, string>;
  idPrefix: string;
  /** By weekday index: the days that differ, in words ("Pat Nurse 08:00–12:00; Rory Gone off"). */
  mixed?: ReadonlyMap<number, string>;
  /** The user chose to give a mixed day the same hours for everyone. */
  onChangeMixed?: (index: number) => void;
}) {
  const change = (index: number, patch: Partial<DayDraft>) => onChange(days.map((day, at) => (at === index ? { ...day, ...patch } : day)));
  return (
    <fieldset>
      <legend className="sr-only">Working hours</legend>
      <ul className="divide-y divide-slate-100 dark:divide-slate-800">
        {days.map((day, index) => {
          const name = WEEKDAY_NAMES[index];
          const problem = problems.get(index);
          const problemId = `${idPrefix}-day-${index}-problem`;
          const differs = mixed?.get(index);
          if (differs !== undefined) {
            return (
              <li key={name} data-testid="weekday-hours" data-mixed="true" className="py-2">
                <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
                  <span className="w-36 text-sm font-medium">{name}</span>
                  <span className="min-w-0 flex-1 text-sm text-slate-600 dark:text-slate-300">
                    <span className="font-medium">Mixed:</span> {differs}
                  </span>
                  <Button variant="secondary" size="sm" onClick={() => onChangeMixed?.(index)} aria-label={`Change ${name} for everyone`}>
                    Change for everyone
                  </Button>
                </div>
              </li>
            );
          }
          return (
            <li key={name} data-testid="weekday-hours" className="py-2">
              <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
                <label className="flex w-36 items-center gap-2 text-sm font-medium">
                  <input
                    type="checkbox"
                    checked={day.works}
                    onChange={(event) => change(index, { works: event.target.checked })}
                    aria-label={`Works on ${name}`}
                    className="size-4 rounded border-slate-300"
                  />
                  {name}
                </label>
                {day.works ? (
                  <span className="flex items-center gap-2 text-sm">
                    <TimeField
                      value={day.start}
                      onChange={(start) => change(index, { start })}
                      aria-label={`${name} start`}
                      aria-invalid={problem ? true : undefined}
                      aria-describedby={problem ? problemId : undefined}
                      className={timeInputClass}
                    />
                    <span aria-hidden="true">to</span>
                    <TimeField
                      value={day.end}
                      onChange={(end) => change(index, { end })}
                      aria-label={`${name} end`}
                      aria-invalid={problem ? true : undefined}
                      aria-describedby={problem ? problemId : undefined}
                      className={timeInputClass}
                    />
                  </span>
                ) : (
                  <span className="text-sm text-slate-500 dark:text-slate-400">Off</span>
                )}
              </div>
              {problem && <FieldMessage id={problemId}>{problem}</FieldMessage>}
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}
