// Automatic import/export, how many days ahead they cover and the filters they (and the modals' prefill) use.
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useServices } from '../../../app/ServicesContext';
import { messageOfError } from '../../../api/errors';
import { ErrorNote, SubmitButton, focusFirstProblem, useFieldProblems } from '../../../ui/forms';
import { PageSpinner } from '../../../ui/PageSpinner';
import { saveSyncSettings, type SyncSettings } from '../api';
import { MAX_AHEAD_DAYS, MAX_RANGE_DAYS } from '../../../lib/syncRange';
import { MultiSelect } from '../../../ui/MultiSelect';
import { useReferenceLists } from '../useSyncData';
import { syncSettingsQueries } from '../queries';

const SETTINGS_SAVED = 'Sync settings have been saved.';
/** today..today+ahead_days must fit in one import or export range. */
const AHEAD_DAYS_LIMITS = { min: 0, max: MAX_AHEAD_DAYS } as const;

function validateAheadDays(value: string): string | null {
  const days = Number(value);
  if (value.trim() === '' || !Number.isInteger(days) || days < AHEAD_DAYS_LIMITS.min || days > AHEAD_DAYS_LIMITS.max) {
    return `Days ahead: enter a whole number from ${AHEAD_DAYS_LIMITS.min} to ${AHEAD_DAYS_LIMITS.max}.`;
  }
  return null;
}

export function SyncSettingsForm({ submitLabel = 'Save', onSaved }: { submitLabel?: string; onSaved?: (settings: SyncSettings) => void }) {
  const { api } = useServices();
  const settings = useQuery({ ...syncSettingsQueries.current(api), staleTime: 0 });
  if (settings.isPending) return <PageSpinner label="Loading sync settings" />;
  if (settings.isError) return <ErrorNote>{messageOfError(settings.error, 'An error has occurred. Could not load sync settings.')}</ErrorNote>;
  return <LoadedForm initial={settings.data} submitLabel={submitLabel} onSaved={onSaved} />;
}

function Toggle({ label, hint, checked, onChange }: { label: string; hint: string; checked: boolean; onChange: (value: boolean) => void }) {
  return (
    <label className="flex items-start gap-3">
      <input type="checkbox" checked={checked} onChange={(event) => onChange(event.target.checked)} className="mt-1 size-4 rounded border-slate-300" />
      <span>
        <span className="block text-sm font-medium text-slate-800 dark:text-slate-100">{label}</span>
        <span className="block text-xs text-slate-500 dark:text-slate-400">{hint}</span>
      </span>
    </label>
  );
}

const FIELDS = ['ahead_days', 'practitioner_ids', 'appointment_type_ids', 'business_location_ids'] as const;
/** The form's field a 422 line names ("ahead_days", "practitioner_ids" or "filters.practitioner_ids"). */
const fieldOfPath = (path: string) => FIELDS.find((field) => field === path.replace(/^filters\./, ''));

function LoadedForm({ initial, submitLabel, onSaved }: { initial: SyncSettings; submitLabel: string; onSaved?: (settings: SyncSettings) => void }) {
  const { api, flash } = useServices();
  const queryClient = useQueryClient();
  const lists = useReferenceLists();
  const [form, setForm] = useState(initial);
  const [aheadDays, setAheadDays] = useState(String(initial.ahead_days));
  const [aheadDaysProblem, setAheadDaysProblem] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (settings: SyncSettings) => saveSyncSettings(api, settings),
    onSuccess: (saved) => {
      queryClient.setQueryData(syncSettingsQueries.current(api).queryKey, saved);
      flash.send({ type: 'APPEND', text: SETTINGS_SAVED });
      onSaved?.(saved);
    },
  });
  const setFilter = (name: keyof SyncSettings['filters']) => (ids: number[]) => setForm({ ...form, filters: { ...form.filters, [name]: ids } });
  const { fieldProps, problem, other } = useFieldProblems({
    error: save.error, fieldOf: fieldOfPath, fallback: 'An error has occurred. Could not save sync settings.',
    ours: aheadDaysProblem ? new Map([['ahead_days' as const, aheadDaysProblem]]) : undefined,
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const element = event.currentTarget;
    const found = validateAheadDays(aheadDays);
    setAheadDaysProblem(found);
    if (found) return focusFirstProblem(element);
    save.mutate({ ...form, ahead_days: Number(aheadDays) }, { onError: () => focusFirstProblem(element) });
  };

  return (
    <form onSubmit={submit} className="space-y-5" aria-label="Sync settings" noValidate>
      <div className="space-y-3">
        <Toggle
          label="Import automatically"
          hint="Every hour at :05, appointments from today to the days ahead are imported from the practice management system."
          checked={form.enable_auto_import}
          onChange={(value) => setForm({ ...form, enable_auto_import: value })}
        />
        <Toggle
          label="Export automatically"
          hint="Every hour at :35, changed appointment times in that range are written back to the practice management system."
          checked={form.enable_auto_export}
          onChange={(value) => setForm({ ...form, enable_auto_export: value })}
        />
      </div>
      <div className="max-w-xs">
        <label htmlFor="sync-ahead-days" className="block text-sm font-medium text-slate-700 dark:text-slate-200">
          Days ahead
        </label>
        <input
          id="sync-ahead-days"
          type="number"
          min={AHEAD_DAYS_LIMITS.min}
          max={AHEAD_DAYS_LIMITS.max}
          value={aheadDays}
          onChange={(event) => setAheadDays(event.target.value)}
          {...fieldProps('ahead_days', 'sync-ahead-days-hint')}
          className={`mt-1 block w-full rounded-md border bg-white px-3 py-2 text-sm dark:bg-slate-900 ${
            fieldProps('ahead_days')['aria-invalid'] ? 'border-rose-500' : 'border-slate-300 dark:border-slate-700'
          }`}
        />
        {problem('ahead_days')}
        <p id="sync-ahead-days-hint" className="mt-1 text-xs text-slate-500 dark:text-slate-400">
          From {AHEAD_DAYS_LIMITS.min} to {AHEAD_DAYS_LIMITS.max}: an import or export covers at most {MAX_RANGE_DAYS} days, today included. Also the range the
          Import and Export windows suggest while automatic sync is on.
        </p>
      </div>
      <div className="grid gap-4 sm:grid-cols-3">
        <div>
          <MultiSelect label="Business locations" placeholder="All" {...lists.businessLocations} value={form.filters.business_location_ids} onChange={setFilter('business_location_ids')} />
          {problem('business_location_ids')}
        </div>
        <div>
          <MultiSelect label="Appointment types" placeholder="All" {...lists.appointmentTypes} value={form.filters.appointment_type_ids} onChange={setFilter('appointment_type_ids')} />
          {problem('appointment_type_ids')}
        </div>
        <div>
          <MultiSelect label="Practitioners" placeholder="All" {...lists.practitioners} value={form.filters.practitioner_ids} onChange={setFilter('practitioner_ids')} />
          {problem('practitioner_ids')}
        </div>
      </div>
      {other.length > 0 && (
        <ErrorNote>
          {other.map((line) => (
            <span key={line} className="block">
              {line}
            </span>
          ))}
        </ErrorNote>
      )}
      <SubmitButton busy={save.isPending} busyLabel="Saving…">
        {submitLabel}
      </SubmitButton>
    </form>
  );
}
