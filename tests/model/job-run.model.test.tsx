// Model-based test of the job-run machine as imports and exports use it: paths generated from the real machine's
// state graph (xstate/graph, every transition the sync views can take covered), each walked through the REAL import or
// export modal in the real app. Steps are a user gesture (start a job, close the modal), the polling timer firing, or the
// server's answer to a poll (held by a gate until the path says what it is). After each step the screen
// must show what the model's state means; at the end, polling must go on or have stopped as the model says.
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { EventFromLogic, SnapshotFrom } from 'xstate';
import { ApiError } from '../../src/api/errors';
import { jobRunMachine, type WhenClosed } from '../../src/machines/jobRun';
import type { JobKind, JobStatus, SyncJob } from '../../src/api/jobs';
import { server } from '../component/support/fakeApi';
import { renderApp } from '../component/support/harness';
import { useSyncFakeApi } from '../component/support/syncFakeApi';
import { Gate } from './support/gate';
import { transitionCoveringPaths } from './support/paths';

type PollingEvent = EventFromLogic<typeof jobRunMachine>;
type PollingSnapshot = SnapshotFrom<typeof jobRunMachine>;

const POLL_MS = 20;
const POLL_FAILURE = 'The job store is unavailable.';
const labels: Record<JobStatus, string> = { PENDING: 'In progress', INPROGRESS: 'In progress', COMPLETE: 'Complete', ERROR: 'Error', CANCELLED: 'Cancelled' };
const titles: Record<JobKind, string> = { import: 'Import appointments', export: 'Export appointments' };

function job(kind: JobKind, status: JobStatus): SyncJob {
  const complete = status === 'COMPLETE';
  return {
    id: 41,
    status,
    start_date: '2026-11-22',
    end_date: '2026-11-29',
    error_message: status === 'ERROR' ? 'Cliniko refused the API key.' : null,
    created_at: '2026-11-22T00:00:00Z',
    result: complete
      ? kind === 'import'
        ? { appointments_created: 4, appointments_updated: 2, appointments_cancelled: 1, appointments_unchanged: 5 }
        : { exported: 6, skipped_unchanged: 3, conflicts: [] }
      : null,
  } as SyncJob;
}

// `as PollingEvent[]`: the timer and the invoked actor's results are internal to XState's typings.
const eventsFor = (kind: JobKind) =>
  [
    { type: 'FOLLOW', job: job(kind, 'PENDING') },
    { type: 'CLOSE' },
    { type: 'xstate.after.pollInterval.jobRun.running.waiting' },
    ...(['INPROGRESS', 'COMPLETE', 'ERROR', 'CANCELLED'] as const).map((status) => ({ type: 'xstate.done.actor.pollJob', output: job(kind, status) })),
    { type: 'xstate.error.actor.pollJob', error: new ApiError(503, { message: POLL_FAILURE }, '') },
  ] as unknown as PollingEvent[];

interface Run {
  kind: JobKind;
  gate: Gate;
  polls: AbortSignal[];
  /** How many polls the server has answered; the rest are in flight. */
  answered: number;
  closed: boolean;
}

const inFlight = (run: Run) => run.polls.slice(run.answered);

function serveGatedPolls(run: Run) {
  server.use(
    http.post(`*/api/${run.kind}s`, () => HttpResponse.json({ [run.kind]: job(run.kind, 'PENDING') }, { status: 201 })),
    http.get(`*/api/${run.kind}s/:id`, ({ request }) => {
      run.polls.push(request.signal);
      return run.gate.wait();
    }),
  );
}

const toastTexts = () => screen.queryAllByTestId('toast').map((toast) => toast.textContent ?? '');
const modal = (kind: JobKind) => screen.queryByRole('dialog', { name: titles[kind] });

async function perform(run: Run, event: PollingEvent) {
  const user = userEvent.setup();
  const dialog = modal(run.kind);
  switch (event.type) {
    case 'FOLLOW': {
      await user.click(within(dialog!).getByRole('button', { name: run.kind === 'import' ? 'Start import' : 'Start export' }));
      if (run.kind === 'export') await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Yes, export' }));
      return;
    }
    case 'CLOSE': {
      await user.click(within(dialog!).getByRole('button', { name: 'Close' }));
      run.closed = true;
      await waitFor(() => expect(modal(run.kind)).not.toBeInTheDocument());
      return;
    }
    default: {
      const type = (event as { type: string }).type;
      if (type.startsWith('xstate.after.')) {
        // The timer fires on its own: the step is the poll arriving at the server.
        await waitFor(() => expect(run.gate.pending).toBe(1));
        return;
      }
      const answer = event as unknown as { output?: SyncJob; error?: ApiError };
      run.answered = run.polls.length;
      if (answer.output) {
        const body = { [run.kind]: answer.output };
        run.gate.open(() => HttpResponse.json(body));
      } else {
        run.gate.open(() => HttpResponse.json({ message: POLL_FAILURE }, { status: 503 }));
      }
    }
  }
}

/** What the model's state means on screen. */
async function expectScreen(run: Run, state: PollingSnapshot) {
  const { job, error } = state.context;
  const current = job as SyncJob | null;
  if (!run.closed) {
    const dialog = modal(run.kind)!;
    if (state.matches('idle')) {
      expect(within(dialog).getByRole('button', { name: run.kind === 'import' ? 'Start import' : 'Start export' })).toBeInTheDocument();
      return;
    }
    await waitFor(() => expect(within(dialog).getByTestId('job-status')).toHaveTextContent(labels[current!.status]));
    expect(within(dialog).queryByRole('form')).not.toBeInTheDocument();
    if (current!.status === 'COMPLETE') {
      const counts = run.kind === 'import' ? { Created: '4', Updated: '2', Cancelled: '1', Unchanged: '5' } : { Exported: '6', Unchanged: '3', Conflicts: '0' };
      for (const [label, value] of Object.entries(counts)) expect(within(dialog).getByTestId(`count-${label}`)).toHaveTextContent(value);
    }
    if (current!.status === 'ERROR') expect(within(dialog).getByTestId('job-error')).toHaveTextContent('Cliniko refused the API key.');
    if (error) await waitFor(() => expect(within(dialog).getByText(new RegExp(POLL_FAILURE))).toBeInTheDocument());
    return;
  }
  // Closed: an import's request in flight was cancelled; a detached export reports its end in a toast.
  if (state.matches('stopped')) await waitFor(() => expect(inFlight(run).every((signal) => signal.aborted)).toBe(true));
  if (state.matches('finished') && state.context.detached) {
    await waitFor(() => expect(toastTexts().some((text) => text.startsWith(current!.status === 'COMPLETE' ? 'Export complete' : 'Export'))).toBe(true));
  }
  if (state.matches('failed') && state.context.detached) await waitFor(() => expect(toastTexts()).toContain(POLL_FAILURE));
}

/** At the end of a path: polling goes on while the model is still running, and has stopped otherwise. */
async function expectPollingAfterPath(run: Run, state: PollingSnapshot) {
  if (state.matches('idle')) return;
  const before = run.polls.length;
  if (state.matches('running')) {
    if (run.gate.pending === 0) await waitFor(() => expect(run.polls.length).toBe(before + 1));
    run.answered = run.polls.length;
    run.gate.open(() => HttpResponse.json({ [run.kind]: job(run.kind, 'COMPLETE') }));
    return;
  }
  await new Promise((resolve) => setTimeout(resolve, POLL_MS * 6));
  expect(run.polls.length).toBe(before);
  if (state.matches('stopped')) expect(inFlight(run).every((signal) => signal.aborted)).toBe(true);
}

useSyncFakeApi();
const fastPolling = jobRunMachine.provide({ delays: { pollInterval: POLL_MS } });

for (const kind of ['import', 'export'] as const) {
  // As the sync feature follows its jobs: closing an import stops following it, an export keeps going.
  const whenClosed: WhenClosed = kind === 'import' ? 'stop' : 'keepGoing';
  const paths = transitionCoveringPaths(jobRunMachine, {
    events: eventsFor(kind),
    input: { whenClosed },
    // A job in progress waits and polls as a pending one does and shows the same "In progress": telling the two apart
    // walked every transition of following twice, once after each.
    serializeState: (snapshot) => JSON.stringify({ value: snapshot.value, detached: snapshot.context.detached }),
  });

  describe(`job run (${kind}) through the real modal`, () => {
    it('covers every transition, including close, failure and each terminal status', () => {
      const visited = new Set(paths.flatMap((path) => path.steps.map((step) => JSON.stringify(step.state.value))));
      const expected = ['{"running":"waiting"}', '{"running":"polling"}', '"finished"', '"failed"', ...(kind === 'import' ? ['"stopped"'] : [])];
      expect(visited).toEqual(new Set(expected));
      // An export closed mid-way keeps polling: the model has paths through a detached export.
      if (kind === 'export') expect(paths.some((path) => path.steps.some((step) => step.state.context.detached && step.state.matches('finished')))).toBe(true);
    });

    for (const path of paths) {
      it(path.description, async () => {
        const run: Run = { kind, gate: new Gate(), polls: [], answered: 0, closed: false };
        serveGatedPolls(run);
        renderApp('/dashboard', { as: 'ADMIN', machines: { jobRun: fastPolling } });
        await userEvent.setup().click(await screen.findByRole('button', { name: kind === 'import' ? 'Import' : 'Export' }));
        await within(await screen.findByRole('dialog', { name: titles[kind] })).findByRole('button', { name: kind === 'import' ? 'Start import' : 'Start export' });
        for (const step of path.steps) {
          await perform(run, step.event);
          await expectScreen(run, step.state);
        }
        await expectPollingAfterPath(run, path.steps.at(-1)!.state);
      });
    }
  });
}
