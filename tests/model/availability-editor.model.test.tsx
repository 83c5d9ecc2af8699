// Model-based tests: paths generated from availabilityEditorMachine (xstate/graph getShortestPaths) drive
// the real client details modal. Each path renders fresh; every state is checked against what the user
// sees, and every save against what was sent.
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { getShortestPaths } from 'xstate/graph';
import {
  AVAILABILITY_SLOTS,
  AVAILABILITY_UPDATED_MESSAGE,
  DAY_NAMES,
  availabilityEditorMachine,
  availabilityProblems,
  availabilityToSend,
  type AvailabilityEditorEvent,
  type AvailabilityEditorSnapshot,
  type AvailabilityEntry,
  type Dow,
} from '../../src/machines/availabilityEditor';
import { ClientDetailsModal } from '../../src/features/clients/ClientDetailsModal';
import { api, server, received as sent } from '../component/support/fakeApi';
import { deferred, makeClient } from '../component/support/fixtures';
import { renderWithServices, useFakeApi } from '../component/support/harness';
import { withoutPrefixes } from './support/paths';

const SAVE_DONE = { type: 'xstate.done.actor.save', output: undefined } as unknown as AvailabilityEditorEvent;
const SAVE_ERROR = { type: 'xstate.error.actor.save', error: new Error('422') } as unknown as AvailabilityEditorEvent;
const SERVER_REFUSAL = 'Availability hours are not valid.';

// The model is capped to two days (Monday first in the grid, Sunday last) and one slot, which covers
// every rule while keeping the path count small.
const MONDAY: Dow = 1;
const SUNDAY: Dow = 0;
const SLOT = AVAILABILITY_SLOTS[0];

const EDITING_MONDAY: AvailabilityEditorEvent[] = [
  { type: 'TOGGLE_CUSTOM' },
  { type: 'TOGGLE_DAY', dow: MONDAY },
  { type: 'TOGGLE_ALL_DAY', dow: MONDAY },
  { type: 'TOGGLE_SLOT', dow: MONDAY, slot: SLOT },
  { type: 'TOGGLE_DAY', dow: SUNDAY },
  { type: 'SAVE' },
];
const EDITING_SUNDAY: AvailabilityEditorEvent[] = [
  { type: 'TOGGLE_CUSTOM' },
  { type: 'TOGGLE_DAY', dow: SUNDAY },
  { type: 'TOGGLE_ALL_DAY', dow: SUNDAY },
  { type: 'SAVE' },
];

function modelPaths(availability: AvailabilityEntry[], userEvents: AvailabilityEditorEvent[]) {
  return getShortestPaths(availabilityEditorMachine, {
    input: { availability, saveTo: { clientId: 11 } },
    // Only what the user can do in that state: an ignored event has no control to drive.
    events: (snapshot) => (snapshot.matches('saving') ? [SAVE_DONE, SAVE_ERROR] : userEvents.filter((event) => snapshot.can(event))),
    // A state reached through a save result is its own vertex, so paths end with the toast.
    serializeState: (snapshot, event) =>
      JSON.stringify([snapshot.value, snapshot.context, event?.type.startsWith('xstate.') ? event.type : null]),
  });
}

useFakeApi();

interface PathRun {
  pendingSave: ReturnType<typeof deferred<'ok' | 'refuse'>> | null;
}

function useClient(availability: AvailabilityEntry[], run: PathRun) {
  const client = makeClient({ availability });
  server.use(
    http.get(api('/clients/11'), () => HttpResponse.json({ client })),
    http.get(api('/tags/all'), () => HttpResponse.json({ tags: [] })),
    http.put(api('/clients/11/update_availability'), async ({ request }) => {
      run.pendingSave = deferred<'ok' | 'refuse'>();
      const outcome = await run.pendingSave.promise;
      const body = (await request.json()) as { availability: AvailabilityEntry[] };
      return outcome === 'ok'
        ? HttpResponse.json({ client: { ...client, availability: body.availability } })
        : HttpResponse.json({ message: SERVER_REFUSAL }, { status: 422 });
    }),
  );
}

async function perform(event: AvailabilityEditorEvent, run: PathRun, user: ReturnType<typeof userEvent.setup>) {
  const editor = screen.getByTestId('availability-editor');
  switch (event.type) {
    case 'TOGGLE_CUSTOM':
      return user.click(within(editor).getByLabelText('Custom availability'));
    case 'TOGGLE_DAY':
      return user.click(within(editor).getByLabelText(DAY_NAMES[event.dow]));
    case 'TOGGLE_ALL_DAY':
      return user.click(within(editor).getByLabelText(`${DAY_NAMES[event.dow]} all day`));
    case 'TOGGLE_SLOT':
      return user.click(within(editor).getByLabelText(`${DAY_NAMES[event.dow]} ${event.slot}`));
    case 'SAVE':
      return user.click(within(editor).getByText('Save availability'));
    default: {
      const type = (event as { type: string }).type;
      if (type === 'xstate.init') return;
      await waitFor(() => expect(run.pendingSave).not.toBeNull());
      run.pendingSave!.resolve(type === 'xstate.done.actor.save' ? 'ok' : 'refuse');
      run.pendingSave = null;
    }
  }
}

async function expectUserSees(snapshot: AvailabilityEditorSnapshot, lastEvent: string | undefined) {
  const editor = screen.getByTestId('availability-editor');
  const { context } = snapshot;
  if (snapshot.matches('saving')) {
    await waitFor(() => expect(within(editor).getByText('Save availability')).toBeDisabled());
    const saves = sent.filter((request) => request.method === 'PUT' && request.path === '/api/clients/11/update_availability');
    await waitFor(() => expect(saves.length).toBeGreaterThan(0));
    expect(saves.at(-1)!.body).toEqual({ availability: availabilityToSend(context) });
    return;
  }
  // Saving waits while the form shows something it could not save as shown; each problem is told where it is.
  const problems = availabilityProblems(context);
  const blocked = problems.form !== null || Object.keys(problems.days).length > 0;
  await waitFor(() => expect(within(editor).getByText('Save availability')).toHaveProperty('disabled', blocked));
  expect(within(editor).queryAllByTestId('availability-problem').map((problem) => problem.textContent)).toEqual(
    [problems.form, ...[MONDAY, SUNDAY].map((dow) => problems.days[dow])].filter((text) => text),
  );
  if (lastEvent === 'xstate.done.actor.save') expect(await screen.findByText(AVAILABILITY_UPDATED_MESSAGE)).toBeInTheDocument();
  if (lastEvent === 'xstate.error.actor.save') expect(await screen.findByText(SERVER_REFUSAL)).toBeInTheDocument();

  expect(within(editor).getByLabelText('Custom availability')).toHaveProperty('checked', context.custom);
  if (!context.custom) {
    expect(within(editor).queryByLabelText(DAY_NAMES[MONDAY])).toBeNull();
    return;
  }
  // Monday is the first row and Sunday the last.
  const rows = editor.querySelectorAll('li');
  expect(rows[0]).toHaveAttribute('data-testid', 'availability-day-1');
  expect(rows[rows.length - 1]).toHaveAttribute('data-testid', 'availability-day-0');
  for (const dow of [MONDAY, SUNDAY]) {
    const day = context.days[dow];
    const name = DAY_NAMES[dow];
    expect(within(editor).getByLabelText(name)).toHaveProperty('checked', day.enabled);
    const allDay = within(editor).queryByLabelText(`${name} all day`);
    if (!day.enabled) {
      expect(allDay).toBeNull();
      continue;
    }
    expect(allDay).toHaveProperty('checked', day.allDay);
    for (const slot of AVAILABILITY_SLOTS) {
      const box = within(editor).queryByLabelText(`${name} ${slot}`);
      if (day.allDay) expect(box).toBeNull();
      else expect(box).toHaveProperty('checked', day.hours.includes(slot));
    }
  }
}

const STARTS: Array<{ name: string; availability: AvailabilityEntry[]; events: AvailabilityEditorEvent[] }> = [
  { name: 'a client without custom availability', availability: [], events: EDITING_MONDAY },
  { name: 'a client available Sunday afternoons', availability: [{ dow: 0, hours: ['12:00-15:00'] }], events: EDITING_SUNDAY },
];

describe.each(STARTS)('availability editor model, starting from $name', ({ availability, events }) => {
  const paths = modelPaths(availability, events);

  it('covers saving, success and failure', () => {
    const lastEvents = new Set(paths.map((path) => path.steps.at(-1)?.event.type));
    expect(lastEvents).toContain('SAVE');
    expect(lastEvents).toContain('xstate.done.actor.save');
    expect(lastEvents).toContain('xstate.error.actor.save');
  });

  it.each(withoutPrefixes(paths).map((path) => [path.steps.map((step) => ('dow' in step.event ? `${step.event.type}(${step.event.dow})` : step.event.type)).join(' → ') || '(initial)', path] as const))(
    'reaches %s',
    async (_, path) => {
      const run: PathRun = { pendingSave: null };
      useClient(availability, run);
      const user = userEvent.setup({ delay: null });
      const view = renderWithServices(<ClientDetailsModal clientId={11} onClose={() => {}} />);
      try {
        await screen.findByTestId('availability-editor');
        await expectUserSees(path.steps[0]?.state ?? path.state, undefined);
        for (const step of path.steps) {
          await perform(step.event, run, user);
          await expectUserSees(step.state, step.event.type);
        }
      } finally {
        run.pendingSave?.resolve('ok');
        view.unmount();
      }
    },
  );
});
