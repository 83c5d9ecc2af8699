// The import or export form, then — once the job is created — its live status (the form is hidden meanwhile).
// Hosted by the header modals, the /imports/add and /exports/add pages and the account-setup wizard.
import { useEffect, useState, type FormEvent } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { useQuery } from '@tanstack/react-query';
import { Temporal } from 'temporal-polyfill';
import { useAuthSelector, useServices } from '../../app/ServicesContext';
import { selectUser } from '../../machines/auth';
import { selectDateProblem, selectIsConfirming, selectIsSubmitting, selectRequest, type SyncDraft } from '../../machines/syncForm';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { PageSpinner } from '../../ui/PageSpinner';
import { Icon } from '../../ui/Icon';
import type { JobKind, SyncJob } from '../../api/jobs';
import { DateRangePicker, SingleDatePicker } from '../../ui/DateRangePicker';
import { draftDates, draftForMode, pickerRange, prefillDraft, RANGE_PRESETS, type DateRange, type SyncMode } from './dateRange';
import { JobStatusPanel } from './JobStatusPanel';
import { MultiSelect } from '../../ui/MultiSelect';
import { useBusinessToday, useFreshSyncSettings, useReferenceLists } from './useSyncData';
import { useJobPoller, usePollingView } from './useJobPoller';
import { Button } from '../../ui/Button';
import { formatDay } from '../../lib/dates';
import { plural } from '../../lib/plural';
import type { ExportPreview } from './api';
import { exportPreviewQueries } from './queries';

const WARNINGS: Record<JobKind, string> = {
  // Imports overwrite edits made in Rounds, except arrival times not exported yet; users are told so.
  import: 'Imports overwrite existing data with the practice management software\'s, including edits made in Rounds — except arrival times changed here and not exported yet, which are kept unless the appointment was moved there.',
  export: 'Exports update appointment times in the practice management software. They cannot be undone, so you will be asked to confirm first.',
};

export interface SyncJobPanelProps {
  kind: JobKind;
  mode: SyncMode;
  /** FAST mode opened for a given day (yyyy-MM-dd). */
  date?: string;
  /** The days the page behind shows: the form opens on them instead of from today. */
  range?: DateRange;
  onCompleted?: (job: SyncJob) => void;
  /** The provider account is not set up or not active (start-up already told the user). */
  onAccountProblem?: (code: string) => void;
  /** Offers switching between NORMAL and FAST mode while the form shows. */
  onModeChange?: (mode: SyncMode) => void;
}

export function SyncJobPanel(props: SyncJobPanelProps) {
  const { kind, onCompleted } = props;
  const poller = useJobPoller(kind, onCompleted);
  const { job, pollError } = usePollingView(poller, kind);
  const settings = useFreshSyncSettings();

  if (job) return <JobStatusPanel job={job} kind={kind} pollError={pollError} />;
  if (settings.isPending) return <PageSpinner label="Loading sync settings" />;
  return <SyncJobForm key={props.mode} {...props} settings={settings.data ?? null} onCreated={(created) => poller?.send({ type: 'FOLLOW', job: created })} />;
}

function Callout({ children }: { children: string }) {
  return (
    <div role="note" data-testid="sync-warning" className="flex gap-3 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100">
      <Icon name="warning" className="mt-0.5 size-5" />
      <p>{children}</p>
    </div>
  );
}

function SyncJobForm({ kind, mode, date, range, settings, onCreated, onAccountProblem, onModeChange }: SyncJobPanelProps & {
  settings: ReturnType<typeof useFreshSyncSettings>['data'] | null;
  onCreated: (job: SyncJob) => void;
}) {
  const { api, flash, machines } = useServices();
  const user = useAuthSelector(selectUser);
  const today = useBusinessToday();
  const lists = useReferenceLists();
  const [draft, setDraft] = useState<SyncDraft>(() =>
    prefillDraft({
      kind,
      mode,
      today,
      settings: settings ?? null,
      role: user?.role ?? null,
      associatedPractitionerIds: user?.associated_practitioner_ids ?? [],
      date,
      range,
    }),
  );
  const actor = useActorRef(machines.syncForm, { input: { kind } });
  const submitting = useSelector(actor, selectIsSubmitting);
  const confirming = useSelector(actor, selectIsConfirming);
  const dateProblem = useSelector(actor, selectDateProblem);
  const request = useSelector(actor, selectRequest);
  const preview = useQuery({ ...exportPreviewQueries.of(api, request!), enabled: confirming && kind === 'export' && request !== null });

  useEffect(() => {
    const subscriptions = [
      actor.on('notice', (event) => flash.send({ type: 'APPEND', text: event.text, flashType: event.kind })),
      actor.on('created', (event) => onCreated(event.job)),
      actor.on('accountProblem', (event) => onAccountProblem?.(event.code)),
    ];
    return () => subscriptions.forEach((subscription) => subscription.unsubscribe());
  }, [actor, flash, onCreated, onAccountProblem]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // Only what the user can see is sent: ids no longer offered (inactive practitioners) are dropped once lists load.
    const offered = (ids: number[], list: { options: { id: number }[]; loading: boolean; failed: boolean }) =>
      list.loading || list.failed ? ids : ids.filter((id) => list.options.some((option) => option.id === id));
    const visible: SyncDraft = {
      ...draft,
      practitioner_ids: offered(draft.practitioner_ids, lists.practitioners),
      appointment_type_ids: offered(draft.appointment_type_ids, lists.appointmentTypes),
      business_location_ids: offered(draft.business_location_ids, lists.businessLocations),
    };
    actor.send({ type: 'SUBMIT', draft: draftForMode(visible, mode) });
  };

  const placeholder = kind === 'import' ? 'All' : 'Any';
  const startLabel = kind === 'import' ? 'Start import' : 'Start export';
  return (
    <form id={`${kind}-form`} aria-label={kind === 'import' ? 'Import appointments' : 'Export appointments'} onSubmit={submit} className="space-y-5" noValidate>
      {onModeChange && (
        <div className="flex justify-end">
          <button
            type="button"
            onClick={() => onModeChange(mode === 'NORMAL' ? 'FAST' : 'NORMAL')}
            className="rounded-md px-2 py-1 text-xs font-medium text-sky-700 hover:bg-sky-50 dark:text-sky-300 dark:hover:bg-slate-800"
          >
            {mode === 'NORMAL' ? 'One day only' : 'Date range and filters'}
          </button>
        </div>
      )}
      {mode === 'NORMAL' ? (
        <DateRangePicker
          label="Date range"
          clearable
          presets={RANGE_PRESETS}
          months={2}
          value={pickerRange(draft)}
          today={today}
          problem={dateProblem}
          onChange={(range) => setDraft({ ...draft, ...draftDates(range) })}
        />
      ) : (
        <SingleDatePicker
          label="Date"
          value={pickerRange(draft).start}
          today={today}
          onChange={(day) => setDraft({ ...draft, ...draftDates({ start: day, end: day }) })}
        />
      )}
      <div className={mode === 'NORMAL' ? 'grid gap-4 sm:grid-cols-3' : ''}>
        {mode === 'NORMAL' && (
          <>
            <MultiSelect
              label="Business locations"
              placeholder={placeholder}
              {...lists.businessLocations}
              value={draft.business_location_ids}
              onChange={(ids) => setDraft({ ...draft, business_location_ids: ids })}
            />
            <MultiSelect
              label="Appointment types"
              placeholder={placeholder}
              {...lists.appointmentTypes}
              value={draft.appointment_type_ids}
              onChange={(ids) => setDraft({ ...draft, appointment_type_ids: ids })}
            />
          </>
        )}
        <MultiSelect
          label="Practitioners"
          placeholder={placeholder}
          {...lists.practitioners}
          value={draft.practitioner_ids}
          onChange={(ids) => setDraft({ ...draft, practitioner_ids: ids })}
        />
      </div>
      <Callout>{WARNINGS[kind]}</Callout>
      <div className="flex justify-end">
        <Button type="submit" busy={submitting}>
          {startLabel}
        </Button>
      </div>
      <ConfirmDialog
        open={confirming}
        title="Export appointment times?"
        message={exportQuestion(preview.data, preview.isError)}
        confirmLabel="Yes, export"
        onConfirm={() => actor.send({ type: 'CONFIRM' })}
        onCancel={() => actor.send({ type: 'CANCEL' })}
      >
        {preview.data && preview.data.changed_routes.length > 0 && <ChangedRoutesWarning routes={preview.data.changed_routes} />}
      </ConfirmDialog>
    </form>
  );
}

/** The export's confirmation: how many visits it will change, once counted. */
function exportQuestion(preview: ExportPreview | undefined, failed: boolean): string {
  if (!preview) {
    return failed
      ? 'The appointment times in this range will be written to your practice management software. This cannot be undone.'
      : 'Counting the visits the export will change…';
  }
  if (preview.visits_to_change === 0) return 'No visit in this range has a new time or practitioner: the export will change nothing in your practice management software.';
  return `${plural(preview.visits_to_change, 'visit')} will change in your practice management software (${preview.visits_to_change === 1 ? 'its' : 'their'} time or practitioner). This cannot be undone.`;
}

function ChangedRoutesWarning({ routes }: { routes: ExportPreview['changed_routes'] }) {
  const one = routes.length === 1;
  const which = routes.map((route) => `${route.practitioner_name} (${formatDay(Temporal.PlainDate.from(route.date))})`).join(', ');
  return (
    <p role="note" data-testid="export-changed-routes" className="mt-3 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100">
      {plural(routes.length, 'route')} changed after {one ? 'it was' : 'they were'} optimised, so {one ? 'its' : 'their'} times may no longer fit the day: {which}.
      Optimise {one ? 'that day' : 'those days'} again before exporting, or export the times as they are.
    </p>
  );
}
