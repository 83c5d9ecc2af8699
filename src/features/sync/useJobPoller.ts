// Runs the job-polling machine for a form. Closing the form sends CLOSE: an import stops polling, an
// export is left running in the background and toasts its outcome when it ends.
import { useEffect, useState } from 'react';
import { createActor, type Actor } from 'xstate';
import { useSelector } from '@xstate/react';
import { useServices } from '../../app/ServicesContext';
import { useSyncMachines } from './SyncMachinesContext';
import type { JobKind, SyncJob } from './api';
import { describeOutcome } from './jobStatus';
import { syncJobQueries } from './queries';
import { providerAccountQueries } from '../../api/queries';
import { appointmentQueries, appointmentTypeQueries, businessLocationQueries, practitionerQueries } from '../appointments/queries';
import { clientQueries } from '../clients/queries';

type PollingActor = Actor<ReturnType<typeof useSyncMachines>['polling']>;

export function useJobPoller(kind: JobKind, onCompleted?: (job: SyncJob) => void) {
  const { polling } = useSyncMachines();
  const { api, flash, queryClient } = useServices();
  const [actor, setActor] = useState<PollingActor | null>(null);

  useEffect(() => {
    const created = createActor(polling, { input: { kind } });
    const subscriptions = [
      created.on('completed', (event) => {
        // A job changes the appointments and the clients; an import also refreshes the reference lists; a job that
        // failed may have marked the provider account as disconnected; and this kind's history shows the job.
        const changed = [
          appointmentQueries.lists(), appointmentQueries.details(), clientQueries.lists(), clientQueries.details(),
          practitionerQueries.all(api).queryKey, appointmentTypeQueries.all(api).queryKey, businessLocationQueries.all(api).queryKey,
          providerAccountQueries.current(api).queryKey, syncJobQueries.all(kind),
        ];
        for (const queryKey of changed) void queryClient.invalidateQueries({ queryKey });
        if (event.detached) flash.send({ type: 'APPEND', text: describeOutcome(event.job, kind), flashType: event.job.status === 'COMPLETE' ? 'success' : 'danger' });
      }),
      created.on('pollFailed', (event) => {
        if (event.detached) flash.send({ type: 'APPEND', text: event.message, flashType: 'danger' });
      }),
    ];
    created.start();
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
  }, [polling, kind, api, flash, queryClient]);

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
