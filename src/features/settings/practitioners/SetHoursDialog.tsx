// "Set hours": working hours for several practitioners at once (PUT /practitioners/working_hours, all of them or
// none). Each weekday opens on the hours they share; a day they work differently shows as mixed, in words, and stays
// theirs unless someone chooses to change it for everyone. Only the days edited are sent: the others keep each
// practitioner's own hours. Routed visits the new hours leave outside are named once saved (see useSetWorkingHours).
import { useId, useState, type FormEvent } from 'react';
import { fieldProblemsOf } from '../../../api/errors';
import { Button } from '../../../ui/Button';
import { ErrorNote, focusFirstProblem } from '../../../ui/forms';
import { ModalFrame } from '../../../ui/ModalFrame';
import { WORKING_HOURS_SAVE_ERROR, type PractitionerSettings } from '../../../entities/practitioners/api';
import { useSetWorkingHours } from './mutations';
import { WeekHoursEditor } from './WeekHoursEditor';
import { DEFAULT_DAY, WEEKDAY_NAMES, draftProblems, hoursOfDraft, type DayDraft } from './workingHours';

const FORM_ID = 'set-hours-form';
export const NOTHING_CHANGED = 'Change at least one day’s hours, or close this window.';

const listed = (names: readonly string[]) => (names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`);
const dayText = (day: PractitionerSettings['working_hours'][number]) => (day ? `${day.start}–${day.end}` : 'off');

/** Each weekday's shared hours as a draft; a mixed day starts from the hours of the first practitioner who works it. */
function startingDays(practitioners: readonly PractitionerSettings[]): DayDraft[] {
  return WEEKDAY_NAMES.map((_, index) => {
    const worked = practitioners.map((practitioner) => practitioner.working_hours[index]).find((day) => day);
    return worked ? { works: true, start: worked.start, end: worked.end } : { works: false, ...DEFAULT_DAY };
  });
}

/** The weekdays the practitioners work differently, each in words ("08:00–12:00 for Pat Nurse; off for 9 practitioners"). */
function mixedDays(practitioners: readonly PractitionerSettings[]): Map<number, string> {
  const mixed = new Map<number, string>();
  WEEKDAY_NAMES.forEach((_, index) => {
    const byHours = new Map<string, string[]>();
    for (const practitioner of practitioners) {
      const text = dayText(practitioner.working_hours[index]);
      byHours.set(text, [...(byHours.get(text) ?? []), practitioner.full_name]);
    }
    if (byHours.size > 1) {
      mixed.set(index, [...byHours].map(([text, names]) => `${text} for ${names.length > 3 ? `${names.length} practitioners` : listed(names)}`).join('; '));
    }
  });
  return mixed;
}

export function SetHoursDialog({ practitioners, onClose, onSaved }: {
  practitioners: readonly PractitionerSettings[];
  onClose: () => void;
  onSaved: () => void;
}) {
  const ids = useId();
  const [days, setDays] = useState(() => startingDays(practitioners));
  const [mixed] = useState(() => mixedDays(practitioners));
  /** The weekdays edited (or chosen to change for everyone): the only ones sent. */
  const [edited, setEdited] = useState<ReadonlySet<number>>(new Set());
  const [checked, setChecked] = useState(false);
  const save = useSetWorkingHours();
  const dayOf = (path: string) => /^working_hours\[(\d)\]/.exec(path)?.[1];
  const theirs = fieldProblemsOf(save.error, (path) => dayOf(path) !== undefined, WORKING_HOURS_SAVE_ERROR);
  const problems = new Map(theirs.fields.map((problem) => [Number(dayOf(problem.field)), problem.text]));
  const editedDays = days.map((day, index) => (edited.has(index) ? day : { ...day, works: false }));
  if (checked) for (const [day, text] of draftProblems(editedDays)) problems.set(day, text);
  const names = practitioners.map((practitioner) => practitioner.full_name);
  const stillMixed = new Map([...mixed].filter(([index]) => !edited.has(index)));

  const change = (next: DayDraft[]) => {
    const changed = next.flatMap((day, index) => (JSON.stringify(day) !== JSON.stringify(days[index]) ? [index] : []));
    setEdited((now) => new Set([...now, ...changed]));
    setDays(next);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    setChecked(true);
    if (edited.size === 0 || draftProblems(editedDays).size > 0) return focusFirstProblem(form);
    save.mutate(
      { ids: practitioners.map((practitioner) => practitioner.id), workingHours: hoursOfDraft(editedDays), days: [...edited].sort() },
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
          The days you change get these hours for {listed(names)}, each in their own time zone; the days you leave keep everyone’s own hours.
          Their places, breaks and limits stay as they are.
        </p>
        <WeekHoursEditor
          days={days} onChange={change} problems={problems} idPrefix={ids}
          mixed={stillMixed} onChangeMixed={(index) => setEdited((now) => new Set([...now, index]))}
        />
        {checked && edited.size === 0 && <ErrorNote>{NOTHING_CHANGED}</ErrorNote>}
        {theirs.other.length > 0 && (
          <ErrorNote>
            {theirs.other.map((line) => <span key={line} className="block">{line}</span>)}
          </ErrorNote>
        )}
      </form>
    </ModalFrame>
  );
}
