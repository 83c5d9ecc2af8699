// /search: Nearby search. From a client (type-ahead on the clients list) or a typed address (placed by the routing
// geocoder), the clients within the radius and which practitioner could take a new visit there on a day — each
// candidate's cheapest place for it in their day as it is (the optimiser's insertion), cheapest first — with the
// point, the radius and the candidates' days on the map. The origin, radius, date, length and type are in the address.
import { useMemo, useState } from 'react';
import { Combobox, ComboboxInput, ComboboxOption, ComboboxOptions, Field, Label } from '@headlessui/react';
import { useQuery } from '@tanstack/react-query';
import { useAuthSelector, useServices } from '../../app/ServicesContext';
import { openClientModal } from '../../app/modalStore';
import { selectUser } from '../../machines/auth';
import { formatCalendarDate, formatTime, todayIn, toRequestDate } from '../../lib/dates';
import { urlParam, useUrlState } from '../../lib/urlState';
import type { RoutePageProps } from '../../router/routeTypes';
import { Card, PageHeader } from '../../ui/PageHeader';
import { ErrorNote } from '../../ui/forms';
import { TextLink } from '../../ui/TextLink';
import { SingleDatePicker } from '../../ui/DateRangePicker';
import { MapView } from '../../ui/map/MapView';
import type { LatLng, MapPin, MapRoute } from '../../lib/map/mapTypes';
import { appointmentTypeQueries } from '../../entities/appointments/queries';
import { clientQueries } from '../../entities/clients/queries';
import { useDebouncedValue } from '../../ui/useDebouncedValue';
import type { NearbyPractitioner, NearbyQuery, NearbySearch } from './api';
import { nearbyQueries } from './queries';
import { newVisitHref } from '../../entities/appointments/newVisitLink';

const TYPE_AHEAD_MS = 250;
const RADIUS_CHOICES = [2, 5, 10, 20, 50] as const;
const fieldClass = 'mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm dark:border-slate-700 dark:bg-slate-900';

const km = (metres: number) => `${(metres / 1000).toFixed(1)} km`;
const minutes = (seconds: number) => `${Math.round(seconds / 60)} min`;
/** The searched radius as chosen: whole kilometres ("20 km"). */
const radiusKm = (metres: number) => `${Math.round(metres / 100) / 10} km`;
const plural = (count: number, word: string) => `${count} ${count === 1 ? word : `${word}s`}`;

/** The radius drawn as a closed line of 72 points (the map draws routes' paths, not circles). */
export function circlePath(center: LatLng, metres: number): LatLng[] {
  const dLat = (metres / 6_371_008.8) * (180 / Math.PI);
  const dLng = dLat / Math.cos((center.lat * Math.PI) / 180);
  return Array.from({ length: 73 }, (_, i) => {
    const angle = (i / 72) * 2 * Math.PI;
    return { lat: center.lat + dLat * Math.sin(angle), lng: center.lng + dLng * Math.cos(angle) };
  });
}

export default function SearchPage({ route }: RoutePageProps) {
  const { api } = useServices();
  const timeZone = useAuthSelector(selectUser)?.business_account.time_zone ?? 'Australia/Brisbane';
  const today = useMemo(() => todayIn(timeZone), [timeZone]);
  const tomorrow = useMemo(() => today.add({ days: 1 }), [today]);
  const schema = useMemo(() => ({
    // Not 'client': that key opens the client modal (src/app/modalUrl.ts).
    near_client: urlParam.integer(null),
    address: urlParam.text(),
    radius: urlParam.integer(20, { min: 1, max: 100 }),
    date: urlParam.date(tomorrow),
    duration: urlParam.integer(null, { min: 5, max: 720 }),
    type: urlParam.integer(null),
  }), [tomorrow]);
  const [state, setState] = useUrlState(schema);

  const place = useQuery({ ...nearbyQueries.place(state.address, api), enabled: state.near_client === null && state.address !== '' });
  const point = place.data && place.data.lat !== null && place.data.lng !== null ? { lat: place.data.lat, lng: place.data.lng } : null;
  const common = {
    radius_km: state.radius, date: toRequestDate(state.date),
    ...(state.duration === null ? {} : { duration_minutes: state.duration }), ...(state.type === null ? {} : { appointment_type_id: state.type }),
  };
  const query: NearbyQuery | null = state.near_client !== null ? { client_id: state.near_client, ...common } : point ? { ...point, ...common } : null;
  const search = useQuery({ ...nearbyQueries.search(api, query ?? {}), enabled: query !== null });
  const types = useQuery(appointmentTypeQueries.all(api));

  return (
    <div className="space-y-4">
      <PageHeader title={route.title} />
      <p className="text-sm text-slate-600 dark:text-slate-400">
        Who could take a new visit near a client or an address: each practitioner’s cheapest place for it in their day as it is, without moving their other visits.
      </p>
      <Card>
        {/* Fields wrap onto another line rather than squeeze: the day and its shortcuts stay on one line. */}
        <div className="flex flex-wrap items-start gap-3">
          <div className="min-w-64 flex-[2_1_18rem]">
          <OriginField
            label={state.near_client !== null ? (search.data?.origin.label ?? 'Client') : state.address}
            onClient={(id) => setState({ near_client: id, address: '' })}
            onAddress={(address) => setState({ near_client: null, address })}
          />
          </div>
          <div className="w-28">
            <label htmlFor="nearby-radius" className="block text-sm font-medium text-slate-700 dark:text-slate-200">Radius</label>
            <select id="nearby-radius" className={fieldClass} value={state.radius} onChange={(event) => setState({ radius: Number(event.target.value) })}>
              {[...new Set([...RADIUS_CHOICES, state.radius])].sort((a, b) => a - b).map((value) => <option key={value} value={value}>{value} km</option>)}
            </select>
          </div>
          <div className="shrink-0 whitespace-nowrap">
            <SingleDatePicker label="Day" value={state.date} today={today} clearable={false} onChange={(day) => day && setState({ date: day })} />
          </div>
          <div className="min-w-48 flex-[1_1_12rem]">
            <label htmlFor="nearby-type" className="block text-sm font-medium text-slate-700 dark:text-slate-200">Type</label>
            <select id="nearby-type" className={fieldClass} value={state.type ?? ''} onChange={(event) => setState({ type: event.target.value ? Number(event.target.value) : null })}>
              <option value="">Any type</option>
              {types.data?.map((type) => <option key={type.id} value={type.id}>{type.name} ({type.duration} min)</option>)}
            </select>
          </div>
          <div className="w-32">
            <label htmlFor="nearby-length" className="block text-sm font-medium text-slate-700 dark:text-slate-200">Length (min)</label>
            <input id="nearby-length" type="number" min={5} max={720} step={5} className={fieldClass} placeholder={search.data ? String(search.data.duration_minutes) : 'From the type'}
              value={state.duration ?? ''} onChange={(event) => {
                const value = Number(event.target.value);
                setState({ duration: event.target.value && value >= 5 && value <= 720 ? value : null });
              }} />
          </div>
        </div>
      </Card>

      {query === null && !place.isFetching && (
        state.address && place.data
          ? <ErrorNote>{`“${state.address}” could not be placed on the map. Try the street, suburb and postcode.`}</ErrorNote>
          : <p className="text-sm text-slate-600 dark:text-slate-400">Choose a client or type an address to search near it.</p>
      )}
      {(place.isFetching || search.isFetching) && <p role="status" className="text-sm text-slate-500 dark:text-slate-400">Searching…</p>}
      {place.error && <ErrorNote>{place.error.message}</ErrorNote>}
      {search.error && <ErrorNote>{search.error.message}</ErrorNote>}
      {search.data && query !== null && <Results result={search.data} timeZone={timeZone} typeId={state.type} />}
    </div>
  );
}

type OriginChoice = { kind: 'client'; id: number } | { kind: 'address'; text: string };

/**
 * The origin, a combobox: the clients matching what is typed (best match first), then the typed text as an address.
 * Arrow keys move through them and Enter takes the highlighted one (the first, unless another is chosen).
 */
function OriginField({ label, onClient, onAddress }: { label: string; onClient: (id: number) => void; onAddress: (address: string) => void }) {
  const { api } = useServices();
  const [text, setText] = useState('');
  const typed = useDebouncedValue(text.trim(), TYPE_AHEAD_MS);
  const matches = useQuery({ ...clientQueries.list(api, { q: typed, per_page: 5, sort: 'match' }), enabled: typed.length >= 2 });
  const address = text.trim();
  const choose = (choice: OriginChoice | null) => {
    if (!choice) return;
    if (choice.kind === 'client') onClient(choice.id);
    else onAddress(choice.text);
    setText('');
  };
  const optionClass = 'block cursor-pointer px-3 py-2 text-left text-sm data-focus:bg-sky-50 dark:data-focus:bg-slate-800';
  return (
    <Field className="relative">
      <Label className="block text-sm font-medium text-slate-700 dark:text-slate-200">Near a client or an address</Label>
      <Combobox<OriginChoice | null> value={null} onChange={choose} immediate={false}>
        <ComboboxInput
          type="search" autoComplete="off" className={fieldClass} value={text} placeholder={label || 'Client name or street address'}
          displayValue={() => text} onChange={(event) => setText(event.target.value)}
        />
        {address.length >= 2 && (
          <ComboboxOptions
            aria-label="Matching clients" anchor="bottom start"
            className="z-50 w-(--input-width) overflow-hidden rounded-md border border-slate-200 bg-white shadow-lg empty:invisible dark:border-slate-700 dark:bg-slate-900"
          >
            {(typed === address ? matches.data?.clients ?? [] : []).map((client) => (
              <ComboboxOption key={client.id} value={{ kind: 'client', id: client.id }} className={optionClass}>
                {client.full_name}{client.suburb ? <span className="text-slate-500 dark:text-slate-400"> · {client.suburb}</span> : null}
              </ComboboxOption>
            ))}
            <ComboboxOption value={{ kind: 'address', text: address }} className={`${optionClass} text-sky-700 dark:text-sky-400`}>
              Search near the address “{address}”
            </ComboboxOption>
          </ComboboxOptions>
        )}
      </Combobox>
      {label && <p className="mt-1 truncate text-xs text-slate-500 dark:text-slate-400">Searching near: <span className="font-medium">{label}</span></p>}
    </Field>
  );
}

function Results({ result, timeZone, typeId }: { result: NearbySearch; timeZone: string; typeId: number | null }) {
  const { origin } = result;
  const routes = useMemo<MapRoute[]>(() => [
    {
      id: 'radius', name: 'Search radius', note: `${plural(result.clients.length, 'client')} within ${radiusKm(result.radius_metres)}`,
      color: '#94a3b8', stops: [], path: circlePath(origin, result.radius_metres),
    },
    ...result.practitioners.filter((row) => row.insertion).slice(0, 5).map((row) => ({
      id: row.practitioner_id, name: row.name, color: row.color,
      // Their visits in order; the new one (at the searched point) marked +.
      stops: row.path.slice(1, -1).map((point, i) => {
        const isNew = point.lat === origin.lat && point.lng === origin.lng;
        return { id: `${row.practitioner_id}-${i}`, ...point, title: isNew ? 'The new visit' : `Visit ${i + 1}`, ...(isNew ? { label: '+' } : {}) };
      }),
      start: { ...row.path[0], name: `${row.name}: start` }, end: { ...row.path[row.path.length - 1], name: `${row.name}: end` }, path: row.path,
    })),
  ], [result, origin]);
  const pins = useMemo<MapPin[]>(() => [
    { id: 'origin', ...origin, title: origin.label ?? 'The searched place', label: '★', color: '#e11d48' },
    ...result.clients.filter((client) => client.client_id !== origin.client_id).map((client) => ({ id: client.client_id, lat: client.lat, lng: client.lng, title: client.name, color: '#64748b' })),
  ], [result, origin]);
  const offered = result.practitioners.filter((row) => row.insertion);
  const noRoom = result.practitioners.filter((row) => !row.insertion);

  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <section aria-labelledby="nearby-practitioners" className="space-y-2">
        <h2 id="nearby-practitioners" className="text-base font-semibold">Who could take a {result.duration_minutes}-minute visit on {formatCalendarDate(result.date)}</h2>
        {result.message && <p className="text-sm text-amber-800 dark:text-amber-300">{result.message}</p>}
        {result.practitioners.length === 0 && (
          <p className="text-sm text-slate-600 dark:text-slate-400">No practitioner has a visit or starts within {radiusKm(result.radius_metres)} that day.</p>
        )}
        <ol className="space-y-2">
          {offered.map((row, index) => <PractitionerCard key={row.practitioner_id} row={row} best={index === 0} timeZone={timeZone} date={result.date} clientId={origin.client_id} typeId={typeId} />)}
        </ol>
        {noRoom.length > 0 && (
          <p className="text-sm text-slate-600 dark:text-slate-400">
            No room that day (hours, breaks, limits or the client’s availability): {noRoom.map((row) => row.name).join(', ')}.
          </p>
        )}
      </section>
      <section aria-label="Map" className="space-y-2">
        <MapView routes={routes} pins={pins} height={360} fit="all" />
      </section>
      <section aria-labelledby="nearby-clients" className="space-y-2 lg:col-span-2">
        <h2 id="nearby-clients" className="text-base font-semibold">Clients within {radiusKm(result.radius_metres)} ({result.clients.length}{result.clients.length === 50 ? ', the nearest 50' : ''})</h2>
        {result.clients.length === 0 ? <p className="text-sm text-slate-600 dark:text-slate-400">No client within the radius.</p> : (
          <div className="overflow-x-auto">
            <table className="min-w-full text-sm">
              <thead className="text-left text-slate-600 dark:text-slate-400">
                <tr><th scope="col" className="py-1 pr-3">Client</th><th scope="col" className="py-1 pr-3">Suburb</th><th scope="col" className="py-1 pr-3 text-right">Distance</th><th scope="col" className="py-1">Tags</th></tr>
              </thead>
              <tbody>
                {result.clients.map((client) => (
                  <tr key={client.client_id} className="border-t border-slate-200 dark:border-slate-800">
                    <td className="py-1 pr-3">
                      <button type="button" className="text-left font-medium text-sky-700 hover:underline dark:text-sky-400" onClick={() => openClientModal(client.client_id)}>{client.name}</button>
                    </td>
                    <td className="py-1 pr-3">{client.suburb ?? ''}</td>
                    <td className="py-1 pr-3 text-right tabular-nums">{km(client.distance_metres)}</td>
                    <td className="py-1">
                      <span className="flex flex-wrap gap-1">
                        {client.tags.map((tag) => <span key={tag.id} className="rounded-full px-2 py-0.5 text-xs text-white" style={{ backgroundColor: tag.color }}>{tag.name}</span>)}
                      </span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  );
}

/** The practitioner's day on the appointments page's day schedule, where the visit can be booked or moved in. */
export const dayScheduleOf = (practitionerId: number, date: string, fit?: { from: string; to: string }) =>
  `/appointments?view=schedule&start=${date}&end=${date}&practitioner=${practitionerId}${fit ? `&fit=${fit.from}-${fit.to}` : ''}`;

function PractitionerCard({ row, best, timeZone, date, clientId, typeId }: {
  row: NearbyPractitioner; best: boolean; timeZone: string; date: string;
  /** The searched client, when the search is near one: "Book a visit" opens the booking for them. */
  clientId: number | null;
  typeId: number | null;
}) {
  const insertion = row.insertion!;
  const place = insertion.after_appointment_id === null
    ? (insertion.before_appointment_id === null ? 'the only visit of their day' : 'before their first visit')
    : (insertion.before_appointment_id === null ? 'after their last visit' : 'between two of their visits');
  return (
    <li className={`rounded-md border p-3 ${best ? 'border-emerald-400 bg-emerald-50 dark:border-emerald-700 dark:bg-emerald-950/30' : 'border-slate-200 dark:border-slate-800'}`}>
      <p className="flex flex-wrap items-baseline gap-x-2">
        <span aria-hidden className="inline-block size-3 rounded-full" style={{ backgroundColor: row.color }} />
        <span className="font-semibold">{row.name}</span>
        {best && <span className="rounded-full bg-emerald-600 px-2 py-0.5 text-xs font-medium text-white">Best</span>}
        <span className="ml-auto font-semibold tabular-nums">+{minutes(insertion.added_travel_seconds)} travel</span>
      </p>
      <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
        Visit {formatTime(insertion.arrive_at, timeZone)}–{formatTime(insertion.leave_at, timeZone)}, {place}
        {insertion.reach_at < insertion.arrive_at ? ` (arrives ${formatTime(insertion.reach_at, timeZone)})` : ''}; +{km(insertion.added_travel_metres)}
        {insertion.lateness_seconds > 0 ? `; ${minutes(insertion.lateness_seconds)} after the client’s availability` : ''}.
      </p>
      <p className="text-xs text-slate-500 dark:text-slate-400">
        {row.visits} {row.visits === 1 ? 'visit' : 'visits'} that day · {Math.floor(row.free_minutes / 60)} h {row.free_minutes % 60} min free · starts {km(row.start_distance_metres)} away
      </p>
      <p className="mt-1 text-sm">
        <TextLink
          href={dayScheduleOf(row.practitioner_id, date, { from: formatTime(insertion.arrive_at, timeZone), to: formatTime(insertion.leave_at, timeZone) })}
          aria-label={`Open ${row.name}’s day, ${formatCalendarDate(date)}, where the visit fits at ${formatTime(insertion.arrive_at, timeZone)}`}
        >
          Open {row.name}’s day
        </TextLink>
        {clientId && (
          <>
            {' · '}
            <TextLink
              href={newVisitHref({ date, clientId, appointmentTypeId: typeId, practitionerId: row.practitioner_id, time: formatTime(insertion.arrive_at, timeZone) })}
              aria-label={`Book a visit with ${row.name}, ${formatCalendarDate(date)} at ${formatTime(insertion.arrive_at, timeZone)}`}
            >
              Book a visit
            </TextLink>
          </>
        )}
      </p>
    </li>
  );
}
