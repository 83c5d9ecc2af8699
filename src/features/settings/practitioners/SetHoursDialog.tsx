// "Set hours": the same week of working hours for several practitioners at once (PUT /practitioners/working_hours,
// all of them or none). It opens on the hours they share, else Monday to Friday 09:00–17:00.
import { useId, useState, type FormEvent } from 'react';
import { fieldProblemsOf } from '../../../api/errors';
import { Button } from '../../../ui/Button';
import { ErrorNote, focusFirstProblem } from '../../../ui/forms';
import { ModalFrame } from '../../../ui/ModalFrame';
import { WORKING_HOURS_SAVE_ERROR, type PractitionerSettings, type WorkingHours } from './api';
import { useSetWorkingHours } from './mutations';
import { WeekHoursEditor } from './WeekHoursEditor';
import { DEFAULT_DAY, draftOfHours, draftProblems, hoursOfDraft } from './workingHours';

const FORM_ID = 'set-hours-form';

const listed = (names: readonly string[]) => (names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`);
const WEEKDAYS_ONLY: WorkingHours = [DEFAULT_DAY, DEFAULT_DAY, DEFAULT_DAY, DEFAULT_DAY, DEFAULT_DAY, null, null];

function sharedHours(practitioners: readonly PractitionerSettings[]): WorkingHours {
  const [first, ...rest] = practitioners.map((practitioner) => JSON.stringify(practitioner.working_hours));
  return first !== undefined && rest.every((hours) => hours === first) ? (JSON.parse(first) as WorkingHours) : WEEKDAYS_ONLY;
}

export function SetHoursDialog({ practitioners, onClose, onSaved }: {
  practitioners: readonly PractitionerSettings[];
  onClose: () => void;
  onSaved: () => void;
}) {
  const ids = useId();
  const [days, setDays] = useState(() => draftOfHours(sharedHours(practitioners)));
  const [checked, setChecked] = useState(false);
  const save = useSetWorkingHours();
  const dayOf = (path: string) => /^working_hours\[(\d)\]/.exec(path)?.[1];
  const theirs = fieldProblemsOf(save.error, (path) => dayOf(path) !== undefined, WORKING_HOURS_SAVE_ERROR);
  const problems = new Map(theirs.fields.map((problem) => [Number(dayOf(problem.field)), problem.text]));
  if (checked) for (const [day, text] of draftProblems(days)) problems.set(day, text);
  const names = practitioners.map((practitioner) => practitioner.full_name);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    setChecked(true);
    if (draftProblems(days).size > 0) return focusFirstProblem(form);
    save.mutate(
      { ids: practitioners.map((practitioner) => practitioner.id), workingHours: hoursOfDraft(days) },
      { onSuccess: onSaved, onError: () => focusFirstProblem(form) },
    );
  };

  return (
    <ModalFrame
      title={practitioners.length === 1 ? `Set hours for ${names[0]}` : `Set hours for ${practitioners.length} practitioners`}
      onClose={onClose}
      testId="set-hours-dialog"
      footer={
        <Button type="submit" form={FORM_ID} size="sm" busy={save.isPending}>
          Set hours
        </Button>
      }
    >
      <form id={FORM_ID} aria-label="Working hours for the selected practitioners" onSubmit={submit} noValidate className="space-y-3">
        <p className="text-sm text-slate-600 dark:text-slate-300">
          These hours replace the working hours of {listed(names)}, each in their own time zone. Their places, breaks and limits stay as they are.
        </p>
        <WeekHoursEditor days={days} onChange={setDays} problems={problems} idPrefix={ids} />
        {theirs.other.length > 0 && (
          <ErrorNote>
            {theirs.other.map((line) => <span key={line} className="block">{line}</span>)}
          </ErrorNote>
        )}
      </form>
    </ModalFrame>
  );
}
