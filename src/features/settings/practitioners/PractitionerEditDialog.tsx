// The edit dialog of one practitioner's working data: where the day starts and ends (home, a business location or a
// custom location), the home address placed by Find, the hours of each weekday, the break, the appointment types they
// deliver, the daily limits, the time zone and the colour. Only what changed is sent; problems show under their field,
// ours before saving and the server's after; closing with unsaved changes asks first. Below, their leave (LeaveSection).
import { useId, useMemo, useState, type Dispatch, type FormEvent, type ReactNode, type SetStateAction } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useServices } from '../../../app/ServicesContext';
import { GEOCODE_ERROR, geocodeAddress } from '../../../api/geocode';
import { messageOfError } from '../../../api/errors';
import { coordinatesInWords, farAwayWarning, isPlaced, precisionText } from '../../../lib/geoPrecision';
import { ConfirmDialog } from '../../../ui/ConfirmDialog';
import { ErrorNote, FieldMessage, focusFirstProblem, useFieldProblems } from '../../../ui/forms';
import { ModalFrame, Section } from '../../../ui/ModalFrame';
import { TimeField } from '../../../ui/TimeField';
import { MultiSelect } from '../../../ui/MultiSelect';
import { Button } from '../../../ui/Button';
import { PageSpinner } from '../../../ui/PageSpinner';
import { PointPrecision } from '../../../ui/PointPrecision';
import { TimeZoneSelect } from '../../../ui/TimeZoneSelect';
import type { BusinessLocation } from '../../../entities/appointments/api';
import { appointmentTypeQueries, businessLocationQueries } from '../../../entities/appointments/queries';
import type { CustomLocation } from '../custom-locations/api';
import { customLocationQueries } from '../custom-locations/queries';
import { useKnownPlaces } from '../knownPlaces';
import { PRACTITIONER_SAVE_ERROR, type PractitionerSettings } from '../../../entities/practitioners/api';
import { LeaveSection } from './LeaveSection';
import { useUpdatePractitioner } from './mutations';
import {
  NOT_FOUND_HINT, changesOf, draftOf, draftProblemsOf, draftValues, formFieldOf, homePointOf, type FormField, type PlaceValue, type PractitionerDraft,
} from './practitionerForm';
import { WeekHoursEditor, timeInputClass } from './WeekHoursEditor';

const FORM_ID = 'practitioner-edit-form';
const inputClass =
  'mt-1 block w-full rounded-md border bg-white px-3 py-2 text-sm shadow-sm focus:border-sky-500 focus:ring-2 focus:ring-sky-500/30 focus:outline-none dark:bg-slate-900 border-slate-300 dark:border-slate-700 aria-invalid:border-rose-500';
const labelClass = 'block text-sm font-medium text-slate-700 dark:text-slate-200';
const hintClass = 'mt-1 text-xs text-slate-500 dark:text-slate-400';

export function PractitionerEditDialog({ practitioner, onClose }: { practitioner: PractitionerSettings; onClose: () => void }) {
  const { api } = useServices();
  const businessLocations = useQuery(businessLocationQueries.all(api));
  const customLocations = useQuery(customLocationQueries.all(api));
  const types = useQuery(appointmentTypeQueries.all(api));
  const saved = useMemo(() => draftOf(practitioner), [practitioner]);
  const [draft, setDraft] = useState(saved);
  const [asking, setAsking] = useState(false);
  const save = useUpdatePractitioner();
  const unsaved = Object.keys(changesOf(draft, saved)).length > 0 || draft.homeAddress.trim() !== saved.homeAddress.trim();
  const requestClose = () => (unsaved ? setAsking(true) : onClose());
  const loading = businessLocations.isPending || customLocations.isPending;

  return (
    <ModalFrame
      title={`Edit ${practitioner.full_name}`}
      onClose={requestClose}
      width="large"
      testId="practitioner-edit-dialog"
      footer={
        <Button type="submit" form={FORM_ID} size="sm" disabled={loading} busy={save.isPending}>
          Save
        </Button>
      }
    >
      {loading ? (
        <PageSpinner label="Loading places" />
      ) : (
        <PractitionerForm
          practitioner={practitioner}
          saved={saved}
          draft={draft}
          setDraft={setDraft}
          businessLocations={businessLocations.data ?? []}
          customLocations={customLocations.data ?? []}
          listsFailed={businessLocations.isError || customLocations.isError}
          types={{ options: types.data ?? [], loading: types.isPending, failed: types.isError }}
          save={save}
          onSaved={onClose}
        />
      )}
      {/* Outside the working data's form: each leave is its own form, saved at once. */}
      {!loading && <div className="mt-6"><LeaveSection practitioner={practitioner} /></div>}
      <ConfirmDialog
        open={asking}
        title="Discard unsaved changes?"
        message={`Your changes to ${practitioner.full_name} have not been saved. Closing discards them.`}
        confirmLabel="Discard changes"
        cancelLabel="Keep editing"
        danger
        onCancel={() => setAsking(false)}
        onConfirm={() => {
          setAsking(false);
          onClose();
        }}
      />
    </ModalFrame>
  );
}

function PractitionerForm({ practitioner, saved, draft, setDraft, businessLocations, customLocations, listsFailed, types, save, onSaved }: {
  practitioner: PractitionerSettings;
  saved: PractitionerDraft;
  draft: PractitionerDraft;
  setDraft: Dispatch<SetStateAction<PractitionerDraft>>;
  businessLocations: BusinessLocation[];
  customLocations: CustomLocation[];
  listsFailed: boolean;
  types: { options: { id: number; name: string }[]; loading: boolean; failed: boolean };
  save: ReturnType<typeof useUpdatePractitioner>;
  onSaved: () => void;
}) {
  const { api } = useServices();
  const ids = useId();
  // The address on one line: the geocoders read the suburb, state and postcode after its last comma.
  const find = useMutation({ mutationFn: (address: string) => geocodeAddress(api, { address_1: address }) });
  const [checked, setChecked] = useState(false);
  const change = (patch: Partial<PractitionerDraft>) => setDraft((current) => ({ ...current, ...patch }));

  // Our problems once Save was pressed (they follow the edits from then on); the server's for what it refused.
  const ours = checked ? draftProblemsOf(draft, saved) : new Map<FormField, string>();
  const { problemOf, fieldProps, problem, other } = useFieldProblems({
    error: save.error, fieldOf: formFieldOf, fallback: PRACTITIONER_SAVE_ERROR, ours, values: draftValues(draft),
  });
  const described = (field: FormField, hint?: string) => fieldProps(field, hint)['aria-describedby'];
  const dayProblems = new Map<number, string>();
  for (let day = 0; day < 7; day += 1) {
    const text = problemOf(`day${day}`);
    if (text) dayProblems.set(day, text);
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    setChecked(true);
    if (draftProblemsOf(draft, saved).size > 0) return focusFirstProblem(form);
    const changes = changesOf(draft, saved);
    if (Object.keys(changes).length === 0) return onSaved();
    save.mutate({ id: practitioner.id, changes }, { onSuccess: onSaved, onError: () => focusFirstProblem(form) });
  };

  const runFind = () => {
    const address = draft.homeAddress.trim();
    if (address === '') return;
    // The answer may come after more edits: it only adds what was found for this address.
    find.mutate(address, { onSuccess: (result) => setDraft((current) => ({ ...current, located: { ...result, address } })) });
  };

  const located = homePointOf(draft) !== undefined ? draft.located : null;
  const knownPlaces = useKnownPlaces();
  const farAway = located && located.lat !== null && located.lng !== null ? farAwayWarning({ lat: located.lat, lng: located.lng }, knownPlaces) : null;
  const homeHint = `${ids}-home-hint`;

  return (
    <form id={FORM_ID} aria-label={`Working data of ${practitioner.full_name}`} onSubmit={submit} noValidate className="space-y-6">
      {practitioner.warnings.length > 0 && (
        <div className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-100">
          <p className="font-medium">{practitioner.routable ? 'Can be routed, with these limits:' : 'Cannot be routed yet:'}</p>
          <ul className="mt-1 list-disc pl-5">
            {practitioner.warnings.map((warning) => <li key={warning}>{warning}</li>)}
          </ul>
        </div>
      )}

      <Section title="Start and end of the day">
        {listsFailed && <ErrorNote>Some locations could not be loaded; only those that could are offered.</ErrorNote>}
        <div className="grid gap-4 sm:grid-cols-2">
          <PlaceSelect
            label="Start place"
            value={draft.start}
            onChange={(start) => change({ start })}
            emptyLabel="Not chosen (cannot be routed)"
            businessLocations={businessLocations}
            customLocations={customLocations}
            describedBy={described('start')}
            invalid={Boolean(problemOf('start'))}
          >
            {problem('start')}
          </PlaceSelect>
          <PlaceSelect
            label="End place"
            value={draft.end}
            onChange={(end) => change({ end })}
            emptyLabel="Same as the start place"
            businessLocations={businessLocations}
            customLocations={customLocations}
            describedBy={described('end')}
            invalid={Boolean(problemOf('end'))}
          >
            {problem('end')}
          </PlaceSelect>
        </div>
        <div className="mt-4">
          <label htmlFor={`${ids}-home`} className={labelClass}>Home address</label>
          <div className="mt-1 flex flex-wrap gap-2">
            <input
              id={`${ids}-home`}
              value={draft.homeAddress}
              maxLength={500}
              onChange={(event) => change({ homeAddress: event.target.value })}
              onKeyDown={(event) => {
                if (event.key === 'Enter') {
                  event.preventDefault();
                  runFind();
                }
              }}
              placeholder="12 Example Street, Suburb QLD 4000"
              {...fieldProps('home', homeHint)}
              className={`${inputClass} mt-0 min-w-0 flex-1`}
            />
            <Button variant="secondary" onClick={runFind} disabled={draft.homeAddress.trim() === ''} busy={find.isPending}>
              Find
            </Button>
          </div>
          <p id={homeHint} className={hintClass} data-testid="home-placement">
            {located ? <PointPrecision precision={located.precision} besideWords className="mr-1.5" /> : draft.homeAddress.trim() === saved.homeAddress.trim()
              && saved.homePoint && practitioner.home && <PointPrecision precision={practitioner.home.precision} besideWords className="mr-1.5" />}
            {located ? (
              located.precision === 'none'
                ? `${precisionText('none', null)} ${NOT_FOUND_HINT}`
                : `${precisionText(located.precision, located.source)}${located.label ? ` Found: ${located.label}.` : ''}`
            ) : draft.homeAddress.trim() !== saved.homeAddress.trim() ? (
              'Press Find to place the address on the map.'
            ) : saved.homePoint && practitioner.home ? (
              `${precisionText(practitioner.home.precision, practitioner.home.source)} On the map at ${coordinatesInWords(saved.homePoint.lat, saved.homePoint.lng)}; used when the day starts or ends at home.`
            ) : (
              'Used when the day starts or ends at home: type the address and press Find to place it on the map.'
            )}
          </p>
          {farAway && <p role="status" data-testid="far-away" className="mt-1 text-sm text-amber-800 dark:text-amber-200">{farAway}</p>}
          {find.isError && <FieldMessage>{messageOfError(find.error, GEOCODE_ERROR)}</FieldMessage>}
          {problem('home')}
        </div>
      </Section>

      <Section title="Working hours">
        <p className={hintClass}>In the practitioner’s time zone ({draft.timeZone || 'not set'}). One range a day; untick a day they do not work.</p>
        <WeekHoursEditor days={draft.days} onChange={(days) => change({ days })} problems={dayProblems} idPrefix={ids} />
        {problem('hours')}
      </Section>

      <Section title="Break">
        <label className="flex items-center gap-2 text-sm font-medium">
          <input type="checkbox" checked={draft.hasBreak} onChange={(event) => change({ hasBreak: event.target.checked })} className="size-4 rounded border-slate-300" />
          Takes a break
        </label>
        {draft.hasBreak && (
          <div className="mt-3 flex flex-wrap items-end gap-4">
            <LabelledInput label="Starts no earlier than">
              <TimeField value={draft.breakEarliest} onChange={(breakEarliest) => change({ breakEarliest })} {...fieldProps('break')} className={timeInputClass} />
            </LabelledInput>
            <LabelledInput label="Starts no later than">
              <TimeField value={draft.breakLatest} onChange={(breakLatest) => change({ breakLatest })} {...fieldProps('break')} className={timeInputClass} />
            </LabelledInput>
            <LabelledInput label="Minutes">
              <input type="number" min={1} max={240} step={5} value={draft.breakMinutes} onChange={(event) => change({ breakMinutes: event.target.value })} {...fieldProps('break')} className={`${timeInputClass} w-24`} />
            </LabelledInput>
          </div>
        )}
        {problem('break')}
      </Section>

      <Section title="Qualifications">
        <Qualifications practitioner={practitioner} typeNames={types.options} />
        <MultiSelect
          label="Appointment types they deliver"
          placeholder={practitioner.pms_appointment_type_ids === null ? 'None chosen' : 'Everything Cliniko lists'}
          options={practitioner.pms_appointment_type_ids === null ? types.options : types.options.filter((type) => practitioner.pms_appointment_type_ids!.includes(type.id))}
          loading={types.loading}
          failed={types.failed}
          value={draft.skills}
          onChange={(skills) => change({ skills })}
          testId="skills"
        />
        <p className={hintClass}>
          Cliniko’s list wins: Rounds can only narrow it, never add a type Cliniko does not list for them (add it in Cliniko, then import). Leave
          empty for everything Cliniko lists. Without a list from Cliniko, the types chosen here are their qualifications; with neither, they are
          unknown and no visit that is not already theirs is given to them. Visits of other types are not given to them.
        </p>
        {problem('skills')}
      </Section>

      <Section title="Daily limits">
        <div className="grid gap-4 sm:grid-cols-2">
          <div>
            <label htmlFor={`${ids}-max-visits`} className={labelClass}>Max visits a day</label>
            <input id={`${ids}-max-visits`} type="number" min={1} max={100} inputMode="numeric" placeholder="No limit" value={draft.maxVisits} onChange={(event) => change({ maxVisits: event.target.value })} {...fieldProps('max_visits')} className={inputClass} />
            {problem('max_visits')}
          </div>
          <div>
            <label htmlFor={`${ids}-max-travel`} className={labelClass}>Max travel a day (minutes)</label>
            <input id={`${ids}-max-travel`} type="number" min={1} max={1440} inputMode="numeric" placeholder="No limit" value={draft.maxTravelMinutes} onChange={(event) => change({ maxTravelMinutes: event.target.value })} {...fieldProps('max_travel_minutes')} className={inputClass} />
            {problem('max_travel_minutes')}
          </div>
        </div>
      </Section>

      <div className="grid gap-6 sm:grid-cols-2">
        <Section title="Time zone">
          <TimeZoneSelect label="Time zone" value={draft.timeZone} onChange={(timeZone) => change({ timeZone })} problem={problemOf('time_zone')} />
        </Section>
        <Section title="Colour">
          <ColourChoice practitioner={practitioner} value={draft.color} onChange={(color) => change({ color })} />
          {problem('color')}
        </Section>
      </div>

      {other.length > 0 && (
        <ErrorNote>
          {other.map((line) => <span key={line} className="block">{line}</span>)}
        </ErrorNote>
      )}
      {checked && ours.size > 0 && <p className="text-sm text-rose-700 dark:text-rose-300">Correct the fields marked above, then save again.</p>}
    </form>
  );
}

function LabelledInput({ label, children }: { label: string; children: ReactNode }) {
  return (
    <label className="text-sm">
      <span className="block text-xs font-medium text-slate-600 dark:text-slate-300">{label}</span>
      <span className="mt-1 block">{children}</span>
    </label>
  );
}

function PlaceSelect({ label, value, onChange, emptyLabel, businessLocations, customLocations, describedBy, invalid, children }: {
  label: string;
  value: PlaceValue;
  onChange: (value: PlaceValue) => void;
  emptyLabel: string;
  businessLocations: BusinessLocation[];
  customLocations: CustomLocation[];
  describedBy?: string;
  invalid: boolean;
  children?: ReactNode;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const [kind, placeId] = value.split(':');
  const business = kind === 'business_location' ? businessLocations.find((location) => String(location.id) === placeId) : undefined;
  const custom = kind === 'custom_location' ? customLocations.find((location) => String(location.id) === placeId) : undefined;
  const noPosition = ' (not on the map)';
  return (
    <div>
      <label htmlFor={id} className={labelClass}>{label}</label>
      <select
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value as PlaceValue)}
        aria-invalid={invalid || undefined}
        aria-describedby={[describedBy, hintId].filter(Boolean).join(' ')}
        className={inputClass}
      >
        <option value="">{emptyLabel}</option>
        <option value="home">Home</option>
        {businessLocations.length > 0 && (
          <optgroup label="Business locations">
            {businessLocations.map((location) => (
              <option key={location.id} value={`business_location:${location.id}`}>
                {location.name}{isPlaced(location) ? '' : noPosition}
              </option>
            ))}
          </optgroup>
        )}
        {customLocations.length > 0 && (
          <optgroup label="Custom locations">
            {customLocations.map((location) => <option key={location.id} value={`custom_location:${location.id}`}>{location.name}</option>)}
          </optgroup>
        )}
      </select>
      <p id={hintId} className={hintClass}>
        {value === 'home' && 'The home address below.'}
        {business && (
          <>
            {business.address ?? 'No address'} ·{' '}
            {!isPlaced(business) ? 'Not on the map: the optimiser cannot start or end there.' : (
              <>
                <PointPrecision precision={business.geo_precision ?? 'address'} besideWords className="mr-1.5" />
                {precisionText(business.geo_precision ?? 'address', business.geo_source ?? null)}
              </>
            )}
          </>
        )}
        {custom && (
          <>
            {`${custom.address || 'No address'} · On the map at ${coordinatesInWords(custom.lat, custom.lng)} `}
            <PointPrecision precision={custom.geo_precision} source={custom.geo_source} />
          </>
        )}
      </p>
      {children}
    </div>
  );
}

function ColourChoice({ practitioner, value, onChange }: { practitioner: PractitionerSettings; value: string | null; onChange: (color: string | null) => void }) {
  const name = practitioner.full_name;
  const [lastChosen, setLastChosen] = useState(value ?? practitioner.color);
  const group = useId();
  return (
    <fieldset className="space-y-2 text-sm">
      <legend className="sr-only">Colour of {name}</legend>
      <label className="flex items-center gap-2">
        <input type="radio" name={group} checked={value === null} onChange={() => onChange(null)} className="size-4" />
        Automatic{!practitioner.color_chosen && <span className="inline-block size-4 rounded" style={{ backgroundColor: practitioner.color }} aria-hidden="true" />}
        <span className="text-xs text-slate-500 dark:text-slate-400">Rounds picks a distinct colour</span>
      </label>
      <label className="flex items-center gap-2">
        <input type="radio" name={group} checked={value !== null} onChange={() => onChange(lastChosen)} className="size-4" />
        Chosen
        <input
          type="color"
          value={value ?? lastChosen}
          onChange={(event) => {
            const color = event.target.value.toLowerCase();
            setLastChosen(color);
            onChange(color);
          }}
          aria-label={`Colour of ${name}`}
          className="h-7 w-10 rounded border border-slate-300 p-0.5 dark:border-slate-600"
        />
      </label>
    </fieldset>
  );
}

/** The practitioner's qualifications as saved: Cliniko's list, Rounds' narrowing and the effective set the planners use. */
function Qualifications({ practitioner, typeNames }: { practitioner: PractitionerSettings; typeNames: readonly { id: number; name: string }[] }) {
  const names = (ids: readonly number[]) => (ids.length === 0 ? 'none' : ids.map((id) => typeNames.find((type) => type.id === id)?.name ?? `type ${id}`).join(', '));
  const pms = practitioner.pms_appointment_type_ids;
  const narrowed = practitioner.skill_appointment_type_ids;
  const effective = practitioner.qualified_appointment_type_ids;
  return (
    <dl className="mb-3 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm" data-testid="qualifications">
      <dt className="font-medium text-slate-600 dark:text-slate-300">From Cliniko:</dt>
      <dd>{pms === null ? 'not read yet (an import reads them)' : names(pms)}</dd>
      <dt className="font-medium text-slate-600 dark:text-slate-300">Narrowed in Rounds:</dt>
      <dd>{narrowed === null ? 'not narrowed' : names(narrowed)}</dd>
      <dt className="font-medium text-slate-600 dark:text-slate-300">Effective:</dt>
      <dd className={effective === null ? 'font-medium text-rose-700 dark:text-rose-300' : undefined}>
        {effective === null ? 'unknown: no visit that is not already theirs is given to them' : names(effective)}
      </dd>
    </dl>
  );
}
