// "New visit" on the day schedule (also opened from a free time on a lane, a client's details and the nearby search's
// results, through the address): the client, the appointment type (its length), the day, a time or a window, and a
// practitioner or the best fit, whose top few are shown to choose from. Book sends one request id made when the dialog
// opened, so a double click or a retry books once; a refusal (the rules, a field) is shown in words in the dialog with
// nothing lost from the form. Only those who plan routes (ADMIN, REGULAR_USER) are given it.
import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Temporal } from 'temporal-polyfill';
import { useAuthSelector, useServices } from '../../app/ServicesContext';
import { selectUser } from '../../machines/auth';
import { messagesOfError } from '../../api/errors';
import { todayIn } from '../../lib/dates';
import { ModalFrame } from '../../ui/ModalFrame';
import { Button } from '../../ui/Button';
import { ErrorNote } from '../../ui/forms';
import { SingleDatePicker } from '../../ui/DateRangePicker';
import { TimeField } from '../../ui/TimeField';
import { appointmentTypeQueries } from '../../entities/appointments/queries';
import { appointmentTimeZone } from '../../entities/appointments/facts';
import { BOOKING_ERRORS, newRequestId, PMS_NAME, type BestFit, type BestFitResult } from '../../entities/appointments/booking';
import { clientQueries } from '../../entities/clients/queries';
import { practitionerSettingsQueries } from '../../entities/practitioners/queries';
import { BestFitChoices } from '../../ui/BestFitChoices';
import { ClientPicker, type ChosenClient } from './ClientPicker';
import { useBookVisit, useFindBestFit } from './bookingMutations';
import { practitionersForType } from './visitMove';
import { BEST_FIT, bestFitRequestOf, bookingOf, needsBestFit, WINDOWS, type VisitDraft, type When } from './visitBooking';

export const inputClass =
  'mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-sky-500 focus:ring-2 focus:ring-sky-500/30 focus:outline-none disabled:opacity-60 dark:border-slate-700 dark:bg-slate-900';
export const labelClass = 'block text-sm font-medium text-slate-700 dark:text-slate-200';

export interface NewVisitInitial {
  day: Temporal.PlainDate;
  clientId?: number | null;
  appointmentTypeId?: number | null;
  practitionerId?: number | null;
  time?: string | null;
}

const WHEN_LABELS: Record<When, string> = {
  time: 'At a time',
  morning: `${WINDOWS.morning.label} (${WINDOWS.morning.from}–${WINDOWS.morning.to})`,
  afternoon: `${WINDOWS.afternoon.label} (${WINDOWS.afternoon.from}–${WINDOWS.afternoon.to})`,
  custom: 'Between…',
};

export function NewVisitDialog({ initial, onClose }: { initial: NewVisitInitial; onClose: () => void }) {
  const { api } = useServices();
  const timeZone = appointmentTimeZone(useAuthSelector(selectUser)?.business_account.time_zone);
  const id = useId();
  // One per dialog: the same booking sent again (a double click, Book after a refusal) answers the same visit.
  const [requestId] = useState(newRequestId);
  const [draft, setDraft] = useState<VisitDraft>(() => ({
    clientId: initial.clientId ?? null,
    typeId: initial.appointmentTypeId ?? null,
    day: initial.day,
    when: initial.time ? 'time' : 'morning',
    time: initial.time ?? '09:00',
    from: '09:00',
    to: '11:00',
    practitioner: initial.practitionerId ?? BEST_FIT,
  }));
  const [client, setClient] = useState<ChosenClient | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [fits, setFits] = useState<BestFitResult | null>(null);
  const [chosen, setChosen] = useState<BestFit | null>(null);

  const prefilledClient = useQuery({ ...clientQueries.detail(api, initial.clientId ?? 0), enabled: Boolean(initial.clientId) });
  useEffect(() => {
    if (prefilledClient.data && !client) setClient({ id: prefilledClient.data.id, full_name: prefilledClient.data.full_name });
  }, [prefilledClient.data, client]);

  const types = useQuery(appointmentTypeQueries.all(api));
  const practitioners = useQuery(practitionerSettingsQueries.all(api));
  const type = types.data?.find((candidate) => candidate.id === draft.typeId) ?? null;
  const qualified = useMemo(() => practitionersForType(practitioners.data ?? [], draft.typeId), [practitioners.data, draft.typeId]);
  const chosenPractitioner = draft.practitioner === BEST_FIT ? null : (practitioners.data ?? []).find((practitioner) => practitioner.id === draft.practitioner);
  const offered = chosenPractitioner && !qualified.includes(chosenPractitioner) ? [chosenPractitioner, ...qualified] : qualified;

  const bestFit = useFindBestFit();
  const book = useBookVisit();

  /** Any change makes the fits found before stale, and the last refusal said. */
  const change = (next: Partial<VisitDraft>) => {
    setDraft((previous) => ({ ...previous, ...next }));
    setFits(null);
    setChosen(null);
    setProblem(null);
    bestFit.reset();
    book.reset();
  };

  const findFits = () => {
    const request = bestFitRequestOf(draft, type?.duration ?? 0);
    if ('problem' in request) {
      setProblem(request.problem);
      return;
    }
    setProblem(null);
    bestFit.mutate(request, {
      onSuccess: (result) => {
        setFits(result);
        setChosen(result.fits[0] ?? null);
      },
    });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const booking = bookingOf(draft, type?.duration ?? 0, chosen, timeZone, requestId);
    if ('problem' in booking) {
      setProblem(booking.problem);
      return;
    }
    setProblem(null);
    book.mutate(booking, { onSuccess: onClose });
  };

  const asksBestFit = needsBestFit(draft);
  const errorLines = book.isError ? messagesOfError(book.error, BOOKING_ERRORS.book) : bestFit.isError ? messagesOfError(bestFit.error, BOOKING_ERRORS.bestFit) : [];
  const formId = `${id}-form`;

  return (
    <ModalFrame
      title="New visit"
      onClose={onClose}
      testId="new-visit-dialog"
      width="small"
      footer={
        <Button type="submit" form={formId} size="sm" busy={book.isPending} disabled={asksBestFit && !chosen}>
          Book
        </Button>
      }
    >
      <form id={formId} onSubmit={submit} noValidate aria-label="New visit" className="space-y-4 text-sm">
        <ClientPicker
          value={client}
          invalid={problem !== null && draft.clientId === null}
          onChange={(next) => {
            setClient(next);
            change({ clientId: next?.id ?? null });
          }}
        />
        <div>
          <label htmlFor={`${id}-type`} className={labelClass}>Appointment type</label>
          <select id={`${id}-type`} value={draft.typeId ?? ''} onChange={(event) => change({ typeId: event.target.value ? Number(event.target.value) : null })} className={inputClass}>
            <option value="">Choose a type</option>
            {(types.data ?? []).map((option) => (
              <option key={option.id} value={option.id}>{option.name} ({option.duration} min)</option>
            ))}
          </select>
          {type && <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">The visit lasts {type.duration} minutes.</p>}
        </div>
        <SingleDatePicker label="Day" value={draft.day} onChange={(day) => change({ day })} today={todayIn(timeZone)} earliest={todayIn(timeZone)} clearable={false} />
        <fieldset>
          <legend className={labelClass}>When</legend>
          <div className="mt-1 grid gap-1 sm:grid-cols-2">
            {(Object.keys(WHEN_LABELS) as When[]).map((when) => (
              <label key={when} className="flex items-center gap-2">
                <input type="radio" name={`${id}-when`} checked={draft.when === when} onChange={() => change({ when })} />
                {WHEN_LABELS[when]}
              </label>
            ))}
          </div>
          {draft.when === 'time' && (
            <div className="mt-2">
              <label htmlFor={`${id}-time`} className={labelClass}>Start time</label>
              <TimeField id={`${id}-time`} value={draft.time} onChange={(time) => change({ time })} className={inputClass} />
            </div>
          )}
          {draft.when === 'custom' && (
            <div className="mt-2 grid grid-cols-2 gap-3">
              <div>
                <label htmlFor={`${id}-from`} className={labelClass}>From</label>
                <TimeField id={`${id}-from`} value={draft.from} onChange={(from) => change({ from })} className={inputClass} />
              </div>
              <div>
                <label htmlFor={`${id}-to`} className={labelClass}>To</label>
                <TimeField id={`${id}-to`} value={draft.to} onChange={(to) => change({ to })} className={inputClass} />
              </div>
            </div>
          )}
        </fieldset>
        <div>
          <label htmlFor={`${id}-practitioner`} className={labelClass}>Practitioner</label>
          <select
            id={`${id}-practitioner`}
            value={String(draft.practitioner)}
            onChange={(event) => change({ practitioner: event.target.value === BEST_FIT ? BEST_FIT : Number(event.target.value) })}
            className={inputClass}
          >
            <option value={BEST_FIT}>Best fit</option>
            {offered.map((practitioner) => (
              <option key={practitioner.id} value={practitioner.id}>
                {practitioner.full_name}{qualified.includes(practitioner) ? '' : ' (does not deliver this type)'}
              </option>
            ))}
          </select>
          <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
            {draft.practitioner === BEST_FIT
              ? 'Rounds ranks the practitioners who deliver the type by the travel the visit adds to their day and the rules of home care.'
              : type ? `Active practitioners who deliver ${type.name}.` : 'Choose the type to see who delivers it.'}
          </p>
        </div>
        {asksBestFit && (
          <div className="space-y-2">
            <Button variant="secondary" size="sm" busy={bestFit.isPending} onClick={findFits}>
              {draft.practitioner === BEST_FIT ? 'Find the best fits' : 'Find a time'}
            </Button>
            {fits && <BestFitChoices result={fits} chosen={chosen} onChoose={setChosen} timeZone={timeZone} />}
          </div>
        )}
        {problem && <p role="alert" className="text-sm text-rose-700 dark:text-rose-300">{problem}</p>}
        {errorLines.length > 0 && (
          <ErrorNote>
            {errorLines.map((line) => <p key={line}>{line}</p>)}
          </ErrorNote>
        )}
        <p className="text-xs text-slate-500 dark:text-slate-400">The visit is in Rounds at once and is saved to {PMS_NAME} in the background.</p>
      </form>
    </ModalFrame>
  );
}
