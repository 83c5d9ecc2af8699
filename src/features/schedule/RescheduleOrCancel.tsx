// The appointment modal's "Reschedule" and "Cancel visit", for coordinators (ADMIN, REGULAR_USER), both written through
// to the PMS. Reschedule: another day, time or practitioner (or the best fit for that day, the visit's own day priced
// without it) and why, for the change log. Cancel: the PMS's reason, a note and whether to tell the client; after a
// cancel that left a gap in a route, "Re-optimise {practitioner}'s day" opens the Optimise dialog on it. Needs another
// practitioner: the visit is cancelled (in the PMS too) and waits in the open visits, with why, for someone to fill it.
import { useId, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useServices } from '../../app/ServicesContext';
import { messagesOfError } from '../../api/errors';
import type { Appointment } from '../../api/types';
import { formatCalendarDate, formatTime, todayIn } from '../../lib/dates';
import { Button } from '../../ui/Button';
import { Section } from '../../ui/ModalFrame';
import { ErrorNote } from '../../ui/forms';
import { SingleDatePicker } from '../../ui/DateRangePicker';
import { TimeField } from '../../ui/TimeField';
import { cancellationReasonQueries } from '../../entities/appointments/queries';
import { arrivalOf, isCancelled } from '../../entities/appointments/facts';
import { useFixedBeforeMinutes } from '../../entities/optimization-settings/fixedVisits';
import { fixedVisitReason } from '../../lib/fixedVisits';
import { BOOKING_ERRORS, PMS_NAME, type BestFit, type BestFitResult, type CancellationReasonCode, type CancelledVisit } from '../../entities/appointments/booking';
import { OPEN_FROM_BOOKING_ERROR } from '../../entities/open-visits/api';
import { practitionerSettingsQueries } from '../../entities/practitioners/queries';
import { BestFitChoices } from '../../ui/BestFitChoices';
import { openedVisitWords, useCancelVisit, useFindBestFit, useOpenVisitFromBooking, useRescheduleVisit } from './bookingMutations';
import { inputClass, labelClass } from './NewVisitDialog';
import { draftOfVisit, moveOfDraft, practitionerChoices, type MoveDraft } from './visitMove';

type Panel = 'closed' | 'reschedule' | 'cancel' | 'open';

export const STARTED_NOTE = 'A visit that has started cannot be rescheduled or cancelled.';
export const CHOOSE_REASON = 'Choose why the visit is cancelled.';

/** The day schedule with the Optimise dialog open on the day for the practitioner. */
export const reoptimiseHref = ({ date, practitioner_id }: { date: string; practitioner_id: number }) =>
  `/appointments?view=schedule&start=${date}&end=${date}&optimise=${practitioner_id}`;

export function RescheduleOrCancel({ appointment, timeZone }: { appointment: Appointment; timeZone: string }) {
  const [panel, setPanel] = useState<Panel>('closed');
  const [cancelled, setCancelled] = useState<CancelledVisit | null>(null);
  const [opened, setOpened] = useState(false);
  // A visit about to start keeps its time (the fixed-visit margin, as a move by hand): it can still be cancelled.
  const fixed = fixedVisitReason({ arrival: arrivalOf(appointment), visitState: appointment.visit_state }, useFixedBeforeMinutes());
  if (isCancelled(appointment)) {
    if (opened) {
      return (
        <Section title="Needs another practitioner">
          <div data-testid="opened-visit" className="space-y-2 text-sm">
            <p>{openedVisitWords(appointment)} is now an open visit: fill it with another practitioner from the open visits.</p>
            <Button size="sm" href="/open-visits">Open visits</Button>
          </div>
        </Section>
      );
    }
    if (!cancelled?.reoptimise) return null;
    return (
      <Section title="Cancelled">
        <div data-testid="reoptimise-offer" className="space-y-2 text-sm">
          <p>The visit left {appointment.practitioner.full_name}'s route on {formatCalendarDate(cancelled.reoptimise.date)}: the gap stays until the day is optimised again.</p>
          <Button size="sm" href={reoptimiseHref(cancelled.reoptimise)}>Re-optimise {appointment.practitioner.full_name}'s day</Button>
        </div>
      </Section>
    );
  }
  const started = (appointment.visit_state ?? 'not_started') !== 'not_started';
  return (
    <Section title="Reschedule or cancel">
      <div data-testid="reschedule-or-cancel" className="space-y-3">
        {panel === 'closed' && (
          <div className="flex flex-wrap gap-2">
            <Button variant="secondary" size="sm" disabled={started || fixed !== null} onClick={() => setPanel('reschedule')}>Reschedule</Button>
            <Button variant="secondary" danger size="sm" disabled={started} onClick={() => setPanel('cancel')}>Cancel visit</Button>
            {appointment.client && appointment.appointment_type && (
              <Button variant="secondary" size="sm" disabled={started} onClick={() => setPanel('open')}>Needs another practitioner</Button>
            )}
          </div>
        )}
        {started && <p className="text-xs text-slate-500 dark:text-slate-400">{STARTED_NOTE}</p>}
        {!started && fixed && <p className="text-xs text-slate-500 dark:text-slate-400" data-testid="reschedule-fixed">{fixed}</p>}
        {!started && !fixed && panel === 'reschedule' && <RescheduleForm appointment={appointment} timeZone={timeZone} onDone={() => setPanel('closed')} />}
        {!started && panel === 'cancel' && (
          <CancelForm
            appointment={appointment}
            onDone={(result) => {
              setPanel('closed');
              if (result) setCancelled(result);
            }}
          />
        )}
        {!started && panel === 'open' && (
          <OpenVisitForm
            appointment={appointment}
            onDone={(done) => {
              setPanel('closed');
              setOpened(done);
            }}
          />
        )}
      </div>
    </Section>
  );
}

/** Needs another practitioner: why (optional), then the visit is cancelled and waits in the open visits. */
function OpenVisitForm({ appointment, onDone }: { appointment: Appointment; onDone: (opened: boolean) => void }) {
  const id = useId();
  const open = useOpenVisitFromBooking();
  const [reason, setReason] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    open.mutate({ appointmentId: appointment.id, reason: reason.trim() }, { onSuccess: () => onDone(true) });
  };
  const errorLines = open.isError ? messagesOfError(open.error, OPEN_FROM_BOOKING_ERROR) : [];
  return (
    <form onSubmit={submit} noValidate aria-label="Needs another practitioner" data-testid="open-visit-from-booking" className="space-y-3 text-sm">
      <fieldset disabled={open.isPending}>
        <label htmlFor={`${id}-reason`} className={labelClass}>Why {appointment.practitioner.full_name} cannot do it</label>
        <input id={`${id}-reason`} type="text" maxLength={500} value={reason} onChange={(event) => setReason(event.target.value)} className={inputClass} placeholder="e.g. Off sick" />
      </fieldset>
      <p className="text-xs text-slate-500 dark:text-slate-400">
        The visit is cancelled here and in {PMS_NAME}, and waits in the open visits around its agreed time until another practitioner fills it.
      </p>
      {errorLines.length > 0 && <ErrorNote>{errorLines.map((line) => <p key={line}>{line}</p>)}</ErrorNote>}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" size="sm" busy={open.isPending}>Make it an open visit</Button>
        <Button variant="ghost" size="sm" disabled={open.isPending} onClick={() => onDone(false)}>Back</Button>
      </div>
    </form>
  );
}

function RescheduleForm({ appointment, timeZone, onDone }: { appointment: Appointment; timeZone: string; onDone: () => void }) {
  const { api } = useServices();
  const id = useId();
  const practitioners = useQuery(practitionerSettingsQueries.all(api));
  const reschedule = useRescheduleVisit();
  const bestFit = useFindBestFit();
  const [draft, setDraft] = useState<MoveDraft>(() => draftOfVisit(appointment, timeZone));
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [fits, setFits] = useState<BestFitResult | null>(null);
  const [chosen, setChosen] = useState<BestFit | null>(null);
  const current = appointment.practitioner;
  const offered = practitionerChoices(practitioners.data ?? [], appointment);

  const change = (next: Partial<MoveDraft>) => {
    setDraft((previous) => ({ ...previous, ...next }));
    setProblem(null);
    reschedule.reset();
  };
  const choose = (fit: BestFit) => {
    setChosen(fit);
    change({ practitionerId: fit.practitioner_id, time: formatTime(fit.arrive_at, timeZone) });
  };
  const findFits = () => {
    if (!draft.day || !appointment.client || !appointment.appointment_type) return;
    setFits(null);
    setChosen(null);
    bestFit.mutate(
      { client_id: appointment.client.id, appointment_type_id: appointment.appointment_type.id, date: draft.day.toString(), appointment_id: appointment.id, limit: 5 },
      { onSuccess: setFits },
    );
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const outcome = moveOfDraft(appointment, draft, timeZone);
    if ('problem' in outcome) {
      setProblem(outcome.problem);
      return;
    }
    const { starts_at: startsAt = appointment.starts_at, practitioner_id: practitionerId } = outcome.move;
    reschedule.mutate(
      { appointmentId: appointment.id, request: { starts_at: startsAt, ...(practitionerId ? { practitioner_id: practitionerId } : {}), ...(reason.trim() ? { reason: reason.trim() } : {}) } },
      { onSuccess: onDone },
    );
  };
  const errorLines = reschedule.isError ? messagesOfError(reschedule.error, BOOKING_ERRORS.reschedule) : bestFit.isError ? messagesOfError(bestFit.error, BOOKING_ERRORS.bestFit) : [];

  return (
    <form onSubmit={submit} noValidate aria-label="Reschedule this visit" data-testid="reschedule-visit" className="space-y-3 text-sm">
      <fieldset disabled={reschedule.isPending} className="grid gap-3 sm:grid-cols-3">
        <div className="sm:col-span-2">
          <SingleDatePicker label="Day" value={draft.day} onChange={(day) => { setFits(null); setChosen(null); change({ day }); }} today={todayIn(timeZone)} earliest={todayIn(timeZone)} clearable={false} />
        </div>
        <div>
          <label htmlFor={`${id}-time`} className={labelClass}>Start time</label>
          <TimeField id={`${id}-time`} value={draft.time} onChange={(time) => change({ time })} className={inputClass} />
        </div>
        <div className="sm:col-span-3">
          <label htmlFor={`${id}-practitioner`} className={labelClass}>Practitioner</label>
          <select id={`${id}-practitioner`} value={draft.practitionerId} onChange={(event) => change({ practitionerId: Number(event.target.value) })} className={inputClass}>
            {offered.map((practitioner) => (
              <option key={practitioner.id} value={practitioner.id}>
                {practitioner.full_name}
                {practitioner.id === current.id ? ' (now)' : ''}
              </option>
            ))}
          </select>
        </div>
        {appointment.client && appointment.appointment_type && (
          <div className="space-y-2 sm:col-span-3">
            <Button variant="secondary" size="sm" busy={bestFit.isPending} disabled={!draft.day} onClick={findFits}>Best fit that day</Button>
            {fits && <BestFitChoices result={fits} chosen={chosen} onChoose={choose} timeZone={timeZone} />}
          </div>
        )}
        <div className="sm:col-span-3">
          <label htmlFor={`${id}-reason`} className={labelClass}>Why (for the change log)</label>
          <input id={`${id}-reason`} type="text" maxLength={500} value={reason} onChange={(event) => setReason(event.target.value)} className={inputClass} placeholder="e.g. The client asked for Friday" />
        </div>
      </fieldset>
      <p className="text-xs text-slate-500 dark:text-slate-400">The client's agreed time becomes the new start; the visit leaves its route and the change is saved to Cliniko.</p>
      {problem && <p role="alert" className="text-sm text-rose-700 dark:text-rose-300">{problem}</p>}
      {errorLines.length > 0 && <ErrorNote>{errorLines.map((line) => <p key={line}>{line}</p>)}</ErrorNote>}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" size="sm" busy={reschedule.isPending}>Reschedule</Button>
        <Button variant="ghost" size="sm" disabled={reschedule.isPending} onClick={onDone}>Back</Button>
      </div>
    </form>
  );
}

function CancelForm({ appointment, onDone }: { appointment: Appointment; onDone: (result: CancelledVisit | null) => void }) {
  const { api } = useServices();
  const id = useId();
  const reasons = useQuery(cancellationReasonQueries.all(api));
  const cancel = useCancelVisit();
  const [reason, setReason] = useState<CancellationReasonCode | null>(null);
  const [note, setNote] = useState('');
  const [tellClient, setTellClient] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (reason === null) {
      setProblem(CHOOSE_REASON);
      return;
    }
    setProblem(null);
    cancel.mutate(
      { appointmentId: appointment.id, request: { reason, ...(note.trim() ? { note: note.trim() } : {}), tell_client: tellClient } },
      { onSuccess: (result) => onDone(result) },
    );
  };
  const errorLines = cancel.isError ? messagesOfError(cancel.error, BOOKING_ERRORS.cancel) : reasons.isError ? messagesOfError(reasons.error, BOOKING_ERRORS.reasons) : [];
  return (
    <form onSubmit={submit} noValidate aria-label="Cancel this visit" data-testid="cancel-visit" className="space-y-3 text-sm">
      <fieldset disabled={cancel.isPending} className="space-y-3">
        <fieldset>
          <legend className={labelClass}>Reason</legend>
          <div className="mt-1 grid gap-1 sm:grid-cols-2">
            {(reasons.data ?? []).map((option) => (
              <label key={option.code} className="flex items-center gap-2">
                <input type="radio" name={`${id}-reason`} checked={reason === option.code} onChange={() => { setReason(option.code); setProblem(null); }} />
                {option.label}
              </label>
            ))}
          </div>
        </fieldset>
        <div>
          <label htmlFor={`${id}-note`} className={labelClass}>Note</label>
          <textarea id={`${id}-note`} rows={2} maxLength={500} value={note} onChange={(event) => setNote(event.target.value)} className={inputClass} />
        </div>
        <label className="flex items-center gap-2">
          <input type="checkbox" checked={tellClient} onChange={(event) => setTellClient(event.target.checked)} />
          Tell the client
        </label>
      </fieldset>
      {problem && <p role="alert" className="text-sm text-rose-700 dark:text-rose-300">{problem}</p>}
      {errorLines.length > 0 && <ErrorNote>{errorLines.map((line) => <p key={line}>{line}</p>)}</ErrorNote>}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" danger size="sm" busy={cancel.isPending}>Cancel visit</Button>
        <Button variant="ghost" size="sm" disabled={cancel.isPending} onClick={() => onDone(null)}>Back</Button>
      </div>
    </form>
  );
}
