// On today's schedule, under a practitioner's name (for those who plan routes): "Unavailable from now" when they call
// in sick or their car breaks down, or "On leave from 11:00 (Sick)" once they are. It records leave from the time given (default now) to the end of the day, so their
// visits after it are flagged, then opens Optimise on today with Reassign to give those visits to the others; the
// proposal names the clients whose arrival moves, and Apply can tell them.
import { useId, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Temporal } from 'temporal-polyfill';
import { useServices } from '../../app/ServicesContext';
import { leaveQueries } from '../../entities/practitioners/queries';
import { messageOfError } from '../../api/errors';
import { Button } from '../../ui/Button';
import { ErrorNote } from '../../ui/forms';
import { ModalFrame } from '../../ui/ModalFrame';
import { TextLink } from '../../ui/TextLink';
import { TimeField } from '../../ui/TimeField';
import { useMarkUnavailableToday } from './mutations';
import { OptimiseDialog } from './optimise/OptimiseDialog';

const REASONS = ['Sick', 'Car broke down', 'Family emergency', 'Other'] as const;
const fieldClass = 'mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm dark:border-slate-700 dark:bg-slate-900';
const labelClass = 'block text-sm font-medium text-slate-700 dark:text-slate-200';

const clockNow = (timeZone: string) => Temporal.Now.zonedDateTimeISO(timeZone).toPlainTime().toString({ smallestUnit: 'minute' });

export function UnavailableFromNow({ practitionerId, practitionerName, day, timeZone }: {
  practitionerId: number;
  practitionerName: string;
  /** Today (yyyy-MM-dd in the business's zone): the day Optimise opens on. */
  day: string;
  timeZone: string;
}) {
  const { api } = useServices();
  const [step, setStep] = useState<'closed' | 'asking' | 'replanning'>('closed');
  const leave = useQuery(leaveQueries.ofDay(api, day));
  const now = Date.now();
  const away = leave.data?.find((entry) => entry.practitioner_id === practitionerId && Date.parse(entry.ends_at) > now && Date.parse(entry.starts_at) <= now);
  return (
    <>
      {away ? (
        <span data-testid="lane-away" className="block text-xs font-medium text-violet-700 dark:text-violet-300">
          On leave {away.start_time ? `from ${away.start_time}` : 'today'}{away.reason ? ` (${away.reason})` : ''}
        </span>
      ) : (
        <TextLink onClick={() => setStep('asking')} aria-label={`Mark ${practitionerName} unavailable from now`} className="block text-xs font-normal">
          Unavailable from now
        </TextLink>
      )}
      {step === 'asking' && (
        <UnavailableDialog
          practitionerId={practitionerId}
          practitionerName={practitionerName}
          timeZone={timeZone}
          onClose={() => setStep('closed')}
          onMarked={() => setStep('replanning')}
        />
      )}
      {step === 'replanning' && <OptimiseDialog initialDay={day} initialMode="reassign" onClose={() => setStep('closed')} />}
    </>
  );
}

function UnavailableDialog({ practitionerId, practitionerName, timeZone, onClose, onMarked }: {
  practitionerId: number;
  practitionerName: string;
  timeZone: string;
  onClose: () => void;
  onMarked: () => void;
}) {
  const ids = useId();
  const [from, setFrom] = useState(() => clockNow(timeZone));
  const [reason, setReason] = useState<(typeof REASONS)[number]>('Sick');
  const [other, setOther] = useState('');
  const mark = useMarkUnavailableToday();
  const fromProblem = /^([01]\d|2[0-3]):[0-5]\d$/.test(from) ? null : 'Enter the time they stop, such as 11:00.';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (fromProblem) return;
    const words = reason === 'Other' ? other.trim() || 'Other' : reason;
    mark.mutate({ practitioner_id: practitionerId, from_time: from, reason: words, practitionerName }, { onSuccess: onMarked });
  };
  // ModalFrame puts Close after it (a Cancel beside it would be the same button twice).
  const footer = (
    <Button type="submit" form={`${ids}-form`} size="sm" busy={mark.isPending}>
      {mark.isPending ? 'Saving…' : 'Mark unavailable and re-plan'}
    </Button>
  );
  return (
    <ModalFrame title={`${practitionerName} is unavailable`} onClose={onClose} footer={footer} testId="unavailable-dialog">
      <form id={`${ids}-form`} onSubmit={submit} noValidate className="space-y-4">
        <p className="text-sm text-slate-600 dark:text-slate-300">
          Their visits from this time to the end of today are marked as booked on leave. Optimise then opens on today with
          Reassign, so their visits go to the others; visits done or under way stay as they are.
        </p>
        {mark.isError && <ErrorNote>{messageOfError(mark.error, 'An error has occurred. Could not save the leave.')}</ErrorNote>}
        <div>
          <label htmlFor={`${ids}-from`} className={labelClass}>Unavailable from</label>
          <TimeField id={`${ids}-from`} required value={from} onChange={setFrom} className={fieldClass}
            aria-invalid={fromProblem !== null} aria-describedby={fromProblem ? `${ids}-from-problem` : undefined} />
          {fromProblem && <p id={`${ids}-from-problem`} className="mt-1 text-xs text-rose-700 dark:text-rose-400">{fromProblem}</p>}
        </div>
        <div>
          <label htmlFor={`${ids}-reason`} className={labelClass}>Reason</label>
          <select id={`${ids}-reason`} value={reason} onChange={(event) => setReason(event.target.value as (typeof REASONS)[number])} className={fieldClass}>
            {REASONS.map((option) => <option key={option} value={option}>{option}</option>)}
          </select>
        </div>
        {reason === 'Other' && (
          <div>
            <label htmlFor={`${ids}-other`} className={labelClass}>What happened</label>
            <input id={`${ids}-other`} type="text" maxLength={200} value={other} onChange={(event) => setOther(event.target.value)} className={fieldClass} />
          </div>
        )}
      </form>
    </ModalFrame>
  );
}
