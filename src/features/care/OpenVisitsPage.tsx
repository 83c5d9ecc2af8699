// /open-visits (ADMIN, REGULAR_USER): visits that need a practitioner and have none yet, by day, each with why it is
// open. "Fill" asks for the best fits (who could take it, with the arrival, the travel it adds and their marks) and books
// the chosen one; "Remove" drops a visit no longer needed; "Plan care visits" proposes practitioners for the care plans'
// visits of the weeks ahead (AllocationPanel). Nothing of an open visit is in Cliniko until a practitioner is chosen.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useServices } from '../../app/ServicesContext';
import { useShownTimeZone } from '../../app/timeZone';
import { messageOfError } from '../../api/errors';
import type { OpenVisit } from '../../entities/open-visits/api';
import { openVisitQueries } from '../../entities/open-visits/queries';
import { formatWeekday } from '../../lib/dates';
import { plural } from '../../lib/plural';
import type { RoutePageProps } from '../../router/routeTypes';
import { Button } from '../../ui/Button';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { ErrorNote } from '../../ui/forms';
import { Card, PageHeader } from '../../ui/PageHeader';
import { BestFitChoices } from '../../ui/BestFitChoices';
import { LoadingText, PageSpinner } from '../../ui/PageSpinner';
import { AllocationPanel } from './AllocationPanel';
import { BEST_FIT_ERROR, FILL_ERROR, findBestFits, type BestFit } from './api';
import { useFillOpenVisit, useRemoveOpenVisit } from './mutations';
import { sentenceOf } from './words';

export default function OpenVisitsPage({ route }: RoutePageProps) {
  const { api } = useServices();
  const visits = useQuery(openVisitQueries.list(api));
  const [removing, setRemoving] = useState<OpenVisit | null>(null);
  const remove = useRemoveOpenVisit();
  const days = groupByDay(visits.data ?? []);
  const carers = carersOf(visits.data ?? []);

  return (
    <>
      <PageHeader title={route.title}>
        Visits that need a practitioner and have none yet. Nothing of them is in Cliniko until a practitioner is chosen: Fill books one
        with the practitioner you pick, and Plan care visits proposes practitioners for the care plans’ visits of the weeks ahead.
      </PageHeader>
      <AllocationPanel />
      <Card className="mt-6 p-0">
        <div className="flex flex-wrap items-baseline justify-between gap-2 border-b border-slate-200 px-4 py-3 dark:border-slate-800">
          <h2 className="text-base font-semibold">Open visits, the next 4 weeks</h2>
          {visits.data && <span className="text-sm text-slate-600 dark:text-slate-300" data-testid="open-visit-count">{plural(visits.data.length, 'open visit')}</span>}
        </div>
        {visits.isPending && <PageSpinner label="Loading open visits" />}
        {visits.isError && <div className="p-4"><ErrorNote>{messageOfError(visits.error, 'An error has occurred. Could not load the open visits.')}</ErrorNote></div>}
        {visits.data && visits.data.length === 0 && (
          <p className="px-4 py-8 text-center text-sm text-slate-500 dark:text-slate-400">No open visits: every visit has a practitioner.</p>
        )}
        {days.map(([date, dayVisits]) => (
          <section key={date} aria-label={formatWeekday(date)} className="border-b border-slate-100 last:border-b-0 dark:border-slate-800">
            <h3 className="bg-slate-50 px-4 py-1.5 text-xs font-semibold tracking-wide text-slate-600 uppercase dark:bg-slate-800/50 dark:text-slate-300">{formatWeekday(date)}</h3>
            <ul className="divide-y divide-slate-100 dark:divide-slate-800">
              {dayVisits.map((visit) => <OpenVisitRow key={visit.id} visit={visit} carers={carers.get(sameVisit(visit)) ?? 1} onRemove={() => setRemoving(visit)} />)}
            </ul>
          </section>
        ))}
      </Card>
      <ConfirmDialog
        open={removing !== null}
        danger
        title="Remove open visit"
        message={removing ? `Remove ${removing.client.name}’s ${removing.appointment_type.name} on ${formatWeekday(removing.date)}? It is no longer needed: nobody will be asked to take it${removing.care_plan_id ? ', and the care plan does not generate it again' : ''}.` : ''}
        confirmLabel="Remove"
        onCancel={() => setRemoving(null)}
        onConfirm={() => {
          if (removing) remove.mutate(removing.id);
          setRemoving(null);
        }}
      />
    </>
  );
}

function groupByDay(visits: readonly OpenVisit[]): [string, OpenVisit[]][] {
  const days = new Map<string, OpenVisit[]>();
  for (const visit of visits) days.set(visit.date, [...(days.get(visit.date) ?? []), visit]);
  return [...days.entries()].sort(([a], [b]) => a.localeCompare(b));
}

/** A two-carer visit is two open visits alike (client, type, day, window, plan), one for each carer. */
const sameVisit = (visit: OpenVisit) => [visit.client.id, visit.appointment_type.id, visit.date, visit.window_start, visit.window_end, visit.care_plan_id].join('|');

function carersOf(visits: readonly OpenVisit[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const visit of visits) counts.set(sameVisit(visit), (counts.get(sameVisit(visit)) ?? 0) + 1);
  return counts;
}

function OpenVisitRow({ visit, carers, onRemove }: { visit: OpenVisit; carers: number; onRemove: () => void }) {
  const [filling, setFilling] = useState(false);
  return (
    <li data-testid="open-visit" className="px-4 py-3 text-sm">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="font-medium">
            {visit.client.name} · {visit.appointment_type.name}
          </p>
          <p className="text-slate-600 dark:text-slate-300">
            {visit.window_start}–{visit.window_end} · {visit.duration_minutes} min{carers > 1 ? ` · one of ${carers} carers` : ''}
          </p>
          <p className="text-xs text-amber-800 dark:text-amber-300" data-testid="open-visit-reason">{visit.reason}</p>
          {visit.notes && <p className="text-xs text-slate-500 dark:text-slate-400">{visit.notes}</p>}
        </div>
        {!filling && (
          <div className="flex gap-2">
            <Button size="sm" onClick={() => setFilling(true)} aria-label={`Fill ${visit.client.name}’s visit on ${formatWeekday(visit.date)}`}>Fill</Button>
            <Button variant="secondary" size="sm" danger onClick={onRemove} aria-label={`Remove ${visit.client.name}’s visit on ${formatWeekday(visit.date)}`}>Remove</Button>
          </div>
        )}
      </div>
      {filling && <FillChoices visit={visit} onDone={() => setFilling(false)} />}
    </li>
  );
}

/** The best fits for the visit, cheapest first, each a choice; booking the chosen one fills the visit. */
function FillChoices({ visit, onDone }: { visit: OpenVisit; onDone: () => void }) {
  const { api } = useServices();
  const timeZone = useShownTimeZone();
  const fits = useQuery({ queryKey: ['open-visits', 'best-fit', visit.id], queryFn: () => findBestFits(api, visit), staleTime: 0, gcTime: 0 });
  const fill = useFillOpenVisit();
  const [chosen, setChosen] = useState<BestFit | null>(null);

  return (
    <div className="mt-3 rounded-md border border-slate-200 p-3 dark:border-slate-800" aria-label={`Who could take ${visit.client.name}’s visit`} role="group">
      {fits.isPending && <LoadingText label="Finding who could take it" />}
      {fits.isError && (
        <ErrorNote>
          {sentenceOf(messageOfError(fits.error, BEST_FIT_ERROR))}{' '}
          <Button variant="secondary" size="xs" busy={fits.isFetching} onClick={() => void fits.refetch()}>Try again</Button>
        </ErrorNote>
      )}
      {fits.data && <BestFitChoices result={fits.data} chosen={chosen} onChoose={setChosen} timeZone={timeZone} />}
      {fill.isError && <div className="mt-2"><ErrorNote>{sentenceOf(messageOfError(fill.error, FILL_ERROR))}</ErrorNote></div>}
      <div className="mt-3 flex flex-wrap gap-2">
        <Button
          size="sm"
          disabled={!chosen}
          busy={fill.isPending}
          onClick={() => chosen && fill.mutate({ id: visit.id, practitionerId: chosen.practitioner_id, startsAt: chosen.arrive_at, name: chosen.name }, { onSuccess: onDone })}
        >
          {chosen ? `Book with ${chosen.name}` : 'Book'}
        </Button>
        <Button variant="secondary" size="sm" onClick={onDone}>Cancel</Button>
      </div>
    </div>
  );
}
