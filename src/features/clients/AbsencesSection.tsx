// "Away / in hospital": the client's absences in their details modal. An absence pauses the client's care plans in its
// days (their open visits go, their booked visits are cancelled in Cliniko), which the answer counts and the toast says.
import { useId, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Temporal } from 'temporal-polyfill';
import { useAuthSelector, useServices } from '../../app/ServicesContext';
import { messageOfError } from '../../api/errors';
import { formatDayRange, todayIn } from '../../lib/dates';
import { selectUser } from '../../machines/auth';
import { ABSENCE_SAVE_ERROR, type AbsenceReason, type ClientAbsence } from '../../entities/care-plans/api';
import { absenceQueries } from '../../entities/care-plans/queries';
import { Button } from '../../ui/Button';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { SingleDatePicker } from '../../ui/DateRangePicker';
import { ErrorNote, useFieldProblems } from '../../ui/forms';
import { Section } from '../../ui/ModalFrame';
import { LoadingText } from '../../ui/PageSpinner';
import { useAddAbsence, useDeleteAbsence } from './careMutations';

export const REASONS: Record<AbsenceReason, string> = { hospital: 'In hospital', away: 'Away', other: 'Other' };

type AbsenceField = 'starts_on' | 'ends_on' | 'reason' | 'note';
const ABSENCE_FIELDS: readonly AbsenceField[] = ['starts_on', 'ends_on', 'reason', 'note'];

const inputClass =
  'mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-sky-500 focus:ring-2 focus:ring-sky-500/30 focus:outline-none aria-invalid:border-rose-500 dark:border-slate-700 dark:bg-slate-900';
const labelClass = 'block text-sm font-medium text-slate-700 dark:text-slate-200';

const absenceWhen = (absence: Pick<ClientAbsence, 'starts_on' | 'ends_on'>) => formatDayRange(absence.starts_on, absence.ends_on);

export function AbsencesSection({ clientId, clientName }: { clientId: number; clientName: string }) {
  const { api } = useServices();
  const absences = useQuery(absenceQueries.ofClient(api, clientId));
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<ClientAbsence | null>(null);
  const remove = useDeleteAbsence();
  return (
    <Section
      title="Away / in hospital"
      actions={!adding && (
        <Button variant="secondary" size="xs" onClick={() => setAdding(true)}>
          Add absence
        </Button>
      )}
    >
      <p className="text-xs text-slate-500 dark:text-slate-400">
        While {clientName} is away their care plan pauses: its open visits in those days are removed and its booked visits cancelled in Cliniko.
      </p>
      {absences.isPending && <LoadingText label="Loading absences" className="mt-2 text-sm" />}
      {absences.isError && <div className="mt-2"><ErrorNote>{messageOfError(absences.error, 'An error has occurred. Could not load the absences.')}</ErrorNote></div>}
      {adding && <AbsenceForm clientId={clientId} onDone={() => setAdding(false)} />}
      {absences.data && absences.data.length === 0 && !adding && <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">No absences.</p>}
      {absences.data && absences.data.length > 0 && (
        <ul aria-label={`Absences of ${clientName}`} className="mt-2 divide-y divide-slate-200 rounded-md border border-slate-200 dark:divide-slate-800 dark:border-slate-800">
          {absences.data.map((absence) => (
            <li key={absence.id} data-testid="absence-row" className="flex flex-wrap items-center justify-between gap-2 px-3 py-2 text-sm">
              <span className="min-w-0">
                <span className="font-medium">{absenceWhen(absence)}</span> · {REASONS[absence.reason]}
                {absence.note && <span className="text-slate-600 dark:text-slate-300"> · {absence.note}</span>}
              </span>
              <Button variant="secondary" size="xs" onClick={() => setRemoving(absence)} aria-label={`Remove absence ${absenceWhen(absence)}`}>
                Remove
              </Button>
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={removing !== null}
        danger
        title="Remove absence"
        message={removing ? `Remove ${clientName}’s absence ${absenceWhen(removing)}? Visits cancelled for it are not booked again by themselves: the next time care visits are planned, those days get their visits again.` : ''}
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

interface AbsenceDraft {
  startsOn: Temporal.PlainDate | null;
  endsOn: Temporal.PlainDate | null;
  reason: AbsenceReason;
  note: string;
}

function draftProblems(draft: AbsenceDraft): Map<AbsenceField, string> {
  const problems = new Map<AbsenceField, string>();
  if (!draft.startsOn) problems.set('starts_on', 'Choose the first day away.');
  if (!draft.endsOn) problems.set('ends_on', 'Choose the last day away.');
  else if (draft.startsOn && Temporal.PlainDate.compare(draft.endsOn, draft.startsOn) < 0) problems.set('ends_on', 'The last day cannot be before the first day.');
  return problems;
}

function AbsenceForm({ clientId, onDone }: { clientId: number; onDone: () => void }) {
  const timeZone = useAuthSelector(selectUser)?.business_account.time_zone ?? undefined;
  const today = todayIn(timeZone);
  const [draft, setDraft] = useState<AbsenceDraft>({ startsOn: today, endsOn: today, reason: 'hospital', note: '' });
  const [ours, setOurs] = useState<Map<AbsenceField, string>>(new Map());
  const add = useAddAbsence(clientId);
  const ids = useId();
  const change = (changes: Partial<AbsenceDraft>) => setDraft((now) => ({ ...now, ...changes }));
  const { problem, fieldProps, other } = useFieldProblems<AbsenceField>({
    error: add.error, fieldOf: (path) => ABSENCE_FIELDS.find((field) => field === path), fallback: ABSENCE_SAVE_ERROR, ours,
    values: { starts_on: draft.startsOn?.toString(), ends_on: draft.endsOn?.toString(), reason: draft.reason, note: draft.note },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problems = draftProblems(draft);
    setOurs(problems);
    if (problems.size > 0) return;
    add.mutate(
      { starts_on: draft.startsOn!.toString(), ends_on: draft.endsOn!.toString(), reason: draft.reason, ...(draft.note.trim() ? { note: draft.note.trim() } : {}) },
      { onSuccess: onDone },
    );
  };
  return (
    <form onSubmit={submit} noValidate aria-label="New absence" className="mt-2 space-y-3 rounded-md border border-slate-200 p-3 dark:border-slate-800">
      <div className="grid gap-3 sm:grid-cols-2">
        <div>
          <SingleDatePicker label="From" value={draft.startsOn} onChange={(startsOn) => change({ startsOn })} today={today} />
          {problem('starts_on')}
        </div>
        <div>
          <SingleDatePicker label="To" value={draft.endsOn} onChange={(endsOn) => change({ endsOn })} today={today} />
          {problem('ends_on')}
        </div>
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <div>
          <label htmlFor={`${ids}-reason`} className={labelClass}>Reason</label>
          <select id={`${ids}-reason`} className={inputClass} value={draft.reason} {...fieldProps('reason')}
            onChange={(event) => change({ reason: event.target.value as AbsenceReason })}>
            {(Object.keys(REASONS) as AbsenceReason[]).map((reason) => <option key={reason} value={reason}>{REASONS[reason]}</option>)}
          </select>
          {problem('reason')}
        </div>
        <div>
          <label htmlFor={`${ids}-note`} className={labelClass}>Note</label>
          <input id={`${ids}-note`} type="text" maxLength={500} className={inputClass} value={draft.note} {...fieldProps('note')}
            onChange={(event) => change({ note: event.target.value })} />
          {problem('note')}
        </div>
      </div>
      {other.length > 0 && <ErrorNote>{other.join(' ')}</ErrorNote>}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" size="sm" busy={add.isPending}>Add absence</Button>
        <Button type="button" variant="secondary" size="sm" onClick={onDone}>Cancel</Button>
      </div>
    </form>
  );
}
