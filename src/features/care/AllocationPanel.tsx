// "Plan care visits": the care plans' visits for the weeks ahead are generated as open visits and the optimiser's week
// planner gives each a practitioner where one fits. The allocation is a job, followed with the app's job run
// (src/machines/jobRun.ts, given this feature's calls) until it is done; its proposal — figures and every visit with its
// practitioner and arrival, or why it stays open — is booked with "Book N visits" (each written to Cliniko).
import { useEffect, useId, useState } from 'react';
import { fromPromise, type Actor } from 'xstate';
import { useSelector } from '@xstate/react';
import { useServices } from '../../app/ServicesContext';
import type { AppMachines, AppServices } from '../../app/services';
import { messageOfError } from '../../api/errors';
import type { RunJob } from '../../machines/jobRun';
import { formatTime, formatWeekday } from '../../lib/dates';
import { plural } from '../../lib/plural';
import { useShownTimeZone } from '../../app/timeZone';
import { Button } from '../../ui/Button';
import { ErrorNote, SuccessNote } from '../../ui/forms';
import { Card } from '../../ui/PageHeader';
import { Spinner } from '../../ui/PageSpinner';
import { TextLink } from '../../ui/TextLink';
import { ALLOCATION_APPLY_ERROR, ALLOCATION_POLL_ERROR, ALLOCATION_START_ERROR, fetchAllocation, startAllocation, type AllocationJob, type CarePlanAllocation } from './api';
import { sentenceOf, travelText } from './words';
import { useApplyAllocation, visitsBooked } from './mutations';

type AllocationRun = Actor<AppMachines['jobRun']>;

const WEEK_CHOICES = Array.from({ length: 12 }, (_, index) => index + 1);

/** The app's job run with the allocation's calls: started from the request, read until it is no longer running. */
function followAllocation({ api, machines, followJob }: Pick<AppServices, 'api' | 'machines' | 'followJob'>, weeks: number | null): AllocationRun {
  const run = machines.jobRun.provide({
    actors: {
      createJob: fromPromise<RunJob, { request: unknown }>(({ input }) => startAllocation(api, input.request as { weeks?: number })),
      pollJob: fromPromise<RunJob, { job: RunJob }>(({ input, signal }) => fetchAllocation(api, input.job.id, signal)),
    },
  });
  return followJob(run, { whenClosed: 'stop', request: weeks === null ? {} : { weeks } });
}

export function AllocationPanel() {
  const services = useServices();
  const { queryClient } = services;
  const ids = useId();
  // null: the business's setting (Account settings).
  const [weeks, setWeeks] = useState<number | null>(null);
  const [run, setRun] = useState<AllocationRun | null>(null);
  const [applied, setApplied] = useState<CarePlanAllocation | null>(null);
  const apply = useApplyAllocation();
  const snapshot = useSelector(run ?? undefined, (current) => current);
  const job = (snapshot?.context.job ?? null) as AllocationJob | null;
  const running = snapshot !== undefined && snapshot.status === 'active';
  const failed = snapshot?.status === 'done' && snapshot.output?.ended === 'failed';

  // Leaving the page stops following the allocation (it is not cancelled: the server finishes it).
  useEffect(() => () => {
    if (run?.getSnapshot().status === 'active') run.send({ type: 'CLOSE' });
  }, [run]);

  // Generating the plans' visits adds open visits: the list shows them once the allocation is done.
  useEffect(() => {
    if (snapshot?.status === 'done') visitsBooked(queryClient);
  }, [snapshot?.status, queryClient]);

  const start = () => {
    setApplied(null);
    apply.reset();
    setRun(followAllocation(services, weeks));
  };
  const allocation = job?.allocation ?? null;

  return (
    <Card className="space-y-4">
      <div className="flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor={`${ids}-weeks`} className="block text-sm font-medium text-slate-700 dark:text-slate-200">Weeks ahead</label>
          <select id={`${ids}-weeks`} value={weeks ?? ''} disabled={running}
            onChange={(event) => setWeeks(event.target.value === '' ? null : Number(event.target.value))}
            className="mt-1 block rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm dark:border-slate-700 dark:bg-slate-900">
            <option value="">As in Account settings</option>
            {WEEK_CHOICES.map((count) => <option key={count} value={count}>{plural(count, 'week')}</option>)}
          </select>
        </div>
        <Button onClick={start} busy={running}>Plan care visits</Button>
      </div>
      <p className="text-xs text-slate-500 dark:text-slate-400">
        Generates the care plans’ visits from tomorrow for the weeks ahead and proposes a practitioner for each open visit of those weeks:
        the same few carers for a client week after week, balanced days, the rules of home care. No visits are generated on{' '}
        <TextLink variant="prose" href="/settings/public-holidays">public holidays</TextLink> or while a client is away. Nothing is booked until you book the proposal.
      </p>

      {running && (
        <p role="status" className="flex items-center gap-2 text-sm font-medium">
          <Spinner className="size-4 text-sky-600" />
          {snapshot.matches('submitting') ? 'Starting…' : 'Planning the care visits…'}
        </p>
      )}
      {failed && <ErrorNote>{sentenceOf(messageOfError(snapshot.output?.error, job ? ALLOCATION_POLL_ERROR : ALLOCATION_START_ERROR))}</ErrorNote>}
      {!running && allocation?.status === 'ERROR' && <ErrorNote>{allocation.message ?? 'The care visits could not be planned.'}</ErrorNote>}
      {applied && <SuccessNote>{applied.message ?? `${plural(applied.figures.placed, 'visit')} booked.`}</SuccessNote>}
      {!running && !applied && allocation?.status === 'DONE' && (
        <Proposal
          allocation={allocation}
          booking={apply.isPending}
          problem={apply.isError ? messageOfError(apply.error, ALLOCATION_APPLY_ERROR) : null}
          onBook={() => apply.mutate(allocation.id, { onSuccess: setApplied })}
          onPlanAgain={start}
        />
      )}
    </Card>
  );
}

function Proposal({ allocation, booking, problem, onBook, onPlanAgain }: {
  allocation: CarePlanAllocation; booking: boolean; problem: string | null; onBook: () => void; onPlanAgain: () => void;
}) {
  const timeZone = useShownTimeZone();
  const { figures } = allocation;
  return (
    <section aria-label="Proposal" data-testid="allocation-proposal" className="space-y-3">
      <h2 className="text-base font-semibold">
        Proposal for {formatWeekday(allocation.start_date)} – {formatWeekday(allocation.end_date)}
      </h2>
      {allocation.generated > 0 && <p className="text-sm">The care plans gained {plural(allocation.generated, 'open visit')} for these weeks.</p>}
      <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-5" aria-label="Figures">
        <Figure label="Visits" value={String(figures.visits)} testId="figure-visits" />
        <Figure label="Placed" value={String(figures.placed)} testId="figure-placed" />
        <Figure label="Unplaced" value={String(figures.unplaced)} testId="figure-unplaced" />
        <Figure label="Added travel" value={travelText(figures.added_travel_seconds)} testId="figure-travel" />
        <Figure label="Hard breaks" value={String(figures.hard_breaks)} testId="figure-hard-breaks" />
      </dl>
      {figures.carers_by_client.length > 0 && (
        <div>
          <h3 className="text-sm font-medium">Carers each client would see</h3>
          <ul aria-label="Carers per client" className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-sm">
            {figures.carers_by_client.map((row) => <li key={row.client_id} data-testid="carers-of-client">{row.name}: {plural(row.carers, 'carer')}</li>)}
          </ul>
        </div>
      )}
      {allocation.visits.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">There are no open visits in these weeks.</p>
      ) : (
        <div className="relative max-h-[28rem] overflow-auto rounded-md border border-slate-200 dark:border-slate-800">
          <table aria-label="Proposed visits" className="w-full text-sm">
            <thead className="sticky top-0 bg-slate-50 text-left text-xs font-semibold text-slate-600 uppercase max-sm:sr-only dark:bg-slate-800 dark:text-slate-300">
              <tr>
                <th scope="col" className="px-3 py-2">Day</th>
                <th scope="col" className="px-3 py-2">Client</th>
                <th scope="col" className="px-3 py-2">Type</th>
                <th scope="col" className="px-3 py-2">Window</th>
                <th scope="col" className="px-3 py-2">Practitioner</th>
                <th scope="col" className="px-3 py-2">Arrival</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
              {allocation.visits.map((visit) => (
                <tr key={visit.open_visit_id} data-testid="proposed-visit" className="max-sm:flex max-sm:flex-wrap max-sm:gap-x-2 max-sm:px-3 max-sm:py-2">
                  <td className="px-3 py-1.5 whitespace-nowrap max-sm:p-0 max-sm:font-medium">{formatWeekday(visit.date)}</td>
                  <td className="px-3 py-1.5 max-sm:p-0 max-sm:font-medium">{visit.client.name}</td>
                  <td className="px-3 py-1.5 max-sm:p-0">{visit.appointment_type_name}</td>
                  <td className="px-3 py-1.5 whitespace-nowrap max-sm:p-0">{visit.window_start}–{visit.window_end}</td>
                  {visit.practitioner ? (
                    <>
                      <td className="px-3 py-1.5 max-sm:w-full max-sm:p-0">{visit.practitioner.name}</td>
                      <td className="px-3 py-1.5 whitespace-nowrap max-sm:p-0">
                        {visit.arrive_at ? formatTime(visit.arrive_at, timeZone) : '—'}
                        {visit.added_travel_seconds > 0 && <span className="text-xs text-slate-500 dark:text-slate-400"> (+{travelText(visit.added_travel_seconds)})</span>}
                      </td>
                    </>
                  ) : (
                    <td colSpan={2} className="px-3 py-1.5 text-amber-800 max-sm:w-full max-sm:p-0 dark:text-amber-300">Stays open: {visit.reason ?? 'no practitioner fits'}</td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {problem && (
        <ErrorNote>
          {problem}{' '}
          <Button variant="secondary" size="xs" onClick={onPlanAgain}>Plan again</Button>
        </ErrorNote>
      )}
      <div className="flex flex-wrap items-center gap-3">
        <Button onClick={onBook} busy={booking} disabled={figures.placed === 0}>Book {plural(figures.placed, 'visit')}</Button>
        <span className="text-xs text-slate-500 dark:text-slate-400">
          Each is written to Cliniko with its practitioner.{figures.unplaced > 0 ? ` The ${plural(figures.unplaced, 'unplaced visit')} stay open.` : ''}
        </span>
      </div>
    </section>
  );
}

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="rounded-md bg-slate-50 px-3 py-2 dark:bg-slate-800/60" data-testid={testId}>
      <dt className="text-xs text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className="text-lg font-semibold tabular-nums">{value}</dd>
    </div>
  );
}
