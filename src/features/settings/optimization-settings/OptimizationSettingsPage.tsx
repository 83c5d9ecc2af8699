// /settings/optimization-settings (ADMIN): how the optimiser plans a day. The rules it keeps (client availability as
// hard windows or soft with a maximum lateness, the rules of home care: how far an arrival may move from the booked time
// and the least gap between a client's visits; overtime, a buffer per visit, arrival rounding), what it tries hardest
// to achieve as plain choices with the weights under "Advanced" (typing a weight makes the choice Custom), whether to
// balance the day between practitioners (its weight under "Advanced" too, apart from the choice), the default
// search time and whether reassigning visits between practitioners is offered, and when a practitioner with nothing
// booked is called in (the call-in threshold). Only what changed is saved.
import { useId, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { Disclosure, DisclosureButton, DisclosurePanel } from '@headlessui/react';
import { useQuery } from '@tanstack/react-query';
import { useServices } from '../../../app/ServicesContext';
import { useShownTimeZone } from '../../../app/timeZone';
import { formatDateTime } from '../../../lib/dates';
import { messageOfError } from '../../../api/errors';
import type { RoutePageProps } from '../../../router/routeTypes';
import { ErrorNote, SubmitButton, focusFirstProblem, useFieldProblems } from '../../../ui/forms';
import { LeaveGuard } from '../../../ui/LeaveGuard';
import { Icon } from '../../../ui/Icon';
import { TextLink } from '../../../ui/TextLink';
import { Card, PageHeader } from '../../../ui/PageHeader';
import { PageSpinner } from '../../../ui/PageSpinner';
import { OPTIMIZATION_SETTINGS_SAVE_ERROR, type OptimizationSettings } from '../../../entities/optimization-settings/api';
import { useSaveOptimizationSettings } from './mutations';
import { optimizationSettingsQueries } from '../../../entities/optimization-settings/queries';
import {
  PRESET_CHOICES, ROUNDING_CHOICES, WEIGHT_FIELDS, choosePreset, draftOfSettings, editWeight, settingsChanges, settingsFieldOf, settingsValues,
  settingsProblems, type Rounding, type SettingsDraft, type SettingsField,
} from './settingsForm';

const inputClass =
  'mt-1 block w-28 rounded-md border bg-white px-3 py-2 text-sm shadow-sm focus:border-sky-500 focus:ring-2 focus:ring-sky-500/30 focus:outline-none disabled:opacity-50 dark:bg-slate-900 border-slate-300 dark:border-slate-700 aria-invalid:border-rose-500';
const labelClass = 'block text-sm font-medium text-slate-700 dark:text-slate-200';
const hintClass = 'mt-1 text-xs text-slate-500 dark:text-slate-400';

export default function OptimizationSettingsPage({ route }: RoutePageProps) {
  const { api } = useServices();
  const settings = useQuery({ ...optimizationSettingsQueries.current(api), staleTime: 0 });
  return (
    <>
      <PageHeader title={route.title}>How the optimiser plans a day: the rules it keeps and what matters most. Every optimisation run starts from these.</PageHeader>
      {settings.isPending && <Card><PageSpinner label="Loading optimisation settings" /></Card>}
      {settings.isError && <ErrorNote>{messageOfError(settings.error, 'An error has occurred. Could not load the optimisation settings.')}</ErrorNote>}
      {/* A save gives new settings: the form starts again from them (its key), so "unsaved" compares with what is stored. */}
      {settings.data && <SettingsForm key={settings.data.updated_at ?? 'defaults'} settings={settings.data} />}
    </>
  );
}

function SettingsForm({ settings }: { settings: OptimizationSettings }) {
  const ids = useId();
  const saved = useMemo(() => draftOfSettings(settings), [settings]);
  const [draft, setDraft] = useState(saved);
  const [checked, setChecked] = useState(false);
  const save = useSaveOptimizationSettings();
  const timeZone = useShownTimeZone();
  const change = (patch: Partial<SettingsDraft>) => setDraft({ ...draft, ...patch });
  const unsaved = Object.keys(settingsChanges(draft, saved)).length > 0;

  const ours = checked ? settingsProblems(draft) : new Map<SettingsField, string>();
  const { fieldProps, problem, other } = useFieldProblems({
    error: save.error, fieldOf: settingsFieldOf, fallback: OPTIMIZATION_SETTINGS_SAVE_ERROR, ours, values: settingsValues(draft),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    setChecked(true);
    if (settingsProblems(draft).size > 0) return focusFirstProblem(form);
    const changes = settingsChanges(draft, saved);
    if (Object.keys(changes).length > 0) save.mutate(changes, { onError: () => focusFirstProblem(form) });
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Optimisation settings" className="space-y-6">
      <Card>
        <FormSection title="Client availability" id={`${ids}-availability`}>
          <div className="space-y-3">
            <Choice
              name={`${ids}-mode`}
              checked={draft.availabilityMode === 'hard'}
              onChange={() => change({ availabilityMode: 'hard' })}
              label="Hard: every visit starts inside the client’s availability"
              hint="A visit that cannot is left unplaced, with the reason. The default."
            />
            <Choice
              name={`${ids}-mode`}
              checked={draft.availabilityMode === 'soft'}
              onChange={() => change({ availabilityMode: 'soft' })}
              label="Soft: a visit may start late"
              hint="Up to the lateness below; being late counts against a plan (see “What matters most”)."
            />
            <div className="pl-7">
              <label htmlFor={`${ids}-lateness`} className={labelClass}>How late at most (minutes)</label>
              <input
                id={`${ids}-lateness`}
                type="number"
                min={0}
                max={240}
                inputMode="numeric"
                disabled={draft.availabilityMode !== 'soft'}
                value={draft.maxLateness}
                onChange={(event) => change({ maxLateness: event.target.value })}
                {...fieldProps('max_lateness_minutes')}
                className={inputClass}
              />
              {problem('max_lateness_minutes')}
            </div>
          </div>
          {problem('availability_mode')}
        </FormSection>
      </Card>

      <Card>
        <FormSection title="Rules of home care" id={`${ids}-rules`}>
          <div className="grid gap-5 sm:grid-cols-2">
            <NumberField
              id={`${ids}-tolerance`}
              label="Arrivals may move up to … minutes from the booked time"
              hint="Earlier or later than the booked start, when optimising and by hand. An appointment type may have its own (Settings → Appointment types)."
              value={draft.tolerance}
              onChange={(tolerance) => change({ tolerance })}
              max={720}
              fieldProps={fieldProps('tolerance_minutes', `${ids}-tolerance-hint`)}
              problem={problem('tolerance_minutes')}
            />
            <NumberField
              id={`${ids}-client-gap`}
              label="At least … minutes between a client’s visits"
              hint="From the end of one of a client’s visits to the start of their next that day. Their visits also keep their booked order."
              value={draft.clientGap}
              onChange={(clientGap) => change({ clientGap })}
              max={720}
              fieldProps={fieldProps('client_gap_minutes', `${ids}-client-gap-hint`)}
              problem={problem('client_gap_minutes')}
            />
            <div>
              <label htmlFor={`${ids}-move-price`} className={labelClass}>Price of moving a visit from its agreed time</label>
              <input
                id={`${ids}-move-price`}
                type="number"
                min={0}
                max={100}
                step="any"
                value={draft.movePrice}
                onChange={(event) => change({ movePrice: event.target.value })}
                {...fieldProps('move_price', `${ids}-move-price-hint`)}
                className={inputClass}
              />
              <p id={`${ids}-move-price-hint`} className={hintClass}>
                Minutes of travel each minute a visit moves from the time agreed with the client is worth: a visit moves only when that buys more
                travel, lateness or overtime. 0.25 by default (a 30-minute move must save more than 7.5 minutes). An appointment type may have its own.
              </p>
              {problem('move_price')}
            </div>
          </div>
        </FormSection>
      </Card>

      <Card>
        <FormSection title="Time" id={`${ids}-time`}>
          <div className="grid gap-5 sm:grid-cols-3">
            <NumberField
              id={`${ids}-overtime`}
              label="Overtime allowed (minutes)"
              hint="How long after their working hours a practitioner’s day may end. 0: never."
              value={draft.overtime}
              onChange={(overtime) => change({ overtime })}
              max={240}
              fieldProps={fieldProps('overtime_minutes', `${ids}-overtime-hint`)}
              problem={problem('overtime_minutes')}
            />
            <NumberField
              id={`${ids}-buffer`}
              label="Buffer per visit (minutes)"
              hint="Added to every visit for parking and walking in."
              value={draft.buffer}
              onChange={(buffer) => change({ buffer })}
              max={60}
              fieldProps={fieldProps('visit_buffer_minutes', `${ids}-buffer-hint`)}
              problem={problem('visit_buffer_minutes')}
            />
            <NumberField
              id={`${ids}-fixed-before`}
              label="Visits starting within … minutes stay as they are"
              hint="Today, visits that have started or start within this many minutes keep their time and practitioner, when optimising and by hand. Days before today are never changed."
              value={draft.fixedBefore}
              onChange={(fixedBefore) => change({ fixedBefore })}
              max={720}
              fieldProps={fieldProps('fixed_before_minutes', `${ids}-fixed-before-hint`)}
              problem={problem('fixed_before_minutes')}
            />
            <div>
              <label htmlFor={`${ids}-rounding`} className={labelClass}>Arrival rounding</label>
              <select
                id={`${ids}-rounding`}
                value={draft.rounding}
                onChange={(event) => change({ rounding: Number(event.target.value) as Rounding })}
                {...fieldProps('arrival_rounding_minutes', `${ids}-rounding-hint`)}
                className={`${inputClass} w-40`}
              >
                {ROUNDING_CHOICES.map((minutes) => (
                  <option key={minutes} value={minutes}>{minutes === 0 ? 'Exact minute' : minutes === 1 ? '1 minute' : `${minutes} minutes`}</option>
                ))}
              </select>
              <p id={`${ids}-rounding-hint`} className={hintClass}>Arrival times are rounded up to this step when the route allows it (5 minutes by default).</p>
              {problem('arrival_rounding_minutes')}
            </div>
          </div>
        </FormSection>
      </Card>

      <Card>
        <FormSection title="What matters most" id={`${ids}-objective`}>
          <div className="grid gap-3 md:grid-cols-2">
            {PRESET_CHOICES.map((choice) => (
              <Choice
                key={choice.preset}
                card
                name={`${ids}-preset`}
                checked={draft.preset === choice.preset}
                onChange={() => setDraft(choosePreset(draft, choice.preset, settings))}
                label={choice.label}
                hint={choice.hint}
              />
            ))}
            {draft.preset === 'custom' && (
              <Choice card name={`${ids}-preset`} checked onChange={() => undefined} label="Custom" hint="Weights set by hand, under Advanced." />
            )}
          </div>
          {problem('preset')}
          <div className="mt-4">
            <label className="flex items-start gap-3">
              <input
                type="checkbox"
                checked={draft.balanceWorkload}
                onChange={(event) => change({ balanceWorkload: event.target.checked })}
                className="mt-1 size-4 rounded border-slate-300"
              />
              <span>
                <span className="block text-sm font-medium text-slate-800 dark:text-slate-100">Balance the day between practitioners</span>
                <span className="block text-xs text-slate-500 dark:text-slate-400">
                  Share the visits so working days come out closer in length, even if that adds some travel. The proposal shows the spread of working
                  time (longest day less shortest) before and after.
                </span>
              </span>
            </label>
            {problem('balance_workload')}
          </div>
          <Disclosure defaultOpen={saved.preset === 'custom'} as="div" className="mt-4">
            <DisclosureButton className="group inline-flex items-center gap-1 text-sm font-medium text-sky-700 hover:underline dark:text-sky-400">
              <Icon name="chevronDown" className="size-4 transition group-data-open:rotate-180" />
              Advanced: the weights
            </DisclosureButton>
            <DisclosurePanel className="mt-3">
              <p className={hintClass}>
                What each costs a plan, on one scale where 1 is a minute of travel (0 to 1000; 0 ignores it). The run keeps the plan that costs
                least. Changing a weight makes the choice Custom.
              </p>
              <div className="mt-3 grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
                {WEIGHT_FIELDS.map(({ key, label, unit }) => (
                  <div key={key}>
                    <label htmlFor={`${ids}-weight-${key}`} className={labelClass}>{label}</label>
                    <input
                      id={`${ids}-weight-${key}`}
                      type="number"
                      min={0}
                      max={1000}
                      step="any"
                      value={draft.weights[key]}
                      onChange={(event) => setDraft(editWeight(draft, key, event.target.value))}
                      {...fieldProps(`weights.${key}`, `${ids}-weight-${key}-hint`)}
                      className={inputClass}
                    />
                    <p id={`${ids}-weight-${key}-hint`} className={hintClass}>{unit}</p>
                    {problem(`weights.${key}`)}
                  </div>
                ))}
              </div>
              {problem('weights')}
              <div className="mt-4">
                <label htmlFor={`${ids}-balance-weight`} className={labelClass}>Balance between practitioners</label>
                <input
                  id={`${ids}-balance-weight`}
                  type="number"
                  min={0}
                  max={1000}
                  step="any"
                  value={draft.balanceWeight}
                  onChange={(event) => change({ balanceWeight: event.target.value })}
                  {...fieldProps('balance_weight', `${ids}-balance-weight-hint`)}
                  className={inputClass}
                />
                <p id={`${ids}-balance-weight-hint`} className={hintClass}>
                  When the day is balanced: per hour² of each practitioner’s working day. Moving an hour from a day 3 hours longer to the shorter one
                  is worth 4 × this in minutes of travel (10 by default). Does not change the choice above.
                </p>
                {problem('balance_weight')}
              </div>
            </DisclosurePanel>
          </Disclosure>
        </FormSection>
      </Card>

      <Card>
        <FormSection title="Runs" id={`${ids}-runs`}>
          <div className="grid gap-5 sm:grid-cols-2">
            <NumberField
              id={`${ids}-search`}
              label="Default search time (seconds)"
              hint="How long a run looks for a better plan. Longer can find less travel on big days."
              value={draft.searchSeconds}
              onChange={(searchSeconds) => change({ searchSeconds })}
              min={1}
              max={120}
              fieldProps={fieldProps('search_seconds', `${ids}-search-hint`)}
              problem={problem('search_seconds')}
            />
            <div>
              <label className="flex items-start gap-3">
                <input
                  type="checkbox"
                  checked={draft.allowReassignment}
                  onChange={(event) => change({ allowReassignment: event.target.checked })}
                  className="mt-1 size-4 rounded border-slate-300"
                />
                <span>
                  <span className="block text-sm font-medium text-slate-800 dark:text-slate-100">Offer reassigning visits between practitioners</span>
                  <span className="block text-xs text-slate-500 dark:text-slate-400">
                    Off: a run only changes the order and the arrival times of each practitioner’s own visits.
                  </span>
                </span>
              </label>
              {problem('allow_reassignment')}
            </div>
          </div>
        </FormSection>
      </Card>

      <Card>
        <FormSection title="Calling a practitioner in" id={`${ids}-call-in`}>
          <p className={hintClass}>
            Reassigning, a run may give visits to a practitioner who works that day but had nothing booked. It does so only when their day is
            worth opening: at least this many visits, or at least this much working time (either is enough). The proposal names each
            practitioner it calls in.
          </p>
          <div className="mt-3 grid gap-5 sm:grid-cols-2">
            <NumberField
              id={`${ids}-call-in-visits`}
              label="At least … visits"
              hint="A day with fewer visits stays at home, unless it reaches the working time below."
              value={draft.callInVisits}
              onChange={(callInVisits) => change({ callInVisits })}
              min={1}
              max={50}
              fieldProps={fieldProps('call_in_min_visits', `${ids}-call-in-visits-hint`)}
              problem={problem('call_in_min_visits')}
            />
            <NumberField
              id={`${ids}-call-in-minutes`}
              label="Or at least … minutes of work"
              hint="From leaving their start place to reaching their end place. 0: the visits alone decide."
              value={draft.callInMinutes}
              onChange={(callInMinutes) => change({ callInMinutes })}
              max={720}
              fieldProps={fieldProps('call_in_min_minutes', `${ids}-call-in-minutes-hint`)}
              problem={problem('call_in_min_minutes')}
            />
          </div>
        </FormSection>
      </Card>

      {other.length > 0 && (
        <ErrorNote>
          {other.map((line) => <span key={line} className="block">{line}</span>)}
        </ErrorNote>
      )}
      <div className="flex flex-wrap items-center gap-3">
        <SubmitButton busy={save.isPending} busyLabel="Saving…">Save</SubmitButton>
        {unsaved && (
          <>
            <span className="text-sm text-amber-800 dark:text-amber-200" role="status">You have unsaved changes.</span>
            <TextLink
              variant="muted"
              className="text-sm"
              onClick={() => {
                setDraft(saved);
                setChecked(false);
                save.reset();
              }}
            >
              Discard changes
            </TextLink>
          </>
        )}
        {!unsaved && (
          <span className="text-sm text-slate-500 dark:text-slate-400">
            {settings.updated_at ? `Last saved ${formatDateTime(settings.updated_at, timeZone)}.` : 'These are the defaults: nothing has been saved yet.'}
          </span>
        )}
      </div>
      {ours.size > 0 && <p className="text-sm text-rose-700 dark:text-rose-300">Correct the fields marked above, then save again.</p>}
      <LeaveGuard unsaved={unsaved} />
    </form>
  );
}

function FormSection({ title, id, children }: { title: string; id: string; children: ReactNode }) {
  return (
    <fieldset aria-labelledby={id}>
      <legend id={id} className="mb-3 text-base font-semibold text-slate-900 dark:text-white">{title}</legend>
      {children}
    </fieldset>
  );
}

function Choice({ name, checked, onChange, label, hint, card = false }: {
  name: string;
  checked: boolean;
  onChange: () => void;
  label: string;
  hint: string;
  card?: boolean;
}) {
  return (
    <label
      className={`flex cursor-pointer items-start gap-3 ${
        card ? 'rounded-lg border p-3 has-checked:border-sky-500 has-checked:bg-sky-50 dark:has-checked:bg-sky-950/40 border-slate-200 dark:border-slate-700' : ''
      }`}
    >
      <input type="radio" name={name} checked={checked} onChange={onChange} className="mt-1 size-4" />
      <span>
        <span className="block text-sm font-medium text-slate-800 dark:text-slate-100">{label}</span>
        <span className="block text-xs text-slate-600 dark:text-slate-300">{hint}</span>
      </span>
    </label>
  );
}

function NumberField({ id, label, hint, value, onChange, min = 0, max, fieldProps, problem }: {
  id: string;
  label: string;
  hint: string;
  value: string;
  onChange: (value: string) => void;
  min?: number;
  max: number;
  fieldProps: { 'aria-invalid'?: boolean; 'aria-describedby'?: string };
  problem: ReactNode;
}) {
  return (
    <div>
      <label htmlFor={id} className={labelClass}>{label}</label>
      <input id={id} type="number" min={min} max={max} inputMode="numeric" value={value} onChange={(event) => onChange(event.target.value)} {...fieldProps} className={inputClass} />
      <p id={`${id}-hint`} className={hintClass}>{hint}</p>
      {problem}
    </div>
  );
}
