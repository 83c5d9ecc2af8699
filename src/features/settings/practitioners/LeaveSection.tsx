// A practitioner's leave and time off, in their edit dialog: the leave from today on, each whole days or part of a day
// (in the business's time zone), added, changed and removed one at a time (saved at once, apart from the dialog's
// Save). A practitioner on leave is not routed, and part-day leave cuts their hours. Leave imported from Cliniko's
// unavailable blocks is shown but changed in Cliniko.
import { useId, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Temporal } from 'temporal-polyfill';
import { useAuthSelector, useServices } from '../../../app/ServicesContext';
import { messageOfError } from '../../../api/errors';
import { formatDay, normaliseTimeOfDay, todayIn } from '../../../lib/dates';
import { selectUser } from '../../../machines/auth';
import { Button } from '../../../ui/Button';
import { ConfirmDialog } from '../../../ui/ConfirmDialog';
import { SingleDatePicker } from '../../../ui/DateRangePicker';
import { ErrorNote, useFieldProblems } from '../../../ui/forms';
import { Section } from '../../../ui/ModalFrame';
import { TimeField } from '../../../ui/TimeField';
import { LEAVE_DELETE_ERROR, LEAVE_SAVE_ERROR, type LeaveInput, type PractitionerLeave, type PractitionerSettings } from '../../../entities/practitioners/api';
import { useDeleteLeave, useSaveLeave } from './mutations';
import { leaveQueries } from '../../../entities/practitioners/queries';
import { timeInputClass } from './WeekHoursEditor';
import { LoadingText } from '../../../ui/PageSpinner';

type LeaveField = 'start_date' | 'end_date' | 'start_time' | 'end_time' | 'reason';
const LEAVE_FIELDS: readonly LeaveField[] = ['start_date', 'end_date', 'start_time', 'end_time', 'reason'];

interface LeaveDraft {
  wholeDays: boolean;
  startDate: Temporal.PlainDate | null;
  endDate: Temporal.PlainDate | null;
  startTime: string;
  endTime: string;
  reason: string;
}

const inputClass =
  'mt-1 block w-full rounded-md border bg-white px-3 py-2 text-sm shadow-sm focus:border-sky-500 focus:ring-2 focus:ring-sky-500/30 focus:outline-none dark:bg-slate-900 border-slate-300 dark:border-slate-700 aria-invalid:border-rose-500';

const dayOf = (date: string) => formatDay(Temporal.PlainDate.from(date));

/** "12 Dec 2026 – 14 Dec 2026" or "12 Dec 2026, 12:30–17:00": when the leave is, in words. */
export function leaveWhen(leave: PractitionerLeave): string {
  if (leave.start_time === null || leave.end_time === null) {
    return leave.start_date === leave.end_date ? `${dayOf(leave.start_date)} (all day)` : `${dayOf(leave.start_date)} – ${dayOf(leave.end_date)}`;
  }
  return leave.start_date === leave.end_date
    ? `${dayOf(leave.start_date)}, ${leave.start_time}–${leave.end_time}`
    : `${dayOf(leave.start_date)} ${leave.start_time} – ${dayOf(leave.end_date)} ${leave.end_time}`;
}

const draftOf = (leave: PractitionerLeave | null, today: Temporal.PlainDate): LeaveDraft => (leave
  ? {
    wholeDays: leave.start_time === null, startDate: Temporal.PlainDate.from(leave.start_date), endDate: Temporal.PlainDate.from(leave.end_date),
    startTime: leave.start_time ?? '', endTime: leave.end_time ?? '', reason: leave.reason ?? '',
  }
  : { wholeDays: true, startDate: today, endDate: today, startTime: '', endTime: '', reason: '' });

/** What the form finds wrong before asking the server, by field. */
function draftProblems(draft: LeaveDraft): Map<LeaveField, string> {
  const problems = new Map<LeaveField, string>();
  if (!draft.startDate) problems.set('start_date', 'Choose the first day of leave.');
  if (draft.wholeDays) {
    if (!draft.endDate) problems.set('end_date', 'Choose the last day of leave.');
  } else {
    if (!normaliseTimeOfDay(draft.startTime)) problems.set('start_time', 'Enter the time the leave starts, e.g. 12:30.');
    if (!normaliseTimeOfDay(draft.endTime)) problems.set('end_time', 'Enter the time the leave ends, e.g. 17:00.');
  }
  return problems;
}

const inputOf = (practitionerId: number, draft: LeaveDraft): LeaveInput => ({
  practitioner_id: practitionerId,
  start_date: draft.startDate!.toString(),
  // Part of a day is on one day.
  end_date: (draft.wholeDays ? draft.endDate! : draft.startDate!).toString(),
  start_time: draft.wholeDays ? null : normaliseTimeOfDay(draft.startTime),
  end_time: draft.wholeDays ? null : normaliseTimeOfDay(draft.endTime),
  reason: draft.reason.trim() || null,
});

export function LeaveSection({ practitioner }: { practitioner: PractitionerSettings }) {
  const { api } = useServices();
  const leave = useQuery(leaveQueries.ofPractitioner(api, practitioner.id));
  // null: no form; 'new': adding; else the id of the leave being changed.
  const [editing, setEditing] = useState<'new' | number | null>(null);
  const [removing, setRemoving] = useState<PractitionerLeave | null>(null);
  const remove = useDeleteLeave();
  const name = practitioner.full_name;

  return (
    <Section
      title="Leave"
      actions={editing === null && (
        <Button variant="secondary" size="sm" onClick={() => setEditing('new')}>
          Add leave
        </Button>
      )}
    >
      <p className="text-xs text-slate-500 dark:text-slate-400">
        While on leave {name} is not routed: days of leave leave them out of optimising, and part of a day shortens their hours. Visits
        already booked in their leave are marked on the schedule; optimise the day reassigning between practitioners to move them. Leave is
        saved as soon as you add or change it.
      </p>
      {leave.isPending && <LoadingText label="Loading leave" className="mt-2 text-sm" />}
      {leave.isError && <div className="mt-2"><ErrorNote>{messageOfError(leave.error, 'An error has occurred. Could not load the leave.')}</ErrorNote></div>}
      {remove.isError && <div className="mt-2"><ErrorNote>{messageOfError(remove.error, LEAVE_DELETE_ERROR)}</ErrorNote></div>}
      {editing === 'new' && <LeaveForm practitioner={practitioner} leave={null} onDone={() => setEditing(null)} />}
      {leave.data && leave.data.length === 0 && editing !== 'new' && (
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">No leave from today on.</p>
      )}
      {leave.data && leave.data.length > 0 && (
        <ul aria-label={`Leave of ${name}`} className="mt-2 divide-y divide-slate-200 rounded-md border border-slate-200 dark:divide-slate-800 dark:border-slate-800">
          {leave.data.map((entry) => (
            <li key={entry.id} data-testid="leave-row" className="px-3 py-2 text-sm">
              {editing === entry.id ? (
                <LeaveForm practitioner={practitioner} leave={entry} onDone={() => setEditing(null)} />
              ) : (
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <div className="min-w-0">
                    <span className="font-medium">{leaveWhen(entry)}</span>
                    {entry.reason && <span className="text-slate-600 dark:text-slate-300"> · {entry.reason}</span>}
                    {entry.source === 'cliniko' && <span className="block text-xs text-slate-500 dark:text-slate-400">From Cliniko: change it there.</span>}
                  </div>
                  {entry.source === 'manual' && editing === null && (
                    <div className="flex gap-2">
                      <Button variant="secondary" size="sm" onClick={() => setEditing(entry.id)} aria-label={`Change leave ${leaveWhen(entry)}`}>
                        Change
                      </Button>
                      <Button variant="secondary" size="sm" onClick={() => setRemoving(entry)} aria-label={`Remove leave ${leaveWhen(entry)}`}>
                        Remove
                      </Button>
                    </div>
                  )}
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={removing !== null}
        danger
        title="Remove leave"
        message={removing ? `Remove ${name}’s leave ${leaveWhen(removing)}? They can be routed on those days again.` : ''}
        confirmLabel="Remove"
        onCancel={() => setRemoving(null)}
        onConfirm={() => {
          if (removing) remove.mutate(removing.id);
          setRemoving(null);
        }}
      />
    </Section>
  );
}

function LeaveForm({ practitioner, leave, onDone }: { practitioner: PractitionerSettings; leave: PractitionerLeave | null; onDone: () => void }) {
  const timeZone = useAuthSelector(selectUser)?.business_account.time_zone ?? undefined;
  const today = todayIn(timeZone);
  const [draft, setDraft] = useState(() => draftOf(leave, today));
  const [ours, setOurs] = useState<Map<LeaveField, string>>(new Map());
  const save = useSaveLeave();
  const ids = useId();
  const change = (changes: Partial<LeaveDraft>) => setDraft((current) => ({ ...current, ...changes }));
  const { problem, fieldProps, other } = useFieldProblems<LeaveField>({
    error: save.error, fieldOf: (path) => LEAVE_FIELDS.find((field) => field === path), fallback: LEAVE_SAVE_ERROR, ours,
    values: { start_date: draft.startDate?.toString(), end_date: draft.endDate?.toString(), start_time: draft.startTime, end_time: draft.endTime, reason: draft.reason },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problems = draftProblems(draft);
    setOurs(problems);
    if (problems.size > 0) return;
    save.mutate({ id: leave?.id ?? null, input: inputOf(practitioner.id, draft) }, { onSuccess: onDone });
  };

  return (
    <form onSubmit={submit} noValidate aria-label={leave ? 'Change leave' : 'New leave'} className="mt-2 space-y-3 rounded-md border border-slate-200 p-3 dark:border-slate-800">
      <fieldset className="flex flex-wrap gap-4 text-sm">
        <legend className="sr-only">How long</legend>
        <label className="flex items-center gap-2">
          <input type="radio" name={`${ids}-length`} checked={draft.wholeDays} onChange={() => change({ wholeDays: true })} />
          Whole days
        </label>
        <label className="flex items-center gap-2">
          <input type="radio" name={`${ids}-length`} checked={!draft.wholeDays} onChange={() => change({ wholeDays: false })} />
          Part of a day
        </label>
      </fieldset>
      <div className="grid gap-3 sm:grid-cols-2">
        <div>
          <SingleDatePicker label={draft.wholeDays ? 'First day' : 'Day'} value={draft.startDate} onChange={(startDate) => change({ startDate })} today={today} />
          {problem('start_date')}
        </div>
        {draft.wholeDays ? (
          <div>
            <SingleDatePicker label="Last day" value={draft.endDate} onChange={(endDate) => change({ endDate })} today={today} />
            {problem('end_date')}
          </div>
        ) : (
          <div className="flex flex-wrap items-start gap-3">
            <div>
              <label className="text-sm">
                <span className="block text-xs font-medium text-slate-600 dark:text-slate-300">From</span>
                <TimeField value={draft.startTime} onChange={(startTime) => change({ startTime })} {...fieldProps('start_time')} className={`mt-1 ${timeInputClass}`} />
              </label>
              {problem('start_time')}
            </div>
            <div>
              <label className="text-sm">
                <span className="block text-xs font-medium text-slate-600 dark:text-slate-300">To</span>
                <TimeField value={draft.endTime} onChange={(endTime) => change({ endTime })} {...fieldProps('end_time')} className={`mt-1 ${timeInputClass}`} />
              </label>
              {problem('end_time')}
            </div>
          </div>
        )}
      </div>
      <div>
        <label htmlFor={`${ids}-reason`} className="block text-sm font-medium text-slate-700 dark:text-slate-200">Reason (optional)</label>
        <input id={`${ids}-reason`} maxLength={200} value={draft.reason} onChange={(event) => change({ reason: event.target.value })} {...fieldProps('reason')} className={inputClass} />
        {problem('reason')}
      </div>
      {other.length > 0 && <ErrorNote>{other.map((line) => <span key={line} className="block">{line}</span>)}</ErrorNote>}
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="secondary" size="sm" onClick={onDone} disabled={save.isPending}>
          Cancel
        </Button>
        <Button type="submit" size="sm" busy={save.isPending}>
          {leave ? 'Save leave' : 'Add'}
        </Button>
      </div>
    </form>
  );
}
