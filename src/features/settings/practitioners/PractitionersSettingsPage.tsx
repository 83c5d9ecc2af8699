// /settings/practitioners (ADMIN): every practitioner imported from the practice management system, active or not,
// with what Rounds keeps about them for routing (never written to the PMS): where the day starts and ends, the hours
// of each weekday, the break, skills, daily limits, time zone and colour. A row says whether the practitioner can be
// routed, or what stops it, in words; Edit opens the dialog (its id is in the address, so a link reopens it); several
// rows can be given the same hours at once.
import { useEffect, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useServices } from '../../../app/ServicesContext';
import { messageOfError } from '../../../api/errors';
import { urlParam, useUrlState } from '../../../lib/urlState';
import type { RoutePageProps } from '../../../router/routeTypes';
import { Button } from '../../../ui/Button';
import { Card, PageHeader } from '../../../ui/PageHeader';
import { PageSpinner } from '../../../ui/PageSpinner';
import { PointPrecision } from '../../../ui/PointPrecision';
import { ErrorNote } from '../../../ui/forms';
import type { PractitionerSettings } from '../../../entities/practitioners/api';
import { PractitionerEditDialog } from './PractitionerEditDialog';
import { practitionerSettingsQueries } from '../../../entities/practitioners/queries';
import { SetHoursDialog } from './SetHoursDialog';
import { hoursSummary } from './workingHours';

const FILTERS = ['all', 'active', 'inactive'] as const;
type Filter = (typeof FILTERS)[number];
const FILTER_LABELS: Record<Filter, string> = { all: 'All', active: 'Active', inactive: 'Inactive' };

const PAGE_STATE = {
  show: urlParam.oneOf(FILTERS, 'all'),
  edit: urlParam.integer(null),
};

const matches = (filter: Filter, practitioner: PractitionerSettings) =>
  filter === 'all' || practitioner.active === (filter === 'active');

export default function PractitionersSettingsPage({ route }: RoutePageProps) {
  const { api } = useServices();
  const list = useQuery(practitionerSettingsQueries.all(api));
  const [state, setState] = useUrlState(PAGE_STATE);
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [settingHours, setSettingHours] = useState(false);

  const all = useMemo(() => list.data ?? [], [list.data]);
  const shown = all.filter((practitioner) => matches(state.show, practitioner));
  const unqualified = all.filter((practitioner) => practitioner.active && practitioner.qualified_appointment_type_ids === null);
  const chosen = shown.filter((practitioner) => selected.has(practitioner.id));
  const editing = state.edit === null ? undefined : all.find((practitioner) => practitioner.id === state.edit);
  const allChosen = shown.length > 0 && chosen.length === shown.length;
  // A link to a practitioner that is not (or no longer) in the list opens nothing, and the address stops saying it does.
  const missing = list.data !== undefined && state.edit !== null && editing === undefined;
  useEffect(() => {
    if (missing) setState({ edit: null }, { replace: true });
  }, [missing, setState]);

  const toggle = (id: number, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(id);
    else next.delete(id);
    setSelected(next);
  };

  return (
    <>
      <PageHeader title={route.title}>
        Where each practitioner’s day starts and ends, their hours, qualifications and limits: what the optimiser plans with. Kept in Rounds
        only; the practice management system is not changed. Qualifications come from Cliniko with every import; here you may only narrow them.
      </PageHeader>
      {unqualified.length > 0 && (
        <p role="status" data-testid="unknown-qualifications" className="mb-4 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
          No known qualifications: {unqualified.map((practitioner) => practitioner.full_name).join(', ')}. Cliniko lists no appointment types for
          them and none are chosen here, so no visit that is not already theirs is given to them: add their
          appointment types in Cliniko and import, or choose them here.
        </p>
      )}
      <Card className="p-0">
        <div className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-200 p-4 dark:border-slate-800">
          <fieldset className="flex rounded-md border border-slate-300 text-sm dark:border-slate-600">
            <legend className="sr-only">Show</legend>
            {FILTERS.map((filter) => {
              const count = all.filter((practitioner) => matches(filter, practitioner)).length;
              return (
                <label
                  key={filter}
                  className="cursor-pointer px-3 py-1.5 first:rounded-l-md last:rounded-r-md has-checked:bg-sky-700 has-checked:text-white has-focus-visible:outline-2 has-focus-visible:outline-sky-600"
                >
                  <input type="radio" name="practitioner-filter" className="sr-only" checked={state.show === filter} onChange={() => setState({ show: filter })} />
                  {list.data ? `${FILTER_LABELS[filter]} (${count})` : FILTER_LABELS[filter]}
                </label>
              );
            })}
          </fieldset>
          <Button variant="secondary" size="sm" onClick={() => setSettingHours(true)} disabled={chosen.length === 0}>
            {chosen.length === 0 ? 'Set hours' : `Set hours for ${chosen.length} selected`}
          </Button>
        </div>
        {list.isPending && <PageSpinner label="Loading practitioners" />}
        {list.isError && (
          <div className="p-4">
            <ErrorNote>{messageOfError(list.error, 'An error has occurred. Could not load practitioners list.')}</ErrorNote>
          </div>
        )}
        {list.data && (
          <div className="relative overflow-x-auto">
            <table aria-label="Practitioners" className="min-w-full divide-y divide-slate-200 text-sm dark:divide-slate-800">
              <thead className="bg-slate-50 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase dark:bg-slate-800/50 dark:text-slate-300">
                <tr>
                  <th scope="col" className="w-10 px-4 py-2">
                    <input
                      type="checkbox"
                      aria-label="Select every practitioner shown"
                      checked={allChosen}
                      disabled={shown.length === 0}
                      onChange={(event) => setSelected(event.target.checked ? new Set(shown.map((practitioner) => practitioner.id)) : new Set())}
                      className="size-4 rounded border-slate-300"
                    />
                  </th>
                  <th scope="col" className="px-4 py-2">Name</th>
                  <th scope="col" className="hidden px-4 py-2 xl:table-cell">Start place</th>
                  <th scope="col" className="hidden px-4 py-2 xl:table-cell">Hours</th>
                  <th scope="col" className="hidden px-4 py-2 md:table-cell">Routing</th>
                  <th scope="col" className="px-4 py-2"><span className="sr-only">Actions</span></th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
                {shown.map((practitioner) => (
                  <PractitionerRow
                    key={practitioner.id}
                    practitioner={practitioner}
                    selected={selected.has(practitioner.id)}
                    onSelect={(on) => toggle(practitioner.id, on)}
                    onEdit={() => setState({ edit: practitioner.id })}
                  />
                ))}
                {shown.length === 0 && (
                  <tr>
                    <td colSpan={6} className="px-4 py-10 text-center text-slate-500 dark:text-slate-400">
                      {all.length === 0 ? 'No practitioners yet: they arrive with the first import.' : `No ${FILTER_LABELS[state.show].toLowerCase()} practitioners.`}
                    </td>
                  </tr>
                )}
              </tbody>
            </table>
          </div>
        )}
      </Card>
      {editing && <PractitionerEditDialog key={editing.id} practitioner={editing} onClose={() => setState({ edit: null })} />}
      {settingHours && chosen.length > 0 && (
        <SetHoursDialog
          practitioners={chosen}
          onClose={() => setSettingHours(false)}
          onSaved={() => {
            setSettingHours(false);
            setSelected(new Set());
          }}
        />
      )}
    </>
  );
}

function placeWords(practitioner: PractitionerSettings): { start: string; end: string | null } {
  const start = practitioner.start_place?.name ?? 'Not chosen';
  const end = practitioner.end_place && practitioner.end_place.name !== practitioner.start_place?.name ? practitioner.end_place.name : null;
  return { start, end };
}

/** How precise a start or end place's point is (nothing at the address or without a place). */
function PlacePrecision({ place }: { place: PractitionerSettings['start_place'] }) {
  return place ? <PointPrecision precision={place.geo_precision} className="mx-1" /> : null;
}

function RoutingStatus({ practitioner }: { practitioner: PractitionerSettings }) {
  const { active, routable, warnings } = practitioner;
  // An inactive practitioner is left out of every route, whatever their settings.
  const [label, style] = !active
    ? ['Inactive: not routed', 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300']
    : !routable
    ? ['Cannot be routed', 'bg-rose-50 text-rose-700 dark:bg-rose-950 dark:text-rose-300']
    : warnings.length > 0
      ? ['Routable, with limits', 'bg-amber-50 text-amber-800 dark:bg-amber-950 dark:text-amber-200']
      : ['Ready to route', 'bg-emerald-50 text-emerald-700 dark:bg-emerald-950 dark:text-emerald-300'];
  return (
    <div data-testid="routing-status">
      <span className={`inline-block rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ${style}`}>{label}</span>
      {warnings.length > 0 && (
        <ul className="mt-1 space-y-0.5 text-xs text-slate-600 dark:text-slate-400">
          {warnings.map((warning) => <li key={warning}>{warning}</li>)}
        </ul>
      )}
    </div>
  );
}

function PractitionerRow({ practitioner, selected, onSelect, onEdit }: {
  practitioner: PractitionerSettings;
  selected: boolean;
  onSelect: (on: boolean) => void;
  onEdit: () => void;
}) {
  const name = practitioner.full_name;
  const places = placeWords(practitioner);
  // Each group of days with its hours on one line: "Mon–Fri 07:00–17:30" never breaks inside.
  const groups = hoursSummary(practitioner.working_hours).split('; ');
  return (
    <tr data-testid="practitioner-row" className={selected ? 'bg-sky-50/60 dark:bg-sky-950/30' : undefined}>
      <td className="px-4 py-3 align-top">
        <input type="checkbox" aria-label={`Select ${name}`} checked={selected} onChange={(event) => onSelect(event.target.checked)} className="size-4 rounded border-slate-300" />
      </td>
      <td className="px-4 py-3 align-top">
        <div className="flex items-center gap-2">
          <span
            role="img"
            aria-label={`Colour ${practitioner.color}${practitioner.color_chosen ? '' : ' (automatic)'}`}
            data-testid="practitioner-colour"
            className="inline-block size-3.5 shrink-0 rounded-full"
            style={{ backgroundColor: practitioner.color }}
          />
          <span className="font-medium md:whitespace-nowrap">{name}</span>
          {!practitioner.active && (
            <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-600 dark:bg-slate-800 dark:text-slate-400">Inactive</span>
          )}
        </div>
        {practitioner.profession && <div className="mt-0.5 pl-5.5 text-xs text-slate-500 dark:text-slate-400">{practitioner.profession}</div>}
        {/* Below xl the place and hours columns fold into the name's cell; below md the routing status too. */}
        <dl className="mt-1 space-y-0.5 pl-5.5 text-xs text-slate-600 xl:hidden dark:text-slate-400">
          <div><dt className="inline">Starts: </dt><dd className="inline">
            {places.start}<PlacePrecision place={practitioner.start_place} />
            {places.end && <>{` · ends: ${places.end}`}<PlacePrecision place={practitioner.end_place} /></>}
          </dd></div>
          <div><dt className="inline">Hours: </dt><dd className="inline">{groups.join('; ')}</dd></div>
        </dl>
        <div className="mt-2 pl-5.5 md:hidden">
          <RoutingStatus practitioner={practitioner} />
        </div>
      </td>
      <td className="hidden min-w-36 px-4 py-3 align-top xl:table-cell" data-testid="start-place">
        {places.start}
        <div><PlacePrecision place={practitioner.start_place} /></div>
        {places.end && <div className="text-xs text-slate-500 dark:text-slate-400">Ends: {places.end}<PlacePrecision place={practitioner.end_place} /></div>}
      </td>
      <td className="hidden px-4 py-3 align-top xl:table-cell" data-testid="hours">
        {groups.map((group) => <div key={group} className="whitespace-nowrap">{group}</div>)}
        {practitioner.break && <div className="text-xs text-slate-500 dark:text-slate-400">{practitioner.break.minutes} min break, starting {practitioner.break.earliest}–{practitioner.break.latest}</div>}
      </td>
      <td className="hidden max-w-80 px-4 py-3 align-top md:table-cell">
        <RoutingStatus practitioner={practitioner} />
      </td>
      <td className="px-4 py-3 text-right align-top">
        <Button variant="secondary" size="sm" onClick={onEdit} aria-label={`Edit ${name}`}>
          Edit
        </Button>
      </td>
    </tr>
  );
}
