// Follows a form's job with a job-run actor the app's services own (services.followJob), given the sync feature's poll
// call. Closing the form sends CLOSE: an import stops polling, an export goes on in the background and toasts its
// outcome when it ends.
import { useEffect, useState } from 'react';
import { fromPromise, type Actor } from 'xstate';
import { useSelector } from '@xstate/react';
import type { QueryKey } from '@tanstack/react-query';
import type { ApiClient } from '../../api/client';
import { messageOfError } from '../../api/errors';
import { useServices } from '../../app/ServicesContext';
import type { AppMachines, AppServices } from '../../app/services';
import { fetchJob, POLL_ERRORS, type JobKind, type SyncJob } from '../../api/jobs';
import type { RunJob } from '../../machines/jobRun';
import { describeOutcome } from '../../entities/jobs/jobStatus';
import { syncJobQueries } from './queries';
import { providerAccountQueries } from '../../api/queries';
import { appointmentQueries, appointmentTypeQueries, businessLocationQueries, practitionerQueries } from '../../entities/appointments/queries';
import { clientQueries } from '../../entities/clients/queries';
import { routeQueries } from '../../entities/routes/queries';

type PollingActor = Actor<AppMachines['jobRun']>;

/** Starts following an import or export job created by the sync form (FOLLOW): an import stops on close, an export keeps going. */
export function followSyncJob({ api, machines, followJob }: Pick<AppServices, 'api' | 'machines' | 'followJob'>, kind: JobKind): PollingActor {
  const run = machines.jobRun.provide({
    actors: {
      // The signal aborts the request when polling stops (closing an import, logging out).
      pollJob: fromPromise<RunJob, { job: RunJob }>(({ input, signal }) => fetchJob(api, kind, input.job.id, signal)),
    },
  });
  return followJob(run, { whenClosed: kind === 'import' ? 'stop' : 'keepGoing' });
}

const pollErrorText = (error: unknown, kind: JobKind) => messageOfError(error, POLL_ERRORS[kind]);

/**
 * What a finished job (complete, failed or cancelled part-way) may have changed, by the query prefixes that hold it:
 * both kinds change appointments (an export writes the times the PMS kept, the change log and the sync history) and
 * may mark the provider account disconnected, and show in their own history; only an import changes clients,
 * refreshes the reference lists and may mark a routed day's routes stale.
 */
function changedByJob(api: ApiClient, kind: JobKind): QueryKey[] {
  const both = [appointmentQueries.lists(), appointmentQueries.details(), providerAccountQueries.current(api).queryKey, syncJobQueries.all(kind)];
  if (kind === 'export') return both;
  return [
    ...both,
    clientQueries.lists(),
    clientQueries.details(),
    routeQueries.all(),
    practitionerQueries.all(api).queryKey,
    appointmentTypeQueries.all(api).queryKey,
    businessLocationQueries.all(api).queryKey,
  ];
}

export function useJobPoller(kind: JobKind, onCompleted?: (job: SyncJob) => void) {
  const { api, flash, queryClient, machines, followJob } = useServices();
  const [actor, setActor] = useState<PollingActor | null>(null);

  useEffect(() => {
    const created = followSyncJob({ api, machines, followJob }, kind);
    const subscriptions = [
      created.on('finished', (event) => {
        const job = event.job as SyncJob;
        for (const queryKey of changedByJob(api, kind)) void queryClient.invalidateQueries({ queryKey });
        if (event.detached) flash.send({ type: 'APPEND', text: describeOutcome(job, kind), flashType: job.status === 'COMPLETE' ? 'success' : 'danger' });
      }),
      created.on('failed', (event) => {
        if (event.detached) flash.send({ type: 'APPEND', text: pollErrorText(event.error, kind), flashType: 'danger' });
      }),
    ];
    setActor(created);
    return () => {
      if (created.getSnapshot().matches('idle')) {
        // Nothing was created: nothing to follow.
        for (const subscription of subscriptions) subscription.unsubscribe();
        created.stop();
      } else if (created.getSnapshot().status === 'active') {
        created.send({ type: 'CLOSE' });
      }
    };
  }, [followJob, machines, kind, api, flash, queryClient]);

  useEffect(() => {
    if (!actor || !onCompleted) return;
    const subscription = actor.on('finished', (event) => onCompleted(event.job as SyncJob));
    return () => subscription.unsubscribe();
  }, [actor, onCompleted]);

  return actor;
}

export function usePollingView(actor: PollingActor | null, kind: JobKind) {
  // The run holds what the sync calls returned: import and export jobs.
  const job = useSelector(actor ?? undefined, (snapshot) => (snapshot?.context.job ?? null) as SyncJob | null);
  const error = useSelector(actor ?? undefined, (snapshot) => snapshot?.context.error ?? null);
  return { job, pollError: error === null ? null : pollErrorText(error, kind) };
}
