// /settings/custom-locations (ADMIN): places that are neither clients nor business locations (an office, a depot, a car
// park) where a practitioner's day can start or end. Create one from a name and an address placed on the map (with how
// precise the lookup was), rename it, move its pin by dragging it (or clicking the offline drawing) or by looking the
// address up again, and delete it — unless it is someone's start or end place, which the server refuses with 409 and a
// sentence naming them.
import { useRef, useState, type FormEvent } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useServices } from '../../../app/ServicesContext';
import { messageOfError } from '../../../api/errors';
import { GEOCODE_ERROR, geocodeAddress } from '../../../api/geocode';
import { farAwayWarning, isApproximate, pinFitsAddress, precisionText } from '../../../lib/geoPrecision';
import type { RoutePageProps } from '../../../router/routeTypes';
import { Button } from '../../../ui/Button';
import { ConfirmDialog } from '../../../ui/ConfirmDialog';
import { ErrorNote, TextField, focusFirstProblem, useFieldProblems } from '../../../ui/forms';
import { LeaveGuard } from '../../../ui/LeaveGuard';
import { MapView } from '../../../ui/map/MapView';
import type { LatLng } from '../../../lib/map/mapTypes';
import { useBusinessDefaults } from '../../../app/businessDefaults';
import { Card, PageHeader } from '../../../ui/PageHeader';
import { PageSpinner } from '../../../ui/PageSpinner';
import { PointPrecision } from '../../../ui/PointPrecision';
import { DELETE_ERROR, LOAD_ERROR, CREATE_ERROR, UPDATE_ERROR, type CustomLocation } from './api';
import { useCreateCustomLocation, useDeleteCustomLocation, useUpdateCustomLocation } from './mutations';
import { customLocationQueries } from './queries';
import { useKnownPlaces } from '../knownPlaces';

export const NAME_NEEDED = 'Enter a name for the location.';
export const ADDRESS_NEEDED = 'Enter an address to look up.';
export const NOT_FOUND = 'No place was found for this address. Check it, or place the pin on the map yourself.';
export const PIN_NEEDED = 'Find the address on the map, or place the pin yourself, before saving.';
export const PIN_STALE = 'The address changed after the pin was placed: look it up again, or drag the pin to the new place.';
const PIN_COLOR = '#0284c7';

type FieldName = 'name' | 'address' | 'pin';
/** The form's field for a line of the server's 422: the point's parts all belong to the pin. */
const fieldNameOf = (path: string): FieldName | null =>
  path === 'name' || path === 'address' ? path : ['lat', 'lng', 'precision', 'source'].includes(path) ? 'pin' : null;

const inUseText = (location: CustomLocation) =>
  `“${location.name}” cannot be deleted: it is the start or end place of ${location.used_by.map((user) => user.full_name).join(', ')}. Choose another place for them first.`;

const usedByText = (location: CustomLocation) =>
  location.used_by.length ? `Start or end place of ${location.used_by.map((user) => user.full_name).join(', ')}` : null;

export default function CustomLocationsPage({ route }: RoutePageProps) {
  const { api } = useServices();
  const locations = useQuery(customLocationQueries.all(api));
  const [editing, setEditing] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<CustomLocation | null>(null);
  /** A location someone starts or ends at: Delete says so instead of asking. */
  const [inUse, setInUse] = useState<number | null>(null);
  const remove = useDeleteCustomLocation();
  const list = locations.data ?? [];

  return (
    <>
      <PageHeader title={route.title}>
        Places that are not clients or business locations, such as an office, a depot or a car park. A practitioner’s day can start or end at one.
      </PageHeader>
      <div className="space-y-6">
        {list.length > 0 && (
          <Card className="p-4">
            <h2 className="mb-2 text-base font-semibold">On the map</h2>
            <MapView
              pins={list.map((location) => ({ id: location.id, lat: location.lat, lng: location.lng, title: location.name, color: PIN_COLOR }))}
              height={260}
              onPinClick={(pin) => setEditing(Number(pin.id))}
            />
          </Card>
        )}

        <Card>
          <h2 className="text-base font-semibold">New location</h2>
          {/* A location added joins the list, and the form starts empty again. */}
          <LocationForm key={`new-${list.length}`} />
        </Card>

        <Card className="p-0">
          {locations.isPending && <PageSpinner label="Loading custom locations" />}
          {locations.isError && (
            <div className="p-4">
              <ErrorNote>{messageOfError(locations.error, LOAD_ERROR)}</ErrorNote>
            </div>
          )}
          {locations.data && list.length === 0 && <p className="px-6 py-10 text-center text-sm text-slate-500 dark:text-slate-400">No custom locations yet.</p>}
          {list.length > 0 && (
            <ul aria-label="Custom locations" className="divide-y divide-slate-200 dark:divide-slate-800">
              {list.map((location) => (
                <li key={location.id} data-testid="custom-location-row" className="px-4 py-3 sm:px-6">
                  {editing === location.id ? (
                    <LocationForm location={location} onDone={() => setEditing(null)} />
                  ) : (
                    <LocationSummary
                      location={location}
                      deleteError={inUse === location.id ? inUseText(location)
                        : remove.variables?.id === location.id && remove.isError ? messageOfError(remove.error, DELETE_ERROR) : null}
                      onEdit={() => setEditing(location.id)}
                      onDelete={() => {
                        setInUse(location.used_by.length > 0 ? location.id : null);
                        if (location.used_by.length === 0) setDeleting(location);
                      }}
                    />
                  )}
                </li>
              ))}
            </ul>
          )}
        </Card>
      </div>
      <ConfirmDialog
        open={deleting !== null}
        danger
        title="Delete location"
        message={deleting ? `Delete “${deleting.name}”? This cannot be undone.` : ''}
        confirmLabel="Delete"
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          if (deleting) remove.mutate(deleting);
          setDeleting(null);
        }}
      />
    </>
  );
}

function LocationSummary({ location, deleteError, onEdit, onDelete }: {
  location: CustomLocation;
  deleteError: string | null;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const usedBy = usedByText(location);
  return (
    <div>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="font-medium text-slate-900 dark:text-white">{location.name}</p>
          <p className="text-sm text-slate-600 dark:text-slate-300">{location.address || 'No address'}</p>
          <PointPrecision precision={location.geo_precision} source={location.geo_source} />
          <p className="text-xs text-slate-500 dark:text-slate-400">
            {location.lat.toFixed(5)}, {location.lng.toFixed(5)}
            {usedBy && <> · {usedBy}</>}
          </p>
        </div>
        <div className="flex shrink-0 gap-2">
          <Button variant="secondary" size="sm" onClick={onEdit} aria-label={`Edit ${location.name}`}>Edit</Button>
          <Button variant="ghost" danger size="sm" onClick={onDelete} aria-label={`Delete ${location.name}`}>Delete</Button>
        </div>
      </div>
      {deleteError && <div className="mt-2"><ErrorNote>{deleteError}</ErrorNote></div>}
    </div>
  );
}

interface Placement extends LatLng {
  /** The address the pin stands for: the one looked up, the saved one, or the one typed when it was moved by hand. */
  address: string;
  /** How the pin got there, in words: the lookup's precision, or "moved by hand". */
  note: string;
  /** Placed by a lookup in this form (not the saved pin, not by hand). */
  lookedUp?: boolean;
  /** What the lookup said of the point; absent for a pin placed or moved by hand. */
  found?: { precision: CustomLocation['geo_precision']; source: CustomLocation['geo_source'] };
}

/** Creates a location (without `location`) or edits one: name, address, and the pin on the map. */
function LocationForm({ location, onDone }: { location?: CustomLocation; onDone?: () => void }) {
  const { api } = useServices();
  const create = useCreateCustomLocation();
  const update = useUpdateCustomLocation();
  const [name, setName] = useState(location?.name ?? '');
  const [address, setAddress] = useState(location?.address ?? '');
  const [placement, setPlacement] = useState<Placement | null>(location ? { lat: location.lat, lng: location.lng, address: location.address, note: 'The saved pin.', found: { precision: location.geo_precision, source: location.geo_source } } : null);
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const form = useRef<HTMLFormElement>(null);
  const { mapCenter } = useBusinessDefaults();
  // A new lookup gives the map a new key, so it fits the new point; dragging keeps the user's view.
  const [mapKey, setMapKey] = useState(0);
  const save = location ? update : create;
  const ours = new Map(Object.entries(errors).filter((entry): entry is [FieldName, string] => entry[1] !== undefined));
  const { problemOf, problem, other } = useFieldProblems({
    error: save.error, fieldOf: fieldNameOf, fallback: location ? UPDATE_ERROR : CREATE_ERROR, ours,
    values: { name, address, pin: placement && [placement.lat, placement.lng] },
  });

  const lookUp = useMutation({
    mutationFn: (lookedUp: string) => geocodeAddress(api, { address_1: lookedUp }),
    onSuccess: (found, lookedUp) => {
      if (found.lat === null || found.lng === null || found.precision === 'none') {
        setErrors((now) => ({ ...now, address: NOT_FOUND }));
        return;
      }
      const hint = isApproximate(found.precision) ? ' Drag the pin to the exact place if you know it.' : '';
      setPlacement({
        lat: found.lat, lng: found.lng, address: lookedUp, lookedUp: true, note: `${found.label ? `${found.label}: ` : ''}${precisionText(found.precision, found.source)}${hint}`,
        found: { precision: found.precision, source: found.source ?? 'manual' },
      });
      setMapKey((key) => key + 1);
    },
  });

  const find = () => {
    setErrors((now) => ({ ...now, address: undefined, pin: undefined }));
    if (address.trim() === '') setErrors((now) => ({ ...now, address: ADDRESS_NEEDED }));
    else lookUp.mutate(address.trim());
  };
  const placeByHand = () => {
    setErrors((now) => ({ ...now, pin: undefined }));
    setPlacement({ ...mapCenter, address, note: 'Placed by hand: drag the pin to the place.' });
    setMapKey((key) => key + 1);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const pinProblem = !placement ? PIN_NEEDED : !pinFitsAddress(placement.address, address) ? PIN_STALE : undefined;
    const found = { name: name.trim() === '' ? NAME_NEEDED : undefined, pin: pinProblem };
    setErrors(found);
    if (found.name || found.pin || !placement) {
      focusFirstProblem(form.current);
      return;
    }
    // A pin from the lookup says how precisely it was found; one placed or moved by hand is at the address.
    const how = placement.found && placement.found.source !== 'manual' ? { precision: placement.found.precision, source: placement.found.source } : {};
    const values = { name: name.trim(), address: address.trim(), lat: placement.lat, lng: placement.lng, ...how };
    const failed = { onError: () => focusFirstProblem(form.current) };
    if (!location) {
      create.mutate(values, failed);
      return;
    }
    const changes = {
      ...(values.name !== location.name ? { name: values.name } : {}),
      ...(values.address !== location.address ? { address: values.address } : {}),
      ...(values.lat !== location.lat || values.lng !== location.lng || (how.precision !== undefined && how.precision !== location.geo_precision)
        ? { lat: values.lat, lng: values.lng, ...how } : {}),
    };
    if (Object.keys(changes).length === 0) onDone?.();
    else update.mutate({ id: location.id, changes }, { onSuccess: () => onDone?.(), ...failed });
  };

  const unsaved = name !== (location?.name ?? '') || address !== (location?.address ?? '')
    || (placement !== null && (placement.lat !== location?.lat || placement.lng !== location?.lng));
  const knownPlaces = useKnownPlaces(location?.id);
  // Only a pin just looked up is judged: one placed by hand is where the user put it.
  const farAway = placement?.lookedUp && pinFitsAddress(placement.address, address) ? farAwayWarning(placement, knownPlaces) : null;
  const title = location ? `Edit ${location.name}` : 'New location';
  return (
    <form ref={form} aria-label={title} noValidate onSubmit={submit} className="mt-3 space-y-3">
      {other.map((line) => <ErrorNote key={line}>{line}</ErrorNote>)}
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField label="Name" value={name} maxLength={120} onChange={(event) => setName(event.target.value)} error={problemOf('name')} placeholder="e.g. North depot" />
        <div>
          <TextField
            label="Address"
            value={address}
            maxLength={500}
            onChange={(event) => setAddress(event.target.value)}
            error={problemOf('address')}
            placeholder="e.g. 12 Main St, Chermside QLD 4032"
            onKeyDown={(event) => {
              // Enter in the address looks it up rather than saving.
              if (event.key === 'Enter') {
                event.preventDefault();
                find();
              }
            }}
          />
        </div>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" size="sm" busy={lookUp.isPending} onClick={find}>
          {placement ? 'Look the address up again' : 'Find on map'}
        </Button>
        {!placement && <Button variant="ghost" size="sm" onClick={placeByHand}>Place the pin yourself</Button>}
      </div>
      {problem('pin')}
      {lookUp.isError && <ErrorNote>{messageOfError(lookUp.error, GEOCODE_ERROR)}</ErrorNote>}
      {placement && (
        <div>
          <p data-testid="placement-note" className="mb-2 text-sm text-slate-600 dark:text-slate-300">
            {placement.found && <PointPrecision precision={placement.found.precision} besideWords={placement.note !== 'The saved pin.'} className="mr-1.5" />}
            {placement.note}
          </p>
          {farAway && <p role="status" data-testid="far-away" className="mb-2 text-sm text-amber-800 dark:text-amber-200">{farAway}</p>}
          {!pinFitsAddress(placement.address, address) && (
            <p data-testid="pin-stale" className="mb-2 text-sm text-amber-800 dark:text-amber-200">
              The pin is still where the previous address was: look the new address up again, or drag the pin.
            </p>
          )}
          <MapView
            key={mapKey}
            fit="first"
            height={240}
            pins={[{ id: location?.id ?? 'new', lat: placement.lat, lng: placement.lng, title: name.trim() || 'New location', color: PIN_COLOR }]}
            onPinMove={(_, to) => {
              setErrors((now) => ({ ...now, pin: undefined }));
              setPlacement({ ...to, address, note: `Moved by hand to ${to.lat.toFixed(5)}, ${to.lng.toFixed(5)}.` });
            }}
          />
        </div>
      )}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" size="sm" busy={save.isPending}>{location ? 'Save' : 'Add location'}</Button>
        {onDone && <Button variant="secondary" size="sm" onClick={onDone}>Cancel</Button>}
      </div>
      <LeaveGuard unsaved={unsaved} />
    </form>
  );
}
