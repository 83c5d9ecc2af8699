// The availability grid (Monday to Saturday, then Sunday; all day or the four slots) driven by availabilityEditorMachine.
// The client details modal and the clients' public page render this same component, each with where it saves and its own mutation.
import { useEffect, useId } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { fromPromise } from 'xstate';
import { useServices } from '../app/ServicesContext';
import {
  AVAILABILITY_SLOTS,
  DAYS_IN_GRID_ORDER,
  DAY_NAMES,
  availabilityProblems,
  isAvailabilityChanged,
  selectIsSaving,
  type AvailabilityEntry,
  type AvailabilityTarget,
} from '../machines/availabilityEditor';
import { Button } from './Button';

export interface AvailabilityEditorProps {
  /** The saved availability. */
  availability: readonly AvailabilityEntry[];
  saveTo: AvailabilityTarget;
  /** The mutation that saves to `saveTo`; it owns the cache updates and what the user is told. */
  save: { mutateAsync: (availability: AvailabilityEntry[]) => Promise<unknown> };
  saveLabel?: string;
  disabled?: boolean;
  /** Told whenever the form starts or stops differing from `availability` (the saved one). */
  onUnsavedChange?: (unsaved: boolean) => void;
}

const checkboxClass =
  'size-4 rounded border-slate-300 text-sky-600 focus:ring-sky-500 disabled:opacity-50 dark:border-slate-600 dark:bg-slate-800';

export function AvailabilityEditor({
  availability, saveTo, save, saveLabel = 'Save availability', disabled = false, onUnsavedChange,
}: AvailabilityEditorProps) {
  const { machines } = useServices();
  const actor = useActorRef(
    machines.availabilityEditor.provide({ actors: { saveAvailability: fromPromise(({ input }) => save.mutateAsync(input.availability)) } }),
    { input: { availability, saveTo } },
  );
  const context = useSelector(actor, (snapshot) => snapshot.context);
  const saving = useSelector(actor, selectIsSaving);
  const customId = useId();
  const problemId = useId();
  const problems = availabilityProblems(context);
  // Saving waits until every problem is fixed; the Save button is described by their messages.
  const problemIds = [...(problems.form ? [`${problemId}-form`] : []), ...Object.keys(problems.days).map((dow) => `${problemId}-${dow}`)];
  const blocked = problemIds.length > 0;

  const unsaved = isAvailabilityChanged(context, availability);
  useEffect(() => onUnsavedChange?.(unsaved), [onUnsavedChange, unsaved]);

  const locked = saving || disabled;

  return (
    <form
      aria-label="Availability"
      data-testid="availability-editor"
      onSubmit={(event) => {
        event.preventDefault();
        actor.send({ type: 'SAVE' });
      }}
      className="space-y-3"
    >
      <label htmlFor={customId} className="flex items-center gap-2 text-sm font-medium">
        <input
          id={customId}
          type="checkbox"
          role="switch"
          className={checkboxClass}
          checked={context.custom}
          disabled={locked}
          onChange={() => actor.send({ type: 'TOGGLE_CUSTOM' })}
        />
        Custom availability
      </label>
      {problems.form && (
        <p id={`${problemId}-form`} data-testid="availability-problem" className="text-sm text-rose-700 dark:text-rose-300">
          {problems.form}
        </p>
      )}

      {context.custom ? (
        <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 dark:divide-slate-700 dark:border-slate-700">
          {DAYS_IN_GRID_ORDER.map((dow) => {
            const day = context.days[dow];
            const name = DAY_NAMES[dow];
            const problem = problems.days[dow];
            const problemTextId = `${problemId}-${dow}`;
            return (
              <li key={dow} data-testid={`availability-day-${dow}`} className="flex flex-col gap-2 px-3 py-2 sm:flex-row sm:items-center sm:gap-4">
                <label className="flex w-32 items-center gap-2 text-sm font-medium">
                  <input type="checkbox" className={checkboxClass} checked={day.enabled} disabled={locked} aria-label={name} onChange={() => actor.send({ type: 'TOGGLE_DAY', dow })} />
                  <span aria-hidden="true">{name}</span>
                </label>
                {day.enabled && (
                  <div className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm">
                    <label className="flex items-center gap-2">
                      <input
                        type="checkbox"
                        className={checkboxClass}
                        checked={day.allDay}
                        disabled={locked}
                        aria-label={`${name} all day`}
                        aria-describedby={problem ? problemTextId : undefined}
                        onChange={() => actor.send({ type: 'TOGGLE_ALL_DAY', dow })}
                      />
                      <span aria-hidden="true">All day</span>
                    </label>
                    {!day.allDay &&
                      AVAILABILITY_SLOTS.map((slot) => (
                        <label key={slot} className="flex items-center gap-2 tabular-nums">
                          <input
                            type="checkbox"
                            className={checkboxClass}
                            checked={day.hours.includes(slot)}
                            disabled={locked}
                            aria-label={`${name} ${slot}`}
                            aria-describedby={problem ? problemTextId : undefined}
                            aria-invalid={problem ? true : undefined}
                            onChange={() => actor.send({ type: 'TOGGLE_SLOT', dow, slot })}
                          />
                          <span aria-hidden="true">{slot}</span>
                        </label>
                      ))}
                    {problem && (
                      <p id={problemTextId} data-testid="availability-problem" className="w-full text-sm text-rose-700 dark:text-rose-300">
                        {problem}
                      </p>
                    )}
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      ) : (
        <p className="text-sm text-slate-600 dark:text-slate-400">No custom availability: any day and time suits.</p>
      )}

      <Button type="submit" size="sm" busy={saving} disabled={locked || blocked} aria-describedby={blocked ? problemIds.join(' ') : undefined}>
        {saveLabel}
      </Button>
    </form>
  );
}
