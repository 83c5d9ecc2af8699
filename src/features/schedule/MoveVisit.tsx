// On the appointment modal, for coordinators: move a visit by hand (another practitioner who delivers its type, another
// day or start time) through useMoveAppointment, which says what changed; the server's refusal (422) is shown next to
// the form. Times are typed and shown in the modal's zone (the practitioner's, else the business's).
import { useId, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useServices } from '../../app/ServicesContext';
import type { Appointment } from '../../api/types';
import { messageOfError } from '../../api/errors';
import { todayIn } from '../../lib/dates';
import { Button } from '../../ui/Button';
import { SingleDatePicker } from '../../ui/DateRangePicker';
import { FieldMessage } from '../../ui/forms';
import { TimeField } from '../../ui/TimeField';
import { practitionerSettingsQueries } from '../../entities/practitioners/queries';
import { ROUTE_ERRORS } from '../../entities/routes/api';
import { useMoveAppointment } from './mutations';
import { draftOfVisit, LEAVES_ROUTE_NOTE, moveOfDraft, practitionerChoices, type MoveDraft } from './visitMove';

export const PRACTITIONERS_LOAD_ERROR = 'An error has occurred. Could not load the practitioners who deliver this type.';

const inputClass =
  'mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-sky-500 focus:ring-2 focus:ring-sky-500/30 focus:outline-none disabled:opacity-60 dark:border-slate-700 dark:bg-slate-900';
const labelClass = 'block text-sm font-medium text-slate-700 dark:text-slate-200';

/** Remounted (keyed by the visit's practitioner and start) after a move, so the form starts from the saved visit. */
export function MoveVisit({ appointment, timeZone, onDone }: { appointment: Appointment; timeZone: string; onDone?: () => void }) {
  const { api } = useServices();
  const practitioners = useQuery(practitionerSettingsQueries.all(api));
  const move = useMoveAppointment();
  const [draft, setDraft] = useState<MoveDraft>(() => draftOfVisit(appointment, timeZone));
  const [problem, setProblem] = useState<string | null>(null);
  const id = useId();
  const problemId = `${id}-problem`;

  const current = appointment.practitioner;
  const offered = practitionerChoices(practitioners.data ?? [], appointment);
  const typeName = appointment.appointment_type?.name;

  const change = (next: Partial<MoveDraft>) => {
    setDraft((previous) => ({ ...previous, ...next }));
    setProblem(null);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const outcome = moveOfDraft(appointment, draft, timeZone);
    if ('problem' in outcome) {
      setProblem(outcome.problem);
      return;
    }
    move.mutate(
      { appointmentId: appointment.id, move: outcome.move },
      { onSuccess: () => onDone?.(), onError: (error) => setProblem(messageOfError(error, ROUTE_ERRORS.move)) },
    );
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Move this visit" data-testid="move-visit" className="space-y-3 text-sm">
      <fieldset disabled={move.isPending} className="grid gap-3 sm:grid-cols-3">
        <div className="sm:col-span-3">
          <label htmlFor={`${id}-practitioner`} className={labelClass}>
            Practitioner
          </label>
          <select
            id={`${id}-practitioner`}
            value={draft.practitionerId}
            onChange={(event) => change({ practitionerId: Number(event.target.value) })}
            className={inputClass}
          >
            {offered.map((practitioner) => (
              <option key={practitioner.id} value={practitioner.id}>
                {practitioner.full_name}
                {practitioner.id === current.id ? ' (now)' : ''}
              </option>
            ))}
          </select>
          <p className="mt-1 text-xs text-slate-500 dark:text-slate-400" data-testid="move-practitioners-hint">
            {practitioners.isPending
              ? 'Loading practitioners…'
              : practitioners.isError
                ? messageOfError(practitioners.error, PRACTITIONERS_LOAD_ERROR)
                : typeName
                  ? `Only active practitioners who deliver ${typeName}.`
                  : 'Active practitioners.'}
          </p>
        </div>
        <div className="sm:col-span-2">
          <SingleDatePicker label="Day" value={draft.day} onChange={(day) => change({ day })} today={todayIn(timeZone)} />
        </div>
        <div>
          <label htmlFor={`${id}-time`} className={labelClass}>
            Start time
          </label>
          <TimeField
            id={`${id}-time`}
            value={draft.time}
            aria-invalid={problem !== null}
            aria-describedby={problem ? problemId : undefined}
            onChange={(time) => change({ time })}
            className={inputClass}
          />
        </div>
      </fieldset>
      {appointment.route_id !== null && (
        <p data-testid="move-leaves-route" className="rounded-md bg-amber-50 px-3 py-2 text-amber-900 dark:bg-amber-950 dark:text-amber-100">
          {LEAVES_ROUTE_NOTE}
        </p>
      )}
      {problem && <FieldMessage id={problemId}>{problem}</FieldMessage>}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" size="sm" busy={move.isPending}>
          Move
        </Button>
        {onDone && (
          <Button variant="ghost" size="sm" disabled={move.isPending} onClick={onDone}>
            Cancel
          </Button>
        )}
      </div>
    </form>
  );
}
