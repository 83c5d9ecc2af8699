// The client's care plans in their details modal: each plan in words with its upcoming and open visits, added and
// changed in a form (type, weekdays, window, duration, carers, from–until, preferred practitioners, notes) and ended on a
// last day. A plan's visits are generated as open visits; "Plan care visits" on the open visits page books them.
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Temporal } from 'temporal-polyfill';
import { useAuthSelector, useServices } from '../../app/ServicesContext';
import { messageOfError } from '../../api/errors';
import { normaliseTimeOfDay, todayIn } from '../../lib/dates';
import { plural } from '../../lib/plural';
import { selectUser } from '../../machines/auth';
import { appointmentTypeQueries, practitionerQueries } from '../../entities/appointments/queries';
import { CARE_PLAN_END_ERROR, CARE_PLAN_SAVE_ERROR, type CarePlan, type CarePlanInput } from '../../entities/care-plans/api';
import { carePlanQueries } from '../../entities/care-plans/queries';
import { WEEKDAY_NAMES, carePlanText, shortDay } from '../../entities/care-plans/words';
import { Button } from '../../ui/Button';
import { SingleDatePicker } from '../../ui/DateRangePicker';
import { ErrorNote, useFieldProblems } from '../../ui/forms';
import { Section } from '../../ui/ModalFrame';
import { MultiSelect } from '../../ui/MultiSelect';
import { LoadingText } from '../../ui/PageSpinner';
import { TextLink } from '../../ui/TextLink';
import { TimeField } from '../../ui/TimeField';
import { useEndCarePlan, useSaveCarePlan } from './careMutations';

type PlanField = 'appointment_type_id' | 'weekdays' | 'window_start' | 'window_end' | 'duration_minutes' | 'carers' | 'starts_on' | 'ends_on'
  | 'preferred_practitioner_ids' | 'notes';
const PLAN_FIELDS: readonly PlanField[] = ['appointment_type_id', 'weekdays', 'window_start', 'window_end', 'duration_minutes', 'carers', 'starts_on', 'ends_on',
  'preferred_practitioner_ids', 'notes'];
/** A server line's path ("weekdays[1]", "window_start") as the form's field. */
const fieldOfPath = (path: string) => PLAN_FIELDS.find((field) => path === field || path.startsWith(`${field}[`) || path.startsWith(`${field}.`));

const inputClass =
  'mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-sky-500 focus:ring-2 focus:ring-sky-500/30 focus:outline-none aria-invalid:border-rose-500 dark:border-slate-700 dark:bg-slate-900';
const labelClass = 'block text-sm font-medium text-slate-700 dark:text-slate-200';
const hintClass = 'mt-1 text-xs text-slate-500 dark:text-slate-400';

export interface PlanDraft {
  typeId: number | null;
  weekdays: number[];
  windowStart: string;
  windowEnd: string;
  /** Text as typed; the type's duration until the coordinator changes it. */
  duration: string;
  durationTouched: boolean;
  carers: 1 | 2;
  startsOn: Temporal.PlainDate | null;
  ongoing: boolean;
  endsOn: Temporal.PlainDate | null;
  preferred: number[];
  notes: string;
}

const draftOf = (plan: CarePlan | null, today: Temporal.PlainDate): PlanDraft => plan
  ? {
    typeId: plan.appointment_type.id, weekdays: [...plan.weekdays], windowStart: plan.window_start, windowEnd: plan.window_end,
    duration: String(plan.duration_minutes), durationTouched: true, carers: plan.carers === 2 ? 2 : 1,
    startsOn: Temporal.PlainDate.from(plan.starts_on), ongoing: plan.ends_on === null, endsOn: plan.ends_on ? Temporal.PlainDate.from(plan.ends_on) : null,
    preferred: [...plan.preferred_practitioner_ids], notes: plan.notes ?? '',
  }
  : {
    typeId: null, weekdays: [], windowStart: '', windowEnd: '', duration: '', durationTouched: false, carers: 1,
    startsOn: today.add({ days: 1 }), ongoing: true, endsOn: null, preferred: [], notes: '',
  };

const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** What the form finds wrong before asking the server, by field, in words. */
export function planProblems(draft: PlanDraft): Map<PlanField, string> {
  const problems = new Map<PlanField, string>();
  if (draft.typeId === null) problems.set('appointment_type_id', 'Choose the type of visit.');
  if (draft.weekdays.length === 0) problems.set('weekdays', 'Choose at least one day of the week.');
  const [start, end] = [normaliseTimeOfDay(draft.windowStart), normaliseTimeOfDay(draft.windowEnd)];
  if (!start) problems.set('window_start', 'Enter the earliest start, e.g. 07:30.');
  if (!end) problems.set('window_end', 'Enter the latest time, e.g. 09:00.');
  if (start && end && minutesOf(start) >= minutesOf(end)) problems.set('window_end', 'The window must end after it starts.');
  const duration = draft.duration.trim();
  if (!/^\d+$/.test(duration) || Number(duration) < 5 || Number(duration) > 720) problems.set('duration_minutes', 'Enter a whole number of minutes from 5 to 720.');
  if (!draft.startsOn) problems.set('starts_on', 'Choose the first day of the plan.');
  if (!draft.ongoing) {
    if (!draft.endsOn) problems.set('ends_on', 'Choose the last day of the plan, or choose Ongoing.');
    else if (draft.startsOn && Temporal.PlainDate.compare(draft.endsOn, draft.startsOn) < 0) problems.set('ends_on', 'The last day cannot be before the first day.');
  }
  return problems;
}

const inputOf = (draft: PlanDraft): CarePlanInput => ({
  appointment_type_id: draft.typeId!,
  weekdays: [...draft.weekdays].sort((a, b) => a - b),
  window_start: normaliseTimeOfDay(draft.windowStart)!,
  window_end: normaliseTimeOfDay(draft.windowEnd)!,
  duration_minutes: Number(draft.duration.trim()),
  carers: draft.carers,
  starts_on: draft.startsOn!.toString(),
  ends_on: draft.ongoing ? null : draft.endsOn!.toString(),
  preferred_practitioner_ids: draft.preferred,
  ...(draft.notes.trim() ? { notes: draft.notes.trim() } : {}),
});

function useBusinessToday(): Temporal.PlainDate {
  const timeZone = useAuthSelector(selectUser)?.business_account.time_zone ?? undefined;
  return todayIn(timeZone);
}

export function CarePlanSection({ clientId, clientName, onUnsavedChange }: {
  clientId: number;
  clientName: string;
  /** Told whenever a plan's form starts or stops holding changes not saved. */
  onUnsavedChange?: (unsaved: boolean) => void;
}) {
  const { api } = useServices();
  const today = useBusinessToday();
  const plans = useQuery(carePlanQueries.ofClient(api, clientId));
  // null: no form; 'new': adding; else the plan being changed.
  const [editing, setEditing] = useState<'new' | number | null>(null);
  const [ending, setEnding] = useState<number | null>(null);
  const current = (plans.data ?? []).filter((plan) => plan.ends_on === null || plan.ends_on >= today.toString());
  const ended = (plans.data ?? []).filter((plan) => !current.includes(plan));

  return (
    <Section
      title="Care plan"
      actions={editing === null && (
        <Button variant="secondary" size="xs" onClick={() => setEditing('new')}>
          Add to care plan
        </Button>
      )}
    >
      <p className={hintClass}>
        Visits that repeat each week. They wait as open visits until care visits are planned on the{' '}
        <TextLink variant="prose" href="/open-visits">Open visits</TextLink> page, which books them in Cliniko.
      </p>
      {plans.isPending && <LoadingText label="Loading the care plan" className="mt-2 text-sm" />}
      {plans.isError && <div className="mt-2"><ErrorNote>{messageOfError(plans.error, 'An error has occurred. Could not load the care plans.')}</ErrorNote></div>}
      {editing === 'new' && <CarePlanForm clientId={clientId} plan={null} onDone={() => setEditing(null)} onUnsavedChange={onUnsavedChange} />}
      {plans.data && current.length === 0 && editing !== 'new' && (
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">{clientName} has no care plan.</p>
      )}
      {current.length > 0 && (
        <ul aria-label={`Care plan of ${clientName}`} className="mt-2 divide-y divide-slate-200 rounded-md border border-slate-200 dark:divide-slate-800 dark:border-slate-800">
          {current.map((plan) => (
            <li key={plan.id} data-testid="care-plan-row" className="px-3 py-2 text-sm">
              {editing === plan.id ? (
                <CarePlanForm clientId={clientId} plan={plan} onDone={() => setEditing(null)} onUnsavedChange={onUnsavedChange} />
              ) : (
                <>
                  <div className="flex flex-wrap items-start justify-between gap-2">
                    <div className="min-w-0">
                      <p className="font-medium">{carePlanText(plan, today.year)}</p>
                      <p className="text-xs text-slate-600 dark:text-slate-300">
                        {plural(plan.upcoming_visits, 'upcoming visit')} booked · {plural(plan.open_visits, 'open visit')}
                      </p>
                      {plan.notes && <p className="text-xs text-slate-500 dark:text-slate-400">{plan.notes}</p>}
                    </div>
                    {editing === null && ending !== plan.id && (
                      <div className="flex gap-2">
                        <Button variant="secondary" size="xs" onClick={() => setEditing(plan.id)} aria-label={`Edit ${plan.appointment_type.name} plan`}>
                          Edit
                        </Button>
                        <Button variant="secondary" size="xs" danger onClick={() => setEnding(plan.id)} aria-label={`End ${plan.appointment_type.name} plan`}>
                          End plan
                        </Button>
                      </div>
                    )}
                  </div>
                  {ending === plan.id && <EndPlanForm plan={plan} today={today} onDone={() => setEnding(null)} />}
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      {ended.length > 0 && (
        <details className="mt-2 text-sm">
          <summary className="cursor-pointer rounded text-slate-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-600 dark:text-slate-300">{plural(ended.length, 'ended plan')}</summary>
          <ul className="mt-1 space-y-1 text-slate-600 dark:text-slate-300">
            {ended.map((plan) => <li key={plan.id}>{carePlanText(plan, today.year)}</li>)}
          </ul>
        </details>
      )}
    </Section>
  );
}

export function CarePlanForm({ clientId, plan, onDone, onUnsavedChange }: {
  clientId: number;
  plan: CarePlan | null;
  onDone: () => void;
  onUnsavedChange?: (unsaved: boolean) => void;
}) {
  const { api } = useServices();
  const today = useBusinessToday();
  const types = useQuery(appointmentTypeQueries.all(api));
  const practitioners = useQuery(practitionerQueries.all(api));
  const [initial] = useState(() => draftOf(plan, today));
  const [draft, setDraft] = useState(initial);
  const unsaved = JSON.stringify(draft) !== JSON.stringify(initial);
  useEffect(() => {
    onUnsavedChange?.(unsaved);
  }, [onUnsavedChange, unsaved]);
  // A form closed (saved, cancelled) holds nothing unsaved.
  useEffect(() => () => onUnsavedChange?.(false), [onUnsavedChange]);
  const [ours, setOurs] = useState<Map<PlanField, string>>(new Map());
  const save = useSaveCarePlan(clientId);
  const ids = useId();
  const change = (changes: Partial<PlanDraft>) => setDraft((now) => ({ ...now, ...changes }));
  const { problem, fieldProps, other } = useFieldProblems<PlanField>({
    error: save.error, fieldOf: fieldOfPath, fallback: CARE_PLAN_SAVE_ERROR, ours,
    values: {
      appointment_type_id: draft.typeId, weekdays: draft.weekdays, window_start: draft.windowStart, window_end: draft.windowEnd,
      // The server weighs the duration against the window: changing either answers its problem.
      duration_minutes: [draft.duration, draft.windowStart, draft.windowEnd], carers: draft.carers, starts_on: draft.startsOn?.toString(), ends_on: [draft.ongoing, draft.endsOn?.toString()],
      preferred_practitioner_ids: draft.preferred, notes: draft.notes,
    },
  });

  const chooseType = (id: number | null) => {
    const type = types.data?.find((candidate) => candidate.id === id);
    // The duration follows the type until the coordinator sets their own.
    change({ typeId: id, ...(type && !draft.durationTouched ? { duration: String(type.duration) } : {}) });
  };
  const toggleDay = (day: number) =>
    change({ weekdays: draft.weekdays.includes(day) ? draft.weekdays.filter((chosen) => chosen !== day) : [...draft.weekdays, day] });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problems = planProblems(draft);
    setOurs(problems);
    if (problems.size > 0) return;
    save.mutate({ id: plan?.id ?? null, input: inputOf(draft) }, { onSuccess: onDone });
  };

  const practitionerOptions = (practitioners.data ?? [])
    .filter((practitioner) => practitioner.active || draft.preferred.includes(practitioner.id))
    .map((practitioner) => ({ id: practitioner.id, name: practitioner.full_name }));

  return (
    <form onSubmit={submit} noValidate aria-label={plan ? 'Change care plan' : 'New care plan'} className="mt-2 space-y-3 rounded-md border border-slate-200 p-3 dark:border-slate-800">
      <div className="grid gap-3 sm:grid-cols-2">
        <div>
          <label htmlFor={`${ids}-type`} className={labelClass}>Type of visit</label>
          <select id={`${ids}-type`} className={inputClass} value={draft.typeId ?? ''} {...fieldProps('appointment_type_id')}
            onChange={(event) => chooseType(event.target.value === '' ? null : Number(event.target.value))}>
            <option value="">{types.isPending ? 'Loading…' : 'Choose a type'}</option>
            {(types.data ?? []).map((type) => <option key={type.id} value={type.id}>{type.name} ({type.duration} min)</option>)}
          </select>
          {problem('appointment_type_id')}
        </div>
        <div>
          <label htmlFor={`${ids}-duration`} className={labelClass}>Duration (minutes)</label>
          <input id={`${ids}-duration`} type="text" inputMode="numeric" className={inputClass} value={draft.duration} {...fieldProps('duration_minutes')}
            onChange={(event) => change({ duration: event.target.value, durationTouched: true })} />
          {problem('duration_minutes')}
        </div>
      </div>

      <fieldset aria-describedby={fieldProps('weekdays')['aria-describedby']}>
        <legend className={labelClass}>Days of the week</legend>
        <div className="mt-1 flex flex-wrap gap-1.5">
          {WEEKDAY_NAMES.map((name, index) => {
            const day = index + 1;
            const on = draft.weekdays.includes(day);
            return (
              <button
                key={name}
                type="button"
                aria-pressed={on}
                onClick={() => toggleDay(day)}
                className={`min-w-11 rounded-md border px-2.5 py-1.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-600 ${on ? 'border-sky-700 bg-sky-700 text-white' : 'border-slate-300 hover:bg-slate-50 dark:border-slate-600 dark:hover:bg-slate-800'}`}
              >
                {name}
              </button>
            );
          })}
        </div>
        {problem('weekdays')}
      </fieldset>

      <fieldset>
        <legend className={labelClass}>Window</legend>
        <p className={hintClass}>The visit starts in this window, e.g. 07:30 to 09:00 for a morning visit.</p>
        <div className="mt-1 grid grid-cols-2 gap-3 sm:w-80">
          <label className="text-sm">
            <span aria-hidden="true" className="text-xs text-slate-500 dark:text-slate-400">From</span>
            <TimeField value={draft.windowStart} onChange={(windowStart) => change({ windowStart })} className={inputClass} aria-label="Window from" {...fieldProps('window_start')} />
          </label>
          <label className="text-sm">
            <span aria-hidden="true" className="text-xs text-slate-500 dark:text-slate-400">To</span>
            <TimeField value={draft.windowEnd} onChange={(windowEnd) => change({ windowEnd })} className={inputClass} aria-label="Window to" {...fieldProps('window_end')} />
          </label>
        </div>
        {problem('window_start')}
        {problem('window_end')}
      </fieldset>

      <fieldset className="text-sm">
        <legend className={labelClass}>Carers at each visit</legend>
        <div className="mt-1 flex gap-4">
          {([1, 2] as const).map((count) => (
            <label key={count} className="flex items-center gap-2">
              <input type="radio" name={`${ids}-carers`} checked={draft.carers === count} onChange={() => change({ carers: count })} />
              {count === 1 ? 'One carer' : 'Two carers'}
            </label>
          ))}
        </div>
        {problem('carers')}
      </fieldset>

      <div className="grid gap-3 sm:grid-cols-2">
        <div>
          <SingleDatePicker label="Starts on" value={draft.startsOn} onChange={(startsOn) => change({ startsOn })} today={today} earliest={today} />
          {problem('starts_on')}
        </div>
        <fieldset>
          <legend className={labelClass}>Ends</legend>
          <div className="mt-1 flex gap-4 text-sm">
            <label className="flex items-center gap-2">
              <input type="radio" name={`${ids}-ends`} checked={draft.ongoing} onChange={() => change({ ongoing: true })} />
              Ongoing
            </label>
            <label className="flex items-center gap-2">
              <input type="radio" name={`${ids}-ends`} checked={!draft.ongoing} onChange={() => change({ ongoing: false })} />
              On a day
            </label>
          </div>
          {!draft.ongoing && (
            <div className="mt-2">
              <SingleDatePicker label="Ends on" value={draft.endsOn} onChange={(endsOn) => change({ endsOn })} today={today} earliest={draft.startsOn ?? today} />
            </div>
          )}
          {problem('ends_on')}
        </fieldset>
      </div>

      <div>
        <MultiSelect
          label="Preferred practitioners"
          options={practitionerOptions}
          value={draft.preferred}
          onChange={(preferred) => change({ preferred })}
          placeholder="No preference"
          loading={practitioners.isPending}
          failed={practitioners.isError}
          testId="care-plan-preferred"
        />
        <p className={hintClass}>Given the plan’s visits first when they can take them. The client’s excluded practitioners are never given them.</p>
        {problem('preferred_practitioner_ids')}
      </div>

      <div>
        <label htmlFor={`${ids}-notes`} className={labelClass}>Notes</label>
        <textarea id={`${ids}-notes`} rows={2} maxLength={1000} className={inputClass} value={draft.notes} {...fieldProps('notes')}
          onChange={(event) => change({ notes: event.target.value })} />
        {problem('notes')}
      </div>

      {other.length > 0 && <ErrorNote>{other.join(' ')}</ErrorNote>}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" size="sm" busy={save.isPending}>{plan ? 'Save care plan' : 'Add care plan'}</Button>
        <Button type="button" variant="secondary" size="sm" onClick={onDone}>Cancel</Button>
      </div>
    </form>
  );
}

/** "End plan": its last day (today or later); visits after it are cancelled, open ones removed. */
function EndPlanForm({ plan, today, onDone }: { plan: CarePlan; today: Temporal.PlainDate; onDone: () => void }) {
  const [lastDay, setLastDay] = useState<Temporal.PlainDate | null>(today);
  const [ours, setOurs] = useState<Map<'ends_on', string>>(new Map());
  const end = useEndCarePlan();
  // The server's refusal of the day ("ends_on: …") shows under it, in words.
  const { problem, other } = useFieldProblems<'ends_on'>({
    error: end.error, fieldOf: (path) => (path === 'ends_on' ? path : null), fallback: CARE_PLAN_END_ERROR, ours, values: { ends_on: lastDay?.toString() },
  });
  return (
    <form
      aria-label={`End ${plan.appointment_type.name} plan`}
      noValidate
      className="mt-2 space-y-2 rounded-md border border-rose-200 p-3 dark:border-rose-900"
      onSubmit={(event) => {
        event.preventDefault();
        setOurs(lastDay ? new Map() : new Map([['ends_on', 'Choose the plan’s last day.']]));
        if (lastDay) end.mutate({ id: plan.id, endsOn: lastDay.toString() }, { onSuccess: onDone });
      }}
    >
      <SingleDatePicker label="Last day of the plan" value={lastDay} onChange={setLastDay} today={today} earliest={today} />
      {problem('ends_on')}
      <p className={hintClass}>
        Visits up to {lastDay ? shortDay(lastDay.toString()) : 'that day'} stay; its booked visits after it are cancelled in Cliniko and its open visits removed.
      </p>
      {other.length > 0 && <ErrorNote>{other.join(' ')}</ErrorNote>}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" size="sm" danger busy={end.isPending}>End plan</Button>
        <Button type="button" variant="secondary" size="sm" onClick={onDone}>Keep the plan</Button>
      </div>
    </form>
  );
}
