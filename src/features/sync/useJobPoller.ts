// Follows a form's job with an actor the app's services own (services.followJob). Closing the form sends CLOSE: an
// import stops polling, an export goes on in the background and toasts its outcome when it ends.
import { useEffect, useState } from 'react';
import type { Actor } from 'xstate';
import { useSelector } from '@xstate/react';
import type { QueryKey } from '@tanstack/react-query';
import type { ApiClient } from '../../api/client';
import { useServices } from '../../app/ServicesContext';
import type { AppMachines } from '../../app/services';
import type { JobKind, SyncJob } from '../../api/jobs';
import { describeOutcome } from '../../entities/jobs/jobStatus';
import { syncJobQueries } from './queries';
import { providerAccountQueries } from '../../api/queries';
import { appointmentQueries, appointmentTypeQueries, businessLocationQueries, practitionerQueries } from '../../entities/appointments/queries';
import { clientQueries } from '../../entities/clients/queries';
import { routeQueries } from '../../entities/routes/queries';

type PollingActor = Actor<AppMachines['jobPolling']>;

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
  const { api, flash, queryClient, followJob } = useServices();
  const [actor, setActor] = useState<PollingActor | null>(null);

  useEffect(() => {
    const created = followJob(kind);
    const subscriptions = [
      created.on('completed', (event) => {
        for (const queryKey of changedByJob(api, kind)) void queryClient.invalidateQueries({ queryKey });
        if (event.detached) flash.send({ type: 'APPEND', text: describeOutcome(event.job, kind), flashType: event.job.status === 'COMPLETE' ? 'success' : 'danger' });
      }),
      created.on('pollFailed', (event) => {
        if (event.detached) flash.send({ type: 'APPEND', text: event.message, flashType: 'danger' });
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
  }, [followJob, kind, api, flash, queryClient]);

  useEffect(() => {
    if (!actor || !onCompleted) return;
    const subscription = actor.on('completed', (event) => onCompleted(event.job));
    return () => subscription.unsubscribe();
  }, [actor, onCompleted]);

  return actor;
}

export function usePollingView(actor: PollingActor | null) {
  const job = useSelector(actor ?? undefined, (snapshot) => snapshot?.context.job ?? null);
  const pollError = useSelector(actor ?? undefined, (snapshot) => snapshot?.context.pollError ?? null);
  return { job, pollError };
}
