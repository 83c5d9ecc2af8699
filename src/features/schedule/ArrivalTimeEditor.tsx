// Inline arrival-time editing in the appointment modal, driven by arrivalTimeEditorMachine; it saves through
// useUpdateArrivalTime, which updates the cache and says whether it worked.
import { useEffect, useId, useRef } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { fromPromise } from 'xstate';
import { useServices } from '../../app/ServicesContext';
import { ARRIVAL_TIME_STEP_SECONDS, arrivalWindowHint, type ArrivalTimeEditorInput } from '../../machines/arrivalTimeEditor';
import { formatDateTime, stepTimeOfDay } from '../../lib/dates';
import { useUpdateArrivalTime } from './mutations';
import { Button } from '../../ui/Button';

export function ArrivalTimeEditor(input: ArrivalTimeEditorInput) {
  const { machines } = useServices();
  const update = useUpdateArrivalTime();
  const actor = useActorRef(
    machines.arrivalTimeEditor.provide({ actors: { saveArrivalTime: fromPromise(async ({ input: request }) => (await update.mutateAsync(request)).appointment) } }),
    { input },
  );
  const state = useSelector(actor, (snapshot) => snapshot.value);
  const context = useSelector(actor, (snapshot) => snapshot.context);
  const inputRef = useRef<HTMLInputElement>(null);
  const hintId = useId();
  const errorId = useId();

  useEffect(() => {
    if (state === 'editing') inputRef.current?.focus();
  }, [state]);

  // Shown like the start and end (dd MMM yyyy HH:mm); only the time is edited, the day stays the appointment's.
  const shown = formatDateTime(context.arriveAt, context.timeZone);

  if (state === 'locked') {
    return (
      <span data-testid="arrival-time" data-state="locked">
        <span className="tabular-nums">{shown}</span>
        <span className="ml-2 text-xs text-slate-500 dark:text-slate-400">(set by the optimised route)</span>
      </span>
    );
  }

  if (state === 'viewing') {
    return (
      <span data-testid="arrival-time" data-state="viewing" className="inline-flex items-center gap-2">
        <span className="tabular-nums">{shown}</span>
        <button
          type="button"
          onClick={() => actor.send({ type: 'EDIT' })}
          className="rounded border border-slate-300 px-2 py-0.5 text-xs font-medium hover:bg-slate-50 dark:border-slate-600 dark:hover:bg-slate-800"
        >
          Edit arrival time
        </button>
      </span>
    );
  }

  const saving = state === 'saving';
  return (
    <span data-testid="arrival-time" data-state={String(state)} className="block space-y-1">
      <span className="inline-flex items-center gap-2">
        {/* A text field, not type="time": a time input shows the browser locale's clock (12:30 PM in en-US). */}
        <input
          ref={inputRef}
          type="text"
          inputMode="numeric"
          autoComplete="off"
          spellCheck={false}
          maxLength={5}
          pattern="([01][0-9]|2[0-3]):[0-5][0-9]"
          placeholder="HH:mm"
          aria-label="Arrival time"
          aria-describedby={context.error ? `${errorId} ${hintId}` : hintId}
          aria-invalid={context.error !== null}
          value={context.draft}
          disabled={saving}
          onChange={(event) => actor.send({ type: 'CHANGE', value: event.target.value })}
          onKeyDown={(event) => {
            if (event.key === 'ArrowUp' || event.key === 'ArrowDown') {
              // Steps of 5 minutes, like a time input's arrows.
              const stepped = stepTimeOfDay(context.draft, (event.key === 'ArrowUp' ? 1 : -1) * (ARRIVAL_TIME_STEP_SECONDS / 60));
              if (stepped) {
                event.preventDefault();
                actor.send({ type: 'CHANGE', value: stepped });
              }
            } else if (event.key === 'Enter') {
              event.preventDefault();
              actor.send({ type: 'SAVE' });
            } else if (event.key === 'Escape') {
              event.preventDefault();
              event.stopPropagation();
              actor.send({ type: 'CANCEL' });
            }
          }}
          className="w-20 rounded-md border border-slate-300 px-2 py-1 text-sm tabular-nums dark:border-slate-600 dark:bg-slate-800"
        />
        <Button size="xs" busy={saving} onClick={() => actor.send({ type: 'SAVE' })}>
          Save arrival time
        </Button>
        <Button variant="ghost" size="xs" disabled={saving} onClick={() => actor.send({ type: 'CANCEL' })}>
          Cancel
        </Button>
      </span>
      {context.error && (
        <span id={errorId} role="alert" className="block text-xs text-rose-700 dark:text-rose-300">
          {context.error}
        </span>
      )}
      <span id={hintId} data-testid="arrival-time-hint" className="block text-xs text-slate-500 dark:text-slate-400">
        {arrivalWindowHint(context)}
      </span>
    </span>
  );
}
