// /settings/appointment-types: every user sees the types with duration, colour and their rules of home care (how far a
// visit may arrive from its booked time, the business's unless the type has its own; the least gap after the client's
// last visit of the type that day; whether its visits need two practitioners at once); an ADMIN can edit them.
import { useId, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useAuthSelector, useServices } from '../../../app/ServicesContext';
import { selectUser } from '../../../machines/auth';
import { messageOfError } from '../../../api/errors';
import type { RoutePageProps } from '../../../router/routeTypes';
import { Card, PageHeader } from '../../../ui/PageHeader';
import { PageSpinner } from '../../../ui/PageSpinner';
import { ErrorNote } from '../../../ui/forms';
import type { AppointmentType } from '../../../entities/appointments/api';
import { appointmentQueries, appointmentTypeQueries } from '../../../entities/appointments/queries';
import { unwrap } from '../../../api/errors';
import { optimizationSettingsQueries } from '../../../entities/optimization-settings/queries';

const APPOINTMENT_TYPE_UPDATED = 'The appointment type has been updated.';

// On a phone each row is a card: the name across the width, then colour, duration, the rules and Save beneath it (the
// rules with their names, as the column headings are hidden).
const ROW = 'max-sm:flex max-sm:flex-wrap max-sm:items-center max-sm:gap-x-3 max-sm:gap-y-2 max-sm:px-4 max-sm:py-3';
const CELL = 'px-4 py-2 max-sm:p-0';
const NAME_CELL = `${CELL} max-sm:order-first max-sm:w-full`;
const RULE_CELL = `${CELL} max-sm:w-full`;
const TOLERANCE_HEADING = 'Tolerance';
const GAP_HEADING = 'Hours since the client’s last visit of this type';
const TWO_HEADING = 'Needs two practitioners';
const MOVE_HEADING = 'Price of a move';

const swatch = (color: string | null | undefined) => (color && color !== '' ? color : '#000000');

/** 240 → "4 h", 90 → "1 h 30 min". */
function hoursText(minutes: number): string {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return `${rest} min`;
  return rest ? `${hours} h ${rest} min` : `${hours} h`;
}

/** "Business default (30 min)", or the type's own "45 min". */
function toleranceText(own: number | null | undefined, business: number | undefined): string {
  if (own != null) return `${own} min`;
  return business === undefined ? 'Business default' : `Business default (${business} min)`;
}

/** A rule's name beside its value on a phone, where the table's headings are hidden. */
const PhoneLabel = ({ children }: { children: string }) => <span className="mb-1 block text-xs text-slate-500 sm:hidden dark:text-slate-400">{children}:</span>;

export default function AppointmentTypesPage({ route }: RoutePageProps) {
  const { api } = useServices();
  const role = useAuthSelector(selectUser)?.role;
  const isAdmin = role === 'ADMIN';
  const types = useQuery(appointmentTypeQueries.all(api));
  // The business's tolerance, which a type without its own keeps (practitioners may not read the settings).
  const settings = useQuery({ ...optimizationSettingsQueries.current(api), enabled: role === 'ADMIN' || role === 'REGULAR_USER' });
  const businessTolerance = settings.data?.tolerance_minutes;
  return (
    <>
      <PageHeader title={route.title}>
        {isAdmin ? 'Durations set how long each visit takes when schedules are optimised.' : 'Appointment types and how long each visit takes.'}{' '}
        Tolerance: how far a visit of the type may arrive from its booked time{isAdmin ? ' (empty: the business’s, in Optimisation settings)' : ''}. Hours
        since the client’s last visit of this type: the least gap before another visit of the same type that day (e.g. 4 between medication
        checks){isAdmin ? '; empty: none' : ''}. Needs two practitioners: each visit of the type is a two-carer visit, booked
        twice for the client at the same time with two practitioners, who arrive together. Price of a move: minutes of travel each minute a
        visit of the type moves from the client’s agreed time is worth{isAdmin ? ' (empty: the business’s, in Optimisation settings)' : ''}.
      </PageHeader>
      <Card className="p-0">
        {types.isPending && <PageSpinner label="Loading appointment types" />}
        {types.isError && (
          <div className="p-4">
            <ErrorNote>{messageOfError(types.error, 'An error has occurred. Could not load appointment types list.')}</ErrorNote>
          </div>
        )}
        {types.data && (
          // Between a phone’s cards and a wide screen the six columns may need more room than the page: they scroll here
          // (`relative`: the hidden hints inside stay inside the scroll box instead of widening the page).
          <div className="relative overflow-x-auto">
            <table aria-label="Appointment types" className="w-full divide-y divide-slate-200 text-sm dark:divide-slate-800">
              <thead className="max-sm:sr-only bg-slate-50 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase dark:bg-slate-800/50 dark:text-slate-300">
                <tr>
                  <th scope="col" className="px-4 py-2">Colour</th>
                  <th scope="col" className="px-4 py-2">Name</th>
                  <th scope="col" className="px-4 py-2">Duration</th>
                  <th scope="col" className="px-4 py-2">{TOLERANCE_HEADING}</th>
                  <th scope="col" className="px-4 py-2">{GAP_HEADING}</th>
                  <th scope="col" className="px-4 py-2">{TWO_HEADING}</th>
                  <th scope="col" className="px-4 py-2">{MOVE_HEADING}</th>
                  {isAdmin && <th scope="col" className="px-4 py-2"><span className="sr-only">Actions</span></th>}
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
                {types.data.map((type) =>
                  isAdmin ? (
                    <EditableTypeRow
                      key={`${type.id}-${type.name}-${type.duration}-${type.color}-${type.tolerance_minutes}-${type.same_type_gap_minutes}-${type.needs_two_practitioners}-${type.move_price}`}
                      type={type}
                      businessTolerance={businessTolerance}
                    />
                  ) : (
                    <TypeRow key={type.id} type={type} businessTolerance={businessTolerance} />
                  ),
                )}
                {types.data.length === 0 && (
                  <tr>
                    <td colSpan={8} className="px-4 py-10 text-center text-slate-500 dark:text-slate-400">No appointment types yet: they arrive with the first import.</td>
                  </tr>
                )}
              </tbody>
            </table>
          </div>
        )}
      </Card>
    </>
  );
}

function TypeRow({ type, businessTolerance }: { type: AppointmentType; businessTolerance: number | undefined }) {
  return (
    <tr data-testid="appointment-type-row" className={ROW}>
      <td className={CELL}><span className="inline-block size-4 rounded" style={{ backgroundColor: swatch(type.color) }} aria-label={`Colour ${swatch(type.color)}`} role="img" /></td>
      <td className={`${NAME_CELL} font-medium`}>{type.name}</td>
      <td className={CELL}>{type.duration} min</td>
      <td className={RULE_CELL} data-testid="type-tolerance"><PhoneLabel>{TOLERANCE_HEADING}</PhoneLabel>{toleranceText(type.tolerance_minutes, businessTolerance)}</td>
      <td className={RULE_CELL} data-testid="type-gap">
        <PhoneLabel>{GAP_HEADING}</PhoneLabel>
        {type.same_type_gap_minutes != null ? hoursText(type.same_type_gap_minutes) : 'None'}
      </td>
      <td className={RULE_CELL} data-testid="type-two-practitioners"><PhoneLabel>{TWO_HEADING}</PhoneLabel>{type.needs_two_practitioners ? 'Yes' : 'No'}</td>
      <td className={RULE_CELL} data-testid="type-move-price"><PhoneLabel>{MOVE_HEADING}</PhoneLabel>{type.move_price != null ? `${type.move_price} a minute` : 'Business default'}</td>
    </tr>
  );
}

/** Empty: null (the business's tolerance; no same-type gap). */
const wholeOrEmpty = (text: string) => (text.trim() === '' ? null : Number(text));
const gapMinutesOf = (hours: string) => (hours.trim() === '' ? null : Math.round(Number(hours) * 60));
/** 240 → "4", 100 → "1.67" (and back to 100). */
const hoursOf = (minutes: number | null | undefined) => (minutes == null ? '' : String(Math.round((minutes / 60) * 100) / 100));

function EditableTypeRow({ type, businessTolerance }: { type: AppointmentType; businessTolerance: number | undefined }) {
  const { api, flash } = useServices();
  const queryClient = useQueryClient();
  const [name, setName] = useState(type.name);
  const [duration, setDuration] = useState(String(type.duration));
  const [color, setColor] = useState(swatch(type.color));
  const ids = useId();
  const [tolerance, setTolerance] = useState(type.tolerance_minutes == null ? '' : String(type.tolerance_minutes));
  const [gapHours, setGapHours] = useState(hoursOf(type.same_type_gap_minutes));
  const [needsTwo, setNeedsTwo] = useState(type.needs_two_practitioners === true);
  const [movePrice, setMovePrice] = useState(type.move_price == null ? '' : String(type.move_price));
  const [problem, setProblem] = useState<string | null>(null);
  const changes = {
    ...(name.trim() !== type.name ? { name: name.trim() } : {}),
    ...(Number(duration) !== type.duration ? { duration: Number(duration) } : {}),
    ...(color.toLowerCase() !== swatch(type.color).toLowerCase() ? { color } : {}),
    ...(wholeOrEmpty(tolerance) !== (type.tolerance_minutes ?? null) ? { tolerance_minutes: wholeOrEmpty(tolerance) } : {}),
    ...(gapMinutesOf(gapHours) !== (type.same_type_gap_minutes ?? null) ? { same_type_gap_minutes: gapMinutesOf(gapHours) } : {}),
    ...(needsTwo !== (type.needs_two_practitioners === true) ? { needs_two_practitioners: needsTwo } : {}),
    ...(wholeOrEmpty(movePrice) !== (type.move_price ?? null) ? { move_price: wholeOrEmpty(movePrice) } : {}),
  };
  const save = useMutation({
    mutationFn: async () => {
      const result = await api.PUT('/appointment_types/{id}', { params: { path: { id: type.id } }, body: changes });
      return unwrap(result, 'An error has occurred. Could not update the appointment type.').appointment_type;
    },
    onSuccess: () => {
      flash.send({ type: 'APPEND', text: APPOINTMENT_TYPE_UPDATED });
      void queryClient.invalidateQueries({ queryKey: appointmentTypeQueries.all(api).queryKey });
      // The lists carry the types, and a type's rules change what counts as a problem on a day.
      void queryClient.invalidateQueries({ queryKey: appointmentQueries.lists() });
    },
    onError: (error) => setProblem(messageOfError(error, 'An error has occurred. Could not update the appointment type.')),
  });
  const submit = () => {
    setProblem(null);
    const minutes = Number(duration);
    if (name.trim() === '') return setProblem('An appointment type needs a name.');
    if (!Number.isInteger(minutes) || minutes < 5 || minutes > 1440) return setProblem('Duration must be a whole number of minutes between 5 and 1440.');
    const ownTolerance = wholeOrEmpty(tolerance);
    if (ownTolerance !== null && (!/^\d+$/.test(tolerance.trim()) || ownTolerance > 720)) {
      return setProblem('Tolerance must be empty (the business’s) or a whole number of minutes from 0 to 720.');
    }
    const gapMinutes = gapMinutesOf(gapHours);
    if (gapMinutes !== null && (!Number.isFinite(gapMinutes) || gapMinutes < 0 || gapMinutes > 1440)) {
      return setProblem('Hours since the client’s last visit of this type must be empty (none) or a number of hours from 0 to 24.');
    }
    const ownPrice = wholeOrEmpty(movePrice);
    if (ownPrice !== null && (!Number.isFinite(ownPrice) || ownPrice < 0 || ownPrice > 100)) {
      return setProblem('Price of a move must be empty (the business’s) or a number from 0 to 100.');
    }
    if (Object.keys(changes).length > 0) save.mutate();
  };
  const inputClass = 'rounded-md border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-700 dark:bg-slate-900';
  return (
    <tr data-testid="appointment-type-row" className={ROW}>
      <td className={CELL}><input type="color" value={color} onChange={(event) => setColor(event.target.value)} aria-label={`Colour of ${type.name}`} className="h-7 w-10 rounded border border-slate-300 p-0.5" /></td>
      <td className={NAME_CELL}><input value={name} onChange={(event) => setName(event.target.value)} aria-label={`Name of ${type.name}`} className={`w-full sm:min-w-44 ${inputClass}`} /></td>
      <td className={`${CELL} whitespace-nowrap`}>
        <input type="number" min={5} max={1440} step={5} value={duration} onChange={(event) => setDuration(event.target.value)} aria-label={`Duration of ${type.name} in minutes`} className={`w-20 ${inputClass}`} /> min
      </td>
      <td className={`${RULE_CELL} sm:whitespace-nowrap`}>
        <PhoneLabel>{TOLERANCE_HEADING}</PhoneLabel>
        <input
          type="number"
          min={0}
          max={720}
          value={tolerance}
          placeholder={businessTolerance === undefined ? 'Default' : `${businessTolerance}`}
          onChange={(event) => setTolerance(event.target.value)}
          aria-label={`Tolerance of ${type.name} in minutes`}
          aria-describedby={`${ids}-tolerance`}
          className={`w-20 ${inputClass}`}
        />{' '}
        min
        <span id={`${ids}-tolerance`} className="sr-only">Empty: the business default{businessTolerance === undefined ? '' : ` (${businessTolerance} min)`}.</span>
        {tolerance.trim() === '' && <span aria-hidden="true" className="ml-1 text-xs text-slate-500 dark:text-slate-400">(business default)</span>}
      </td>
      <td className={`${RULE_CELL} sm:whitespace-nowrap`}>
        <PhoneLabel>{GAP_HEADING}</PhoneLabel>
        <input
          type="number"
          min={0}
          max={24}
          step="any"
          value={gapHours}
          placeholder="None"
          onChange={(event) => setGapHours(event.target.value)}
          aria-label={`Hours since the client’s last visit of ${type.name}`}
          aria-describedby={`${ids}-gap`}
          className={`w-20 ${inputClass}`}
        />{' '}
        h<span id={`${ids}-gap`} className="sr-only">Empty: none beyond the gap between any two of the client’s visits.</span>
      </td>
      <td className={RULE_CELL}>
        <label className="inline-flex items-center gap-2">
          <input
            type="checkbox"
            checked={needsTwo}
            onChange={(event) => setNeedsTwo(event.target.checked)}
            aria-label={`${TWO_HEADING} for ${type.name}`}
            className="size-4"
          />
          <span aria-hidden="true" className="sm:hidden">{TWO_HEADING}</span>
        </label>
      </td>
      <td className={`${RULE_CELL} sm:whitespace-nowrap`}>
        <PhoneLabel>{MOVE_HEADING}</PhoneLabel>
        <input
          type="number"
          min={0}
          max={100}
          step="any"
          value={movePrice}
          placeholder="Default"
          onChange={(event) => setMovePrice(event.target.value)}
          aria-label={`Price of moving a visit of ${type.name} from its agreed time`}
          className={`w-20 ${inputClass}`}
        />
      </td>
      <td className={CELL}>
        <button type="button" onClick={submit} disabled={Object.keys(changes).length === 0 || save.isPending} className="rounded-md border border-slate-300 px-3 py-1 text-sm font-medium disabled:opacity-40 dark:border-slate-600">
          Save
        </button>
        {problem && <div className="mt-1 max-w-56"><ErrorNote>{problem}</ErrorNote></div>}
      </td>
    </tr>
  );
}
