// The availability grid (Monday to Saturday, then Sunday; all day or the four slots) driven by availabilityEditorMachine. The client details modal
// and the clients' public page render this same component with their own save call.
import { useEffect, useId, useRef } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { fromPromise } from 'xstate';
import {
  AVAILABILITY_SLOTS,
  DAYS_IN_GRID_ORDER,
  DAY_NAMES,
  availabilityEditorMachine,
  availabilityProblems,
  isAvailabilityChanged,
  selectIsSaving,
  type AvailabilityEntry,
} from '../../machines/availabilityEditor';
import { Spinner } from '../../ui/PageSpinner';

export interface AvailabilityEditorProps {
  availability: readonly AvailabilityEntry[];
  save: (availability: AvailabilityEntry[]) => Promise<unknown>;
  onSaved: (availability: AvailabilityEntry[]) => void;
  onFailed: (message: string) => void;
  saveLabel?: string;
  disabled?: boolean;
  /** Told whenever the form starts or stops differing from `availability` (the saved one). */
  onUnsavedChange?: (unsaved: boolean) => void;
}

const checkboxClass =
  'size-4 rounded border-slate-300 text-sky-600 focus:ring-sky-500 disabled:opacity-50 dark:border-slate-600 dark:bg-slate-800';

export function AvailabilityEditor({
  availability, save, onSaved, onFailed, saveLabel = 'Save availability', disabled = false, onUnsavedChange,
}: AvailabilityEditorProps) {
  // The machine is created once; the ref lets it always call the latest `save`.
  const saveRef = useRef(save);
  saveRef.current = save;
  const actor = useActorRef(
    availabilityEditorMachine.provide({
      actors: { saveAvailability: fromPromise(async ({ input }) => void (await saveRef.current(input.availability))) },
    }),
    { input: { availability } },
  );
  const context = useSelector(actor, (snapshot) => snapshot.context);
  const saving = useSelector(actor, selectIsSaving);
  const customId = useId();
  const problemId = useId();
  const problems = availabilityProblems(context);
  // Saving waits until every problem is fixed; the Save button is described by their messages.
  const problemIds = [...(problems.form ? [`${problemId}-form`] : []), ...Object.keys(problems.days).map((dow) => `${problemId}-${dow}`)];
  const blocked = problemIds.length > 0;

  useEffect(() => {
    const subscriptions = [
      actor.on('saved', (event) => onSaved(event.availability)),
      actor.on('failed', (event) => onFailed(event.message)),
    ];
    return () => subscriptions.forEach((subscription) => subscription.unsubscribe());
  }, [actor, onSaved, onFailed]);

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

      <button
        type="submit"
        disabled={locked || blocked}
        aria-describedby={blocked ? problemIds.join(' ') : undefined}
        className="inline-flex items-center gap-2 rounded-md bg-sky-600 px-3 py-1.5 text-sm font-semibold text-white shadow-sm hover:bg-sky-700 disabled:cursor-not-allowed disabled:opacity-60"
      >
        {saving && <Spinner className="size-4" />}
        {saveLabel}
      </button>
    </form>
  );
}
