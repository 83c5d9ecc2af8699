// A visit as it happens, driven by visitStepsMachine: its state and actual times, and — on the run sheet — the step
// buttons (big enough for a thumb on a 390 px phone), Could not attend's reasons, and the note a done visit may be given
// after Done (Done is one tap). On the
// desk (the appointment modal) a coordinator sees the same state and times and can reopen the visit.
import { useEffect, useId, useRef } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { fromPromise } from 'xstate';
import { useServices } from '../app/ServicesContext';
import type { Appointment } from '../api/types';
import type { VisitProgress, VisitState } from '../api/visitSteps';
import { formatTime } from '../lib/dates';
import { REASON_LABELS, REASONS, STATE_LABELS, STEP_LABELS, withPosition, type PendingStep } from '../machines/visitSteps';
import { useRecordVisitStep, useSaveVisitNote, useStepOutbox } from '../entities/appointments/visitSteps';
import { waitingStateOf } from '../lib/stepOutbox';
import { Button } from './Button';
import { Icon, type IconName } from './Icon';

/** What the visit's state and times read from: the list item and the full appointment both carry them. */
export type VisitOf = Pick<Appointment, 'id' | 'status' | 'visit_state' | 'visit'> & { client?: { full_name: string } | null };

const STATE_TONES: Record<VisitState, string> = {
  not_started: 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200',
  on_my_way: 'bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-100',
  arrived: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-100',
  done: 'bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100',
  could_not_attend: 'bg-rose-100 text-rose-900 dark:bg-rose-950 dark:text-rose-100',
};

/** Each started state's mark: an icon in a solid disc that stands out on any block colour (a white ring around it). */
const STATE_MARKS: Record<Exclude<VisitState, 'not_started'>, { icon: IconName; tone: string }> = {
  on_my_way: { icon: 'travel', tone: 'bg-sky-700 text-white' },
  arrived: { icon: 'home', tone: 'bg-amber-400 text-slate-950' },
  done: { icon: 'check', tone: 'bg-emerald-700 text-white' },
  could_not_attend: { icon: 'close', tone: 'bg-rose-700 text-white' },
};

/** The states that carry a mark, in the order a visit goes through them (the legends list them so). */
export const MARKED_STATES = Object.keys(STATE_MARKS) as (keyof typeof STATE_MARKS)[];

/**
 * A visit's state at a glance, whatever the width it is drawn at: nothing while not started. Hidden from screen
 * readers: what shows it says the state in words.
 */
export function VisitStateMark({ state, className = '' }: { state: VisitState; className?: string }) {
  if (state === 'not_started') return null;
  const { icon, tone } = STATE_MARKS[state];
  return (
    <span data-testid="visit-state-mark" data-state={state} aria-hidden="true" className={`inline-flex size-4 shrink-0 items-center justify-center rounded-full ring-2 ring-white dark:ring-slate-900 ${tone} ${className}`}>
      <Icon name={icon} className="size-3 [&_path]:stroke-[3]" />
    </span>
  );
}

/** "On my way 08:50 · Arrived 09:02 · Done 09:48", the times the visit actually had; empty while not started. */
export function actualTimesText(visit: VisitProgress, timeZone: string): string {
  if (!visit) return '';
  const times: [string, string | null][] = [
    [STEP_LABELS.on_my_way, visit.on_my_way_at], [STEP_LABELS.arrived, visit.arrived_at], [STEP_LABELS.done, visit.done_at],
    [STEP_LABELS.could_not_attend, visit.could_not_attend_at],
  ];
  return times.filter(([, at]) => at !== null).map(([label, at]) => `${label} ${formatTime(at!, timeZone)}`).join(' · ');
}

/** The state's badge and the actual times, with what the steps said (reason, note, an arrival far from the client). */
export function VisitStatus({ visit, timeZone }: { visit: VisitOf; timeZone: string }) {
  const progress = visit.visit;
  const times = actualTimesText(progress, timeZone);
  return (
    <div data-testid="visit-status" data-state={visit.visit_state} className="space-y-1 text-sm">
      <p className="flex flex-wrap items-center gap-x-2 gap-y-1">
        <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${STATE_TONES[visit.visit_state]}`}>{STATE_LABELS[visit.visit_state]}</span>
        {times && <span data-testid="visit-times" className="tabular-nums text-slate-700 dark:text-slate-200">{times}</span>}
      </p>
      {progress?.reason && (
        <p data-testid="visit-reason" className="text-rose-800 dark:text-rose-200">
          Reason: {REASON_LABELS[progress.reason]}{progress.reason_text ? ` — ${progress.reason_text}` : ''}
        </p>
      )}
      {progress?.arrived_far_from_client && (
        <p data-testid="visit-far" className="text-amber-800 dark:text-amber-200">
          Arrived {progress.arrived_distance_m !== null ? `${progress.arrived_distance_m.toLocaleString('en-AU')} m` : 'far'} from the client’s point
        </p>
      )}
      {progress?.note && <p data-testid="visit-note" className="whitespace-pre-line text-slate-700 dark:text-slate-200">Note: {progress.note}</p>}
    </div>
  );
}

const BIG = 'min-h-12 w-full justify-center text-base';

/** "Arrived 10:20": a step and when it was tapped. */
export function stepAt(step: PendingStep, timeZone: string): string {
  return step.at ? `${STEP_LABELS[step.step]} ${formatTime(step.at, timeZone)}` : STEP_LABELS[step.step];
}

/**
 * The visit's state and times with its controls. `steps`: the step buttons (the run sheet); `canReopen`: a
 * coordinator's Reopen once the visit has started.
 */
export function VisitSteps({ visit, timeZone, steps, canReopen }: { visit: VisitOf; timeZone: string; steps: boolean; canReopen: boolean }) {
  const { machines, stepOutbox } = useServices();
  const record = useRecordVisitStep();
  const saveNote = useSaveVisitNote();
  const outbox = useStepOutbox();
  const waiting = outbox.waiting.filter((item) => item.appointmentId === visit.id);
  // Steps waiting to send lead the way: the visit shows the state they lead to, not the server's older one.
  const waitingState = waitingStateOf(outbox, visit.id);
  const clientName = visit.client?.full_name ?? null;
  const actor = useActorRef(
    machines.visitSteps.provide({
      actors: {
        sendStep: fromPromise(async ({ input }) =>
          record.mutateAsync({ appointmentId: input.appointmentId, clientName, step: await withPosition(input.step) })),
        saveNote: fromPromise(({ input }) => saveNote.mutateAsync(input)),
      },
    }),
    { input: { appointmentId: visit.id, state: waitingState ?? visit.visit_state, canReopen } },
  );
  const value = useSelector(actor, (snapshot) => String(snapshot.value));
  const context = useSelector(actor, (snapshot) => snapshot.context);
  const reasonTextId = useId();
  const noteId = useId();

  // The server's state, refetched after any change (here, or the office's), is what the visit shows once none of its
  // steps waits to send.
  const serverState = visit.visit_state;
  const synced = useRef(serverState);
  useEffect(() => {
    if (waitingState !== null || synced.current === serverState) return;
    synced.current = serverState;
    actor.send({ type: 'SYNC', state: serverState });
  }, [actor, serverState, waitingState]);

  if (visit.status === 'CANCELLED') return null;
  const sending = value === 'sending';
  const send = (type: 'ON_MY_WAY' | 'ARRIVED' | 'DONE' | 'COULD_NOT_ATTEND' | 'REOPEN') => actor.send({ type });
  // The machine holds the server's last answer (a step's, or the refetched state's).
  const shownState = context.state;
  const reopenable = canReopen && shownState !== 'not_started';
  // The step just refused is said by the failure's alert; the others the server refused, until dismissed, here.
  const failedKey = value === 'failed' ? context.pending?.idempotency_key : undefined;
  const refused = outbox.refused.filter((item) => item.appointmentId === visit.id && item.step.idempotency_key !== failedKey);

  return (
    <div data-testid="visit-steps" data-machine-state={value} className={steps ? 'mt-3 space-y-2' : 'space-y-2'}>
      <VisitStatus visit={{ ...visit, visit_state: shownState }} timeZone={timeZone} />
      {waiting.length > 0 && (
        <p data-testid="visit-waiting" role="status" className="rounded-md bg-slate-100 px-2 py-1 text-sm text-slate-800 dark:bg-slate-800 dark:text-slate-100">
          Waiting to send: {waiting.map((item) => stepAt(item.step, timeZone)).join(' · ')}
        </p>
      )}
      {refused.length > 0 && (
        <div data-testid="visit-not-recorded" className="rounded-md bg-rose-50 px-2 py-1 text-sm text-rose-900 dark:bg-rose-950 dark:text-rose-100">
          <ul className="space-y-1">
            {refused.map((item) => (
              <li key={item.step.idempotency_key}>{stepAt(item.step, timeZone)} · Not recorded: {item.message}</li>
            ))}
          </ul>
          <Button
            variant="secondary" size="sm" className="mt-1"
            onClick={() => refused.forEach((item) => stepOutbox.dismissRefused(item.step.idempotency_key))}
          >
            Dismiss
          </Button>
        </div>
      )}
      {steps && (value === 'notStarted' || value === 'onMyWay' || value === 'arrived') && (
        <div className="grid grid-cols-2 gap-2" role="group" aria-label="Visit steps">
          {value === 'notStarted' && <Button className={`${BIG} col-span-2`} onClick={() => send('ON_MY_WAY')}>{STEP_LABELS.on_my_way}</Button>}
          {value === 'notStarted' && <Button variant="secondary" className={BIG} onClick={() => send('ARRIVED')}>{STEP_LABELS.arrived}</Button>}
          {value === 'onMyWay' && <Button className={`${BIG} col-span-2`} onClick={() => send('ARRIVED')}>{STEP_LABELS.arrived}</Button>}
          {value === 'arrived' && <Button className={`${BIG} col-span-2`} onClick={() => send('DONE')}>{STEP_LABELS.done}</Button>}
          <Button variant="secondary" danger className={`${BIG} ${value === 'notStarted' ? '' : 'col-span-2'}`} onClick={() => send('COULD_NOT_ATTEND')}>
            {STEP_LABELS.could_not_attend}
          </Button>
        </div>
      )}
      {value === 'choosingReason' && (
        <form
          className="space-y-2 rounded-lg border border-rose-200 p-3 dark:border-rose-900"
          onSubmit={(event) => {
            event.preventDefault();
            actor.send({ type: 'CONFIRM' });
          }}
        >
          <fieldset>
            <legend className="mb-1 text-sm font-medium">Why could the visit not happen?</legend>
            <div className="grid grid-cols-2 gap-2">
              {REASONS.map((reason) => (
                <label
                  key={reason}
                  className="flex min-h-12 cursor-pointer items-center gap-2 rounded-md border border-slate-300 px-3 text-base has-[:checked]:border-rose-600 has-[:checked]:bg-rose-50 dark:border-slate-600 dark:has-[:checked]:bg-rose-950"
                >
                  <input
                    type="radio" name={`reason-${visit.id}`} value={reason} checked={context.reason === reason} className="size-5"
                    onChange={() => actor.send({ type: 'CHOOSE_REASON', reason })}
                  />
                  {REASON_LABELS[reason]}
                </label>
              ))}
            </div>
          </fieldset>
          {context.reason === 'other' && (
            <div>
              <label htmlFor={reasonTextId} className="block text-sm font-medium">What happened</label>
              <input
                id={reasonTextId} type="text" maxLength={500} value={context.reasonText} autoFocus
                onChange={(event) => actor.send({ type: 'CHANGE_REASON_TEXT', value: event.target.value })}
                className="mt-1 block min-h-12 w-full rounded-md border border-slate-300 px-3 text-base dark:border-slate-600 dark:bg-slate-900"
              />
            </div>
          )}
          {context.error && <p role="alert" className="text-sm text-rose-700 dark:text-rose-300">{context.error}</p>}
          <div className="grid grid-cols-2 gap-2">
            <Button type="submit" danger className={BIG}>Confirm: could not attend</Button>
            <Button variant="secondary" className={BIG} onClick={() => actor.send({ type: 'CANCEL' })}>Back</Button>
          </div>
        </form>
      )}
      {steps && value === 'done' && (
        <Button variant="secondary" className={BIG} onClick={() => actor.send({ type: 'ADD_NOTE', note: visit.visit?.note ?? '' })}>
          {visit.visit?.note ? 'Change the note' : 'Add a note'}
        </Button>
      )}
      {(value === 'writingNote' || value === 'savingNote') && (
        <form
          className="space-y-2 rounded-lg border border-emerald-200 p-3 dark:border-emerald-900"
          onSubmit={(event) => {
            event.preventDefault();
            actor.send({ type: 'CONFIRM' });
          }}
        >
          <label htmlFor={noteId} className="block text-sm font-medium">Note</label>
          <textarea
            id={noteId} rows={3} maxLength={2000} value={context.note} autoFocus readOnly={value === 'savingNote'}
            onChange={(event) => actor.send({ type: 'CHANGE_NOTE', value: event.target.value })}
            className="block w-full rounded-md border border-slate-300 px-3 py-2 text-base dark:border-slate-600 dark:bg-slate-900"
          />
          {context.error && <p role="alert" className="text-sm text-rose-700 dark:text-rose-300">{context.error}</p>}
          <div className="grid grid-cols-2 gap-2">
            <Button type="submit" className={BIG} busy={value === 'savingNote'}>Save the note</Button>
            <Button variant="secondary" className={BIG} disabled={value === 'savingNote'} onClick={() => actor.send({ type: 'CANCEL' })}>Back</Button>
          </div>
        </form>
      )}
      {sending && <p role="status" className="text-sm text-slate-600 dark:text-slate-300">Sending {STEP_LABELS[context.pending?.step ?? 'on_my_way']}…</p>}
      {value === 'failed' && (
        <div role="alert" className="space-y-2 rounded-lg border border-rose-200 bg-rose-50 p-3 text-sm text-rose-900 dark:border-rose-900 dark:bg-rose-950 dark:text-rose-100">
          <p>{STEP_LABELS[context.pending?.step ?? 'on_my_way']} was not recorded: {context.error}</p>
          <div className="grid grid-cols-2 gap-2">
            <Button className={BIG} onClick={() => actor.send({ type: 'RETRY' })}>Try again</Button>
            <Button
              variant="secondary" className={BIG}
              onClick={() => {
                // Leaving it is the practitioner's dismissal of the refusal.
                if (failedKey) stepOutbox.dismissRefused(failedKey);
                actor.send({ type: 'CANCEL' });
              }}
            >
              Leave it
            </Button>
          </div>
        </div>
      )}
      {reopenable && (value === 'onMyWay' || value === 'arrived' || value === 'done' || value === 'couldNotAttend') && (
        <Button variant="secondary" size="sm" onClick={() => send('REOPEN')}>Reopen the visit</Button>
      )}
    </div>
  );
}
