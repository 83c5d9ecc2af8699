// "Optimise" on the day schedule: the dialog's choices, the run's progress and cancel, the proposal (KPIs, unplaced
// visits, lanes before/after, map, changes), apply (the day refreshes, a toast says what changed), a 409 on apply,
// discard, and a start the server refuses.
import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jobRunMachine } from '../../src/machines/jobRun';
import { SCHEDULE_CHANGED } from '../../src/machines/optimizationRun';
import { DISCARDED_MESSAGE } from '../../src/features/schedule/mutations';
import { at, makeProposal, makeRoute, makeRun, RUN_DAY } from '../../src/testing/optimizations';
import { received as sent, server } from './support/fakeApi';
import { deferred } from './support/fixtures';
import { useFakeApi } from './support/harness';
import { freshFake, json, refusal, renderDaySchedule, runBody, serveRoutes, type RoutesFake } from './support/routesFakeApi';

useFakeApi();
let fake: RoutesFake;
beforeEach(() => {
  fake = freshFake();
  serveRoutes(server, fake);
});

const fastPolling = { jobRun: jobRunMachine.provide({ delays: { pollInterval: 20 } }) };
const posted = (path: string) => sent.filter((request) => request.method === 'POST' && request.path === `/api${path}`);
const reads = (path: string) => sent.filter((request) => request.method === 'GET' && request.path === `/api${path}`).length;
const dialog = () => screen.getByTestId('optimise-dialog');
const step = () => within(dialog()).getByTestId('optimise-step').getAttribute('data-step');

async function openDialog(options: Parameters<typeof renderDaySchedule>[0] = {}) {
  const user = userEvent.setup();
  const view = renderDaySchedule({ machines: fastPolling, ...options });
  await user.click(await screen.findByRole('button', { name: 'Optimise' }));
  await screen.findByTestId('optimise-dialog');
  // The defaults come from the day's visits.
  await waitFor(() => expect(within(dialog()).getByTestId('optimise-visit-count')).toHaveTextContent('5 visits'));
  return { user, view };
}

async function reachProposal(user: ReturnType<typeof userEvent.setup>) {
  await user.click(within(dialog()).getByRole('button', { name: 'Start' }));
  await within(dialog()).findByTestId('proposal-kpis');
}

describe('the Optimise dialog', () => {
  // A run closed while it solves (cancelled on the server) and a failed run with its reason are walked by
  // tests/model/optimization-run.model.test.tsx.
  it('offers the shown day, every active practitioner with visits that day, and both modes; Start sends them', async () => {
    const { user, view } = await openDialog();
    expect(screen.getByRole('dialog', { name: 'Optimise 25 Nov 2026' })).toBeInTheDocument();
    expect(within(dialog()).getByTestId('date-value')).toHaveTextContent('25 Nov 2026');
    // Jo's only visit is cancelled and Old Staff is inactive: neither is chosen.
    const practitioners = within(dialog()).getByTestId('optimise-practitioners');
    expect(within(practitioners).getAllByTestId('multiselect-tag').map((tag) => tag.textContent)).toEqual(['Pat Nguyen', 'Sam Lee']);
    expect(within(dialog()).getByRole('radio', { name: /Keep each visit's practitioner/ })).toBeChecked();
    await user.click(within(dialog()).getByRole('radio', { name: /Reassign between these practitioners/ }));

    await user.click(within(practitioners).getByRole('button'));
    const listbox = await screen.findByRole('listbox');
    expect(within(listbox).queryByRole('option', { name: 'Old Staff' })).toBeNull();
    await user.click(within(listbox).getByRole('option', { name: 'Jo Park' }));
    await user.keyboard('{Escape}');

    await user.click(within(dialog()).getByRole('button', { name: 'Start' }));
    await waitFor(() => expect(posted('/optimizations')).toHaveLength(1));
    expect(posted('/optimizations')[0].body).toEqual({ date: RUN_DAY, practitioner_ids: [7, 8, 9], mode: 'reassign' });
    view.unmount();
  });

  it('offers only "Keep each visit\'s practitioner" when the settings turn reassignment off', async () => {
    fake.allowReassignment = false;
    const { user, view } = await openDialog();
    await waitFor(() => expect(within(dialog()).getByTestId('optimise-mode-fixed')).toHaveTextContent("Keep each visit's practitioner."));
    expect(within(dialog()).queryByRole('radio')).toBeNull();
    await user.click(within(dialog()).getByRole('button', { name: 'Start' }));
    await waitFor(() => expect(posted('/optimizations')).toHaveLength(1));
    expect(posted('/optimizations')[0].body).toEqual({ date: RUN_DAY, practitioner_ids: [7, 8], mode: 'keep_practitioners' });
    view.unmount();
  });

  it('does not offer a day before today, and says why', async () => {
    const { user, view } = await openDialog();
    // The shown day has passed (the fake's day is in the past): the field says so.
    expect(within(dialog()).getByTestId('date-hint')).toHaveTextContent('25 Nov 2026 has passed. Days before today cannot be optimised: their visits have happened.');
    await user.click(within(dialog()).getByRole('button', { name: /^Day/ }));
    const passed = document.querySelector(`[role="gridcell"][data-day="${RUN_DAY}"]`)!;
    expect(passed).toHaveAttribute('data-disabled', 'true');
    expect(within(passed as HTMLElement).getByRole('button')).toBeDisabled();
    await user.keyboard('{Escape}');

    await user.click(within(dialog()).getByRole('button', { name: 'Tomorrow' }));
    expect(within(dialog()).getByTestId('date-hint')).toHaveTextContent(/^Days before today cannot be optimised: their visits have happened.$/);
    await user.click(within(dialog()).getByRole('button', { name: /^Day/ }));
    const today = document.querySelector('[role="gridcell"][data-today="true"]');
    if (today) expect(today).not.toHaveAttribute('data-disabled');
    const tomorrow = document.querySelector('[role="gridcell"][aria-selected="true"]')!;
    expect(tomorrow).not.toHaveAttribute('data-disabled');
    const cells = [...document.querySelectorAll('[role="gridcell"][data-day]')];
    const todayDay = tomorrow.getAttribute('data-day')!;
    for (const cell of cells) {
      if (cell.getAttribute('data-day')! < todayDay && cell !== today) expect(cell).toHaveAttribute('data-disabled', 'true');
    }
    view.unmount();
  });

  it('refuses to start without a day, sending nothing', async () => {
    const { user, view } = await openDialog();
    await user.click(within(dialog()).getByRole('button', { name: 'Clear date' }));
    expect(within(dialog()).getByTestId('date-value')).toHaveTextContent('Select a date');
    expect(within(dialog()).getByTestId('optimise-visit-count')).toHaveTextContent('Choose a day to see its visits.');
    await user.click(within(dialog()).getByRole('button', { name: 'Start' }));
    expect(within(dialog()).getByRole('alert')).toHaveTextContent('Choose the day to optimise.');
    expect(posted('/optimizations')).toHaveLength(0);
    view.unmount();
  });

  it('refuses to start without practitioners, and names each practitioner the server refuses (422)', async () => {
    fake.create = () => refusal(422, 'practitioner_ids: Pat Nguyen has no working hours on Wednesdays. Sam Lee has no start place with a map position.', [
      'practitioner_ids: Pat Nguyen has no working hours on Wednesdays: set them in Settings → Practitioners.',
      'practitioner_ids: Sam Lee has no start place with a map position: set one in Settings → Practitioners.',
    ]);
    const { user, view } = await openDialog();
    const practitioners = within(dialog()).getByTestId('optimise-practitioners');
    await user.click(within(practitioners).getByRole('button'));
    for (const name of ['Pat Nguyen', 'Sam Lee']) await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name }));
    await user.keyboard('{Escape}');
    await user.click(within(dialog()).getByRole('button', { name: 'Start' }));
    expect(within(dialog()).getByRole('alert')).toHaveTextContent('Choose at least one practitioner.');
    expect(posted('/optimizations')).toHaveLength(0);

    await user.click(within(practitioners).getByRole('button'));
    await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: 'Pat Nguyen' }));
    await user.keyboard('{Escape}');
    await user.click(within(dialog()).getByRole('button', { name: 'Start' }));
    const alert = await within(dialog()).findByText(/Pat Nguyen has no working hours/);
    expect(alert.closest('[role="alert"]')).toHaveTextContent(
      'Pat Nguyen has no working hours on Wednesdays: set them in Settings → Practitioners.Sam Lee has no start place with a map position: set one in Settings → Practitioners.',
    );
    expect(step()).toBe('configure');
    view.unmount();
  });

  it('says so when another run holds the day (409)', async () => {
    fake.create = () => refusal(409, 'An optimisation of Wednesday 25 November 2026 for Pat Nguyen has not finished yet (#30). Wait for it to finish, or cancel it, before starting another.');
    const { user, view } = await openDialog();
    await user.click(within(dialog()).getByRole('button', { name: 'Start' }));
    expect(await within(dialog()).findByRole('alert')).toHaveTextContent('has not finished yet (#30). Wait for it to finish, or cancel it');
    expect(within(dialog()).getByRole('button', { name: 'Start' })).toBeEnabled();
    view.unmount();
  });

  it("shows a waiting run its place in the queue until a worker takes it", async () => {
    const polled = [deferred<void>(), deferred<void>()];
    let polls = 0;
    fake.create = () => runBody(makeRun('PENDING', { runs_ahead: 1 }));
    fake.poll = async () => {
      const at = polls++;
      if (at < polled.length) await polled[at].promise;
      return runBody(at === 0 ? makeRun('PENDING', { runs_ahead: 0 }) : makeRun('INPROGRESS', { progress: { elapsed_ms: 400, best_travel_seconds: null, fraction: 0.1 } }));
    };
    const { user, view } = await openDialog();
    await user.click(within(dialog()).getByRole('button', { name: 'Start' }));
    expect(await within(dialog()).findByTestId('progress-place')).toHaveTextContent('2nd in line: 1 run ahead of it.');
    polled[0].resolve();
    await waitFor(() => expect(within(dialog()).getByTestId('progress-place')).toHaveTextContent('Next in line.'));
    polled[1].resolve();
    await waitFor(() => expect(within(dialog()).getByTestId('optimization-progress')).toHaveAttribute('data-status', 'INPROGRESS'));
    expect(within(dialog()).queryByTestId('progress-place')).toBeNull();
    view.unmount();
  });

  it('shows the progress while it solves (elapsed, best travel so far) and cancels it', async () => {
    const firstPoll = deferred<void>();
    fake.poll = async () => {
      await firstPoll.promise;
      return runBody(makeRun('INPROGRESS', { progress: { elapsed_ms: 3_400, best_travel_seconds: 16_943, fraction: 0.34, searches: 2 } }));
    };
    const { user, view } = await openDialog();
    await user.click(within(dialog()).getByRole('button', { name: 'Start' }));
    const progress = await within(dialog()).findByTestId('optimization-progress');
    // Created, not yet picked up by a worker.
    expect(progress).toHaveTextContent('Waiting for a free worker…');
    expect(within(progress).getByTestId('progress-best-travel')).toHaveTextContent('—');
    expect(within(progress).queryByTestId('progress-searches')).toBeNull();
    firstPoll.resolve();
    await waitFor(() => expect(within(progress).getByTestId('progress-elapsed')).toHaveTextContent('3 s'));
    expect(within(progress).getByTestId('progress-best-travel')).toHaveTextContent('4 h 42 min');
    expect(within(progress).getByRole('progressbar', { name: 'Search time used' })).toHaveAttribute('aria-valuenow', '34');
    expect(progress).toHaveTextContent('Looking for shorter routes…');
    expect(within(progress).getByTestId('progress-searches')).toHaveTextContent('2 searches side by side');

    await user.click(within(dialog()).getByRole('button', { name: 'Cancel optimisation' }));
    expect(await within(dialog()).findByText('The optimisation was cancelled. Nothing was changed.')).toBeInTheDocument();
    expect(posted('/optimizations/31/cancel')).toHaveLength(1);
    await user.click(within(dialog()).getByRole('button', { name: 'Change and start again' }));
    expect(within(dialog()).getByRole('button', { name: 'Start' })).toBeInTheDocument();
    view.unmount();
  });
});

describe('the proposal', () => {
  it('shows the KPIs before → after, the unplaced visits with their reason, the lanes and routes before and after, and the changes', async () => {
    const { user, view } = await openDialog();
    await reachProposal(user);
    const kpi = (key: string) => within(dialog()).getByTestId(`kpi-${key}`);
    // Before, after and the change (on a phone the change is also said under the figure after).
    const figures = (key: string) => within(kpi(key)).getAllByRole('cell').map((cell) => cell.firstChild?.textContent);
    expect(figures('travel_seconds')).toEqual(['6 h 12 min', '4 h 42 min', '−1 h 30 min']);
    expect(kpi('travel_seconds')).toHaveAttribute('data-trend', 'better');
    expect(figures('travel_metres')).toEqual(['185 km', '135 km', '−50 km']);
    expect(figures('idle_seconds')[1]).toBe('2 h 03 min');
    expect(figures('outside_availability')).toEqual(['1', '0', '−1']);
    expect(figures('overtime_seconds')).toEqual(['0 min', '0 min', 'same']);
    expect(figures('working_spread_seconds')).toEqual(['3 h 10 min', '1 h 40 min', '−1 h 30 min']);
    expect(kpi('unplaced')).toHaveAttribute('data-trend', 'worse');
    expect(within(dialog()).getByTestId('proposal-unplaced')).toHaveTextContent("Evan Fox: The visit has no map position: correct the client's address.");

    // After: Pat visits Bert first, Margaret keeps her time; Dora moved to Sam. The map draws every stop with a position.
    const stopsOf = (name: string) => within(within(dialog()).getByRole('listitem', { name })).getAllByTestId('proposal-stop').map((stop) => stop.getAttribute('aria-label'));
    expect(within(dialog()).getByTestId('proposal-lanes')).toHaveAttribute('data-side', 'after');
    expect(stopsOf('Pat Nguyen')).toEqual(['08:30 Bert Smith, changed', '09:00 Margaret Jones, kept at this time']);
    expect(stopsOf('Sam Lee')).toEqual(['12:00 Cora Diaz, started or about to: stays as it is', '15:05 Dora Ellis, changed']);
    const map = within(dialog()).getByTestId('svg-map');
    // Pat's home (start and end), Sam's home and end place, and the four stops with a position, each route in its order.
    const markers = () => within(within(dialog()).getByTestId('svg-map')).getAllByTestId('map-marker');
    expect(markers().map((marker) => marker.getAttribute('data-kind')).sort()).toEqual(['end', 'start', 'startEnd', 'stop', 'stop', 'stop', 'stop']);
    expect(within(map).getAllByTestId('map-route')).toHaveLength(2);
    const stopPins = () => markers().filter((marker) => marker.getAttribute('data-kind') === 'stop').map((marker) => marker.textContent);
    expect(stopPins()).toEqual(['Pat Nguyen: Bert Smith1', 'Pat Nguyen: Margaret Jones2', 'Sam Lee: Cora Diaz1', 'Sam Lee: Dora Ellis2']);

    await user.click(within(dialog()).getByRole('button', { name: 'Before' }));
    expect(within(dialog()).getByTestId('proposal-lanes')).toHaveAttribute('data-side', 'before');
    expect(stopsOf('Pat Nguyen')).toEqual(['09:00 Margaret Jones, kept at this time', "10:30 Bert Smith, outside the client's availability", '14:00 Dora Ellis']);
    expect(stopPins()).toEqual(['Pat Nguyen: Margaret Jones1', 'Pat Nguyen: Bert Smith2', 'Pat Nguyen: Dora Ellis3', 'Sam Lee: Cora Diaz1']);

    const rows = within(within(dialog()).getByTestId('proposal-changes')).getAllByTestId('proposal-change');
    // The biggest moves from the agreed time first, each with its practitioners' roles and its reasons.
    expect(rows.map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent))).toEqual([
      ['Bert SmithHome visit', '−2 h 00 minagreed 10:30', '10:30 → 08:30', 'Pat NguyenRegistered Nurse', "Travel savedSaves 10 min of travel: travel on Pat Nguyen's day 50 → 40 min."],
      ['Dora EllisHome visit→ Sam Lee', '+1 h 05 minagreed 14:00', '14:00 → 15:05', 'Pat NguyenRegistered Nurse→Sam LeeEnrolled Nurse',
        'LeavePat Nguyen is on leave 13:00–17:00.Preferred practitioner not keptNot with Pat Nguyen, whom Dora Ellis prefers: Pat Nguyen is on leave then.'],
    ]);
    view.unmount();
  });

  it('shows the rules before → after, hard rules first and the untouched ones in one line, and the problems left after', async () => {
    const { user, view } = await openDialog();
    await reachProposal(user);
    const rules = within(within(dialog()).getByRole('region', { name: 'Rules' }));
    expect(rules.getAllByTestId('proposal-rule').map((row) => [row.textContent, row.getAttribute('data-trend')])).toEqual([
      ['A practitioner in two places at once1 → 1', 'same'],
      ["Outside the client's availability1 → 0", 'better'],
      ['Outside working hourssoft0 → 1', 'worse'],
    ]);
    expect(rules.getByTestId('proposal-rules-others')).toHaveTextContent('No other problems.');
    expect(rules.getByRole('heading', { name: '2 problems left after' })).toBeInTheDocument();
    expect(rules.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Sam Lee has two visits at once: Cora Diaz 12:00–13:00 and Evan Fox 12:30–13:00.Show visit 1Show visit 2',
      "Dora Ellis 15:05–15:50 is outside Sam Lee's working hours (08:00–15:30).softShow the visit",
    ]);
    // A problem's visit is shown on the "after" lanes (outlined) and on the map (a pin of its own).
    await user.click(rules.getByRole('button', { name: 'Show the visit' }));
    expect(within(dialog()).getByTestId('proposal-lanes')).toHaveAttribute('data-side', 'after');
    const focused = within(dialog()).getAllByTestId('proposal-stop').filter((stop) => stop.hasAttribute('data-focused'));
    expect(focused.map((stop) => stop.getAttribute('aria-label'))).toEqual(['15:05 Dora Ellis, changed']);
    expect(within(dialog()).getByTestId('proposal-map')).toHaveAttribute('data-focused', '4');
    view.unmount();
  });

  it('says a day without problems has none, and shows no rules for a proposal made before the rule book', async () => {
    const clean = makeProposal().checks!;
    const quiet = { ...clean, counts: clean.counts.map((count) => ({ ...count, before: 0, after: 0 })), before: [], after: [] };
    fake.poll = () => runBody(makeRun('COMPLETE', { proposal: makeProposal({ checks: quiet }) }));
    const { user, view } = await openDialog();
    await reachProposal(user);
    const rules = within(within(dialog()).getByRole('region', { name: 'Rules' }));
    expect(rules.getByTestId('proposal-rules-none')).toHaveTextContent('No problems with the rules, before or after.');
    expect(rules.queryByRole('listitem')).toBeNull();
    await user.click(within(dialog()).getByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(screen.queryByTestId('optimise-dialog')).toBeNull());

    fake.poll = () => runBody(makeRun('COMPLETE', { proposal: makeProposal({ checks: undefined }) }));
    await user.click(screen.getByRole('button', { name: 'Optimise' }));
    await reachProposal(user);
    expect(within(dialog()).queryByRole('region', { name: 'Rules' })).toBeNull();
    view.unmount();
  });

  it('applies it: the dialog closes, the day and its routes are read again and a toast says what changed', async () => {
    const { user, view } = await openDialog();
    await reachProposal(user);
    const listReads = reads('/appointments');
    const routeReads = reads('/routes');
    const issueReads = reads('/schedule/issues');
    const answer = deferred<void>();
    const apply = fake.apply;
    fake.apply = async (request) => {
      await answer.promise;
      return apply(request);
    };
    await user.click(within(dialog()).getByRole('button', { name: 'Apply' }));
    expect(within(dialog()).getByRole('button', { name: 'Applying…' })).toBeDisabled();
    expect(within(dialog()).getByRole('button', { name: 'Discard' })).toBeDisabled();
    answer.resolve();
    await waitFor(() => expect(screen.queryByTestId('optimise-dialog')).toBeNull());
    expect(posted('/optimizations/31/apply')).toHaveLength(1);
    expect(await screen.findByText('Optimisation of 25 Nov 2026 applied: 2 visits changed (1 to another practitioner), 2 routes, travel 6 h 12 min → 4 h 42 min.')).toBeInTheDocument();
    await waitFor(() => expect(reads('/appointments')).toBeGreaterThan(listReads));
    await waitFor(() => expect(reads('/routes')).toBeGreaterThan(routeReads));
    // The day is checked by the rule book again: its banner shows the day as applied.
    await waitFor(() => expect(reads('/schedule/issues')).toBeGreaterThan(issueReads));
    view.unmount();
  });

  it('says in words which rules applying would now break (409 RULES_BROKEN), and offers to run the day again', async () => {
    const broken = "The day has changed since this proposal was made, and applying it now would break the rules: Bert Smith has two visits at once: 08:30–09:00 with Pat Nguyen and 08:45–09:45 with Jo Park. Run the optimisation again.";
    fake.apply = () => json({ message: broken, code: 'RULES_BROKEN' }, 409);
    const { user, view } = await openDialog();
    await reachProposal(user);
    await user.click(within(dialog()).getByRole('button', { name: 'Apply' }));
    expect(await within(dialog()).findByRole('alert')).toHaveTextContent(broken);
    expect(within(dialog()).queryByRole('button', { name: 'Apply' })).toBeNull();
    expect(within(dialog()).getByRole('button', { name: 'Run again' })).toBeInTheDocument();
    view.unmount();
  });

  it('says the schedule changed when apply answers 409, changes nothing, and runs the day again on request', async () => {
    fake.apply = () => refusal(409, SCHEDULE_CHANGED);
    const { user, view } = await openDialog();
    await reachProposal(user);
    await user.click(within(dialog()).getByRole('button', { name: 'Apply' }));
    expect(await within(dialog()).findByRole('alert')).toHaveTextContent('The schedule changed since this proposal was made. Run the optimisation again.');
    expect(within(dialog()).queryByRole('button', { name: 'Apply' })).toBeNull();
    expect(screen.queryAllByTestId('toast')).toHaveLength(0);
    await user.click(within(dialog()).getByRole('button', { name: 'Run again' }));
    await within(dialog()).findByTestId('proposal-kpis');
    expect(posted('/optimizations').map((request) => request.body)).toEqual([
      { date: RUN_DAY, practitioner_ids: [7, 8], mode: 'keep_practitioners' },
      { date: RUN_DAY, practitioner_ids: [7, 8], mode: 'keep_practitioners' },
    ]);
    view.unmount();
  });

  it('takes the focus to its heading when it appears, naming how many visits change', async () => {
    const { user, view } = await openDialog();
    await user.click(within(dialog()).getByRole('button', { name: 'Start' }));
    const heading = await within(dialog()).findByTestId('proposal-heading');
    expect(heading).toHaveTextContent('The proposal: 2 visits change, 1 not placed');
    await waitFor(() => expect(heading).toHaveFocus());
    view.unmount();
  });

  it('asks "Discard this proposal?" on Escape or Close, keeps it on "Keep the proposal" and discards it only on Discard', async () => {
    const { user, view } = await openDialog();
    await reachProposal(user);
    await user.keyboard('{Escape}');
    const question = await screen.findByRole('alertdialog', { name: 'Discard this proposal?' });
    await user.click(within(question).getByRole('button', { name: 'Keep the proposal' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(within(dialog()).getByTestId('proposal-kpis')).toBeInTheDocument();
    expect(posted('/optimizations/31/discard')).toHaveLength(0);

    await user.click(within(dialog()).getByRole('button', { name: 'Close' }));
    await user.click(within(await screen.findByRole('alertdialog', { name: 'Discard this proposal?' })).getByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(screen.queryByTestId('optimise-dialog')).toBeNull());
    expect(posted('/optimizations/31/discard')).toHaveLength(1);
    expect(await screen.findByText(DISCARDED_MESSAGE)).toBeInTheDocument();
    view.unmount();
  });

  it('discards it: nothing is applied and a toast says nothing changed', async () => {
    const { user, view } = await openDialog();
    await reachProposal(user);
    await user.click(within(dialog()).getByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(screen.queryByTestId('optimise-dialog')).toBeNull());
    expect(await screen.findByText(DISCARDED_MESSAGE)).toBeInTheDocument();
    expect(posted('/optimizations/31/discard')).toHaveLength(1);
    expect(posted('/optimizations/31/apply')).toHaveLength(0);
    view.unmount();
  });
});

describe('another plan of the day', () => {
  it('says which plan of the day it is and its seed, and "Try another plan" discards it and runs the same request again', async () => {
    let created = 0;
    fake.create = () => runBody(makeRun('PENDING', { seed: created++ === 0 ? 4821 : 5307, plan_number: created }));
    fake.poll = () => runBody(makeRun('COMPLETE', created === 1 ? { seed: 4821, plan_number: 1 } : { id: 31, seed: 5307, plan_number: 2 }));
    const { user, view } = await openDialog();
    await reachProposal(user);
    expect(within(dialog()).getByTestId('proposal-plan')).toHaveTextContent('Plan 1 of this day · seed 4821');
    await user.click(within(dialog()).getByRole('button', { name: 'Try another plan' }));
    await waitFor(() => expect(within(dialog()).getByTestId('proposal-plan')).toHaveTextContent('Plan 2 of this day · seed 5307'));
    expect(posted('/optimizations/31/discard')).toHaveLength(1);
    const starts = posted('/optimizations');
    expect(starts).toHaveLength(2);
    // The same request; the server gives the new run a new seed.
    expect(starts[1].body).toEqual(starts[0].body);
    expect(starts[1].body).not.toHaveProperty('seed');
    view.unmount();
  });
});

describe('a run of several days', () => {
  it('takes a "To" day, says which day it is on, shows the days together and each day, and applies them together', async () => {
    const NEXT_DAY = '2026-11-26';
    const days = [makeProposal(), makeProposal({ date: NEXT_DAY, changes: [] })];
    const week = { end_date: NEXT_DAY, days, proposal: days[0] };
    const firstPoll = deferred<void>();
    let polls = 0;
    fake.create = () => runBody(makeRun('PENDING', { end_date: NEXT_DAY }));
    fake.poll = async () => {
      await firstPoll.promise;
      return ++polls === 1
        ? runBody(makeRun('INPROGRESS', { end_date: NEXT_DAY, progress: { elapsed_ms: 1_200, best_travel_seconds: 9_000, fraction: 0.8, day_index: 2, day_count: 2, date: NEXT_DAY } }))
        : runBody(makeRun('COMPLETE', week));
    };
    fake.apply = () => json({ optimization: makeRun('COMPLETE', { ...week, applied_at: at('06:05'), applied_by_name: 'Alex Taylor' }), routes: [makeRoute()] });
    const { user, view } = await openDialog();
    const to = within(dialog()).getByRole('combobox', { name: 'To' });
    expect(to).toHaveDisplayValue('The same day (one day)');
    await user.selectOptions(to, 'Thu 26 Nov (2 days)');
    expect(screen.getByRole('dialog', { name: 'Optimise 25 Nov 2026 – 26 Nov 2026' })).toBeInTheDocument();
    await user.click(within(dialog()).getByRole('button', { name: 'Start' }));
    expect(posted('/optimizations')[0].body).toMatchObject({ date: RUN_DAY, end_date: NEXT_DAY });

    firstPoll.resolve();
    expect(await within(dialog()).findByTestId('progress-day')).toHaveTextContent('Day 2 of 2 — Thu 26 Nov');
    await within(dialog()).findByTestId('proposal-week-kpis');
    expect(within(dialog()).getByTestId('proposal-days-heading')).toHaveTextContent('The proposal for 2 days: 2 visits change');
    expect(within(dialog()).getByTestId('proposal-days-heading')).toHaveFocus();
    // The days' travel added up: 6 h 12 min → 4 h 42 min each day, each a little over (the seconds add up).
    expect(within(within(dialog()).getByTestId('proposal-week-kpis')).getByTestId('kpi-travel_seconds')).toHaveTextContent('12 h 25 min9 h 25 min');
    const buttons = within(dialog()).getAllByTestId('proposal-day');
    expect(buttons.map((button) => button.textContent)).toEqual(['Wed 25 Nov(2 changes)', 'Thu 26 Nov(0 changes)']);
    expect(buttons[0]).toHaveAttribute('aria-pressed', 'true');
    await user.click(buttons[1]);
    expect(within(dialog()).getByTestId('proposal-day-shown')).toHaveAttribute('data-date', NEXT_DAY);
    expect(within(within(dialog()).getByTestId('proposal-day-shown')).getByText('The proposal keeps every visit as it is.')).toBeInTheDocument();

    await user.click(within(dialog()).getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(screen.queryByTestId('optimise-dialog')).toBeNull());
    expect(posted('/optimizations/31/apply')).toHaveLength(1);
    expect(await screen.findByText(/^Optimisation of 25 Nov 2026 – 26 Nov 2026 applied: 2 visits changed \(1 to another practitioner\), 1 route, travel 12 h 25 min → 9 h 25 min\.$/)).toBeInTheDocument();
    view.unmount();
  });
});

describe('a week that fits the roster', () => {
  it('says which days have nothing to plan, names who is called in and who is not planned, and the carers per client', async () => {
    const [second, third] = ['2026-11-26', '2026-11-27'];
    const days = [
      makeProposal({ called_in: [{ practitioner_id: 7, practitioner_name: 'Ava Burke', visits: 4, working_seconds: 11_400, message: 'Calls in Ava Burke on Wednesday 25: 4 visits, 3 h 10.' }] }),
      makeProposal({
        date: second, lanes: [], changes: [], empty_day: { reason: 'nobody-works', message: 'Thursday 26: nobody works.' },
        not_routed: [{ practitioner_id: 8, practitioner_name: 'Sam Lee', visits: 1, message: 'Sam Lee has 1 visit on Thursday 26 but no working hours on Thursdays: they stay as they are.' }],
      }),
      makeProposal({ date: third, lanes: [], changes: [], empty_day: { reason: 'no-visits', message: 'Friday 27: no visits.' } }),
    ];
    const continuity = { clients: 5, carers_before: 9, carers_after: 6, mean_carers_before: 1.8, mean_carers_after: 1.2, clients_with_fewer_carers: 3, clients_with_more_carers: 0 };
    fake.create = () => runBody(makeRun('PENDING', { end_date: third }));
    fake.poll = () => runBody(makeRun('COMPLETE', { end_date: third, days, proposal: days[0], continuity }));
    const { user, view } = await openDialog();
    await user.selectOptions(within(dialog()).getByRole('combobox', { name: 'To' }), 'Fri 27 Nov (3 days)');
    await user.click(within(dialog()).getByRole('button', { name: 'Start' }));
    await within(dialog()).findByTestId('proposal-week-kpis');
    expect(within(dialog()).getByTestId('proposal-continuity')).toHaveTextContent('Distinct carers per client over these days: 1.8 → 1.2 (3 see fewer).');
    expect(within(dialog()).getAllByTestId('proposal-day').map((button) => button.textContent))
      .toEqual(['Wed 25 Nov(2 changes)', 'Thu 26 Nov(nobody works)', 'Fri 27 Nov(no visits)']);
    expect(within(dialog()).getByTestId('proposal-called-in')).toHaveTextContent('Calls in Ava Burke on Wednesday 25: 4 visits, 3 h 10.');
    await user.click(within(dialog()).getAllByTestId('proposal-day')[1]);
    const shown = within(within(dialog()).getByTestId('proposal-day-shown'));
    expect(shown.getByTestId('proposal-empty-day')).toHaveTextContent('Thursday 26: nobody works. Nothing to plan that day.');
    expect(shown.getByTestId('proposal-not-routed')).toHaveTextContent(/^Sam Lee has 1 visit on Thursday 26 but no working hours/);
    expect(shown.queryByTestId('proposal-kpis')).toBeNull();
    view.unmount();
  });
});

describe('telling the clients whose arrival moves', () => {
  // Arrivals ahead of now (the rule tells only those): Bert's moves 45 min; Dora's 10 min (under the 15 min setting),
  // but she goes from Pat to Sam, and a new practitioner is told however little the time moves.
  const ahead = (minutes: number) => new Date(Math.floor(Date.now() / 60_000) * 60_000 + minutes * 60_000).toISOString();
  const moving = () => makeProposal({
    changes: makeProposal().changes.map((change) => (change.appointment_id === 2
      ? { ...change, old_arrive_at: ahead(120), new_arrive_at: ahead(165) }
      : { ...change, old_arrive_at: ahead(200), new_arrive_at: ahead(210) })),
  });

  it('lists the clients moved by 15 min or more, and Apply tells them only when ticked (off for a day other than today)', async () => {
    const proposal = moving();
    fake.poll = () => runBody(makeRun('COMPLETE', { proposal, days: [proposal] }));
    fake.apply = () => json({ optimization: makeRun('COMPLETE', { proposal, days: [proposal], applied_at: at('06:05'), applied_by_name: 'Alex Taylor' }), routes: [makeRoute()], clients_told: 1 });
    const { user, view } = await openDialog();
    await reachProposal(user);
    const told = within(dialog()).getByTestId('clients-to-tell');
    expect(within(told).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      expect.stringMatching(/^Bert Smith: \d\d:\d\d → \d\d:\d\d$/), expect.stringMatching(/^Dora Ellis: \d\d:\d\d → \d\d:\d\d, now with Sam Lee$/),
    ]);
    const tell = within(dialog()).getByRole('checkbox', { name: /Tell these 2 clients the new arrival time when I apply/ });
    expect(tell).not.toBeChecked();
    await user.click(tell);
    await user.click(within(dialog()).getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(posted('/optimizations/31/apply')).toHaveLength(1));
    expect(posted('/optimizations/31/apply')[0].body).toEqual({ notify_clients: true });
    expect(await screen.findByText(/One client is being told the new arrival time\.$/)).toBeInTheDocument();
    view.unmount();
  });

  it('applies without telling anyone when left unticked, and lists nobody when no arrival moves enough', async () => {
    const proposal = moving();
    fake.poll = () => runBody(makeRun('COMPLETE', { proposal, days: [proposal] }));
    const first = await openDialog();
    await reachProposal(first.user);
    await first.user.click(within(dialog()).getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(posted('/optimizations/31/apply')).toHaveLength(1));
    expect(posted('/optimizations/31/apply')[0].body ?? null).toBeNull();
    first.view.unmount();

    fake.poll = () => runBody(makeRun('COMPLETE'));
    const second = await openDialog();
    await reachProposal(second.user);
    expect(within(dialog()).queryByTestId('clients-to-tell')).toBeNull();
    second.view.unmount();
  });
});

describe('who may optimise', () => {
  it('a practitioner sees the day schedule without "Optimise"', async () => {
    const view = renderDaySchedule({ role: 'PRACTITIONER' });
    await screen.findAllByTestId('schedule-lane');
    expect(screen.queryByRole('button', { name: 'Optimise' })).toBeNull();
    view.unmount();
  });

  it('staff (REGULAR_USER) may optimise', async () => {
    const view = renderDaySchedule({ role: 'REGULAR_USER' });
    expect(await screen.findByRole('button', { name: 'Optimise' })).toBeInTheDocument();
    view.unmount();
  });
});
