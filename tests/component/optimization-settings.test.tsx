// /settings/optimization-settings: an admin reads the settings (the defaults until saved), changes the rules, picks what
// matters most as a plain choice whose weights show under Advanced (typing a weight makes it Custom), and saves only
// what changed; problems show under their field, ours before saving and the server's 422 after.
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { components } from '../../src/api/schema';
import { server } from './support/fakeApi';
import { routeQueries } from '../../src/entities/routes/queries';
import { currentPath, renderApp, renderPage, useFakeApi } from './support/harness';
import type { AppServices } from '../../src/app/services';
import OptimizationSettingsPage from '../../src/features/settings/optimization-settings/OptimizationSettingsPage';

useFakeApi();

type Settings = components['schemas']['OptimizationSettings'];

const PRESETS: Settings['preset_weights'] = {
  shortest_travel: { travel_time: 1, distance: 0, continuity: 0, lateness: 0, overtime: 0 },
  balanced: { travel_time: 1, distance: 0, continuity: 0.25, lateness: 0.5, overtime: 1 },
  punctual: { travel_time: 1, distance: 0, continuity: 0.25, lateness: 5, overtime: 2 },
  continuity: { travel_time: 1, distance: 0, continuity: 2, lateness: 0.5, overtime: 1 },
};

function serveSettings({ refuse }: { refuse?: Response } = {}) {
  let settings: Settings = {
    availability_mode: 'hard', max_lateness_minutes: 30, overtime_minutes: 0, visit_buffer_minutes: 0, arrival_rounding_minutes: 5,
    preset: 'balanced', weights: { ...PRESETS.balanced }, search_seconds: 10, allow_reassignment: true, fixed_before_minutes: 30, tolerance_minutes: 30, client_gap_minutes: 60, preset_weights: PRESETS, updated_at: null,
    balance_workload: false, balance_weight: 10, move_price: 0.25,
    call_in_min_visits: 3, call_in_min_minutes: 180,
  };
  const puts: Record<string, unknown>[] = [];
  server.use(
    http.get('*/api/optimization_settings', () => HttpResponse.json({ optimization_settings: settings })),
    http.put('*/api/optimization_settings', async ({ request }) => {
      const body = (await request.json()) as Partial<Settings>;
      puts.push(body);
      if (refuse) return refuse;
      const preset = body.preset ?? (body.weights ? 'custom' : settings.preset);
      const weights = preset === 'custom' ? (body.weights ?? settings.weights) : PRESETS[preset];
      settings = { ...settings, ...body, preset, weights, updated_at: '2026-11-23T06:03:00Z' };
      return HttpResponse.json({ optimization_settings: settings });
    }),
  );
  return puts;
}

let app: { services: AppServices };

/** The page alone, or (`inApp`) in the whole app, to leave it through the sidebar. */
async function openPage({ inApp = false } = {}) {
  const user = userEvent.setup();
  const path = '/settings/optimization-settings';
  app = inApp ? renderApp(path, { as: 'ADMIN' }) : renderPage(OptimizationSettingsPage, { path, role: 'ADMIN' });
  await screen.findByRole('form', { name: 'Optimisation settings' });
  return user;
}

const weight = (name: string) => screen.getByLabelText(name, { exact: true, selector: 'input' });
const weights = () => ['Travel time', 'Distance', 'Continuity', 'Lateness', 'Overtime'].map((name) => (weight(name) as HTMLInputElement).value);

describe('optimisation settings', () => {
  it('shows the defaults, and saves only what changed with a toast', async () => {
    const puts = serveSettings();
    const user = await openPage();
    expect(screen.getByRole('radio', { name: /^Hard: every visit starts inside/ })).toBeChecked();
    expect(screen.getByLabelText('How late at most (minutes)')).toBeDisabled();
    expect(screen.getByLabelText('Arrival rounding')).toHaveValue('5');
    expect(screen.getByRole('radio', { name: /^Balanced/ })).toBeChecked();
    expect(screen.getByLabelText(/^Offer reassigning visits/)).toBeChecked();
    expect(screen.getByText('These are the defaults: nothing has been saved yet.')).toBeInTheDocument();

    await user.click(screen.getByRole('radio', { name: /^Soft: a visit may start late/ }));
    await user.clear(screen.getByLabelText('How late at most (minutes)'));
    await user.type(screen.getByLabelText('How late at most (minutes)'), '20');
    await user.type(screen.getByLabelText('Buffer per visit (minutes)'), '5');
    await user.selectOptions(screen.getByLabelText('Arrival rounding'), '15 minutes');
    await user.clear(screen.getByLabelText('Default search time (seconds)'));
    await user.type(screen.getByLabelText('Default search time (seconds)'), '30');
    await user.click(screen.getByLabelText(/^Offer reassigning visits/));
    const fixedBefore = screen.getByLabelText('Visits starting within … minutes stay as they are');
    expect(fixedBefore).toHaveValue(30);
    await user.clear(fixedBefore);
    await user.type(fixedBefore, '45');
    expect(screen.getByText('You have unsaved changes.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('The optimisation settings have been saved.')).toBeInTheDocument();
    expect(puts).toEqual([{
      availability_mode: 'soft', max_lateness_minutes: 20, visit_buffer_minutes: 5, arrival_rounding_minutes: 15, search_seconds: 30, allow_reassignment: false,
      fixed_before_minutes: 45,
    }]);
    await waitFor(() => expect(screen.queryByText('You have unsaved changes.')).toBeNull());
    expect(screen.getByText('Last saved 23 Nov 2026 16:03.')).toBeInTheDocument();
    expect(screen.getByLabelText('Buffer per visit (minutes)')).toHaveValue(5);
  });

  it('shows a plain choice’s weights under Advanced, and turns Custom when a weight is typed', async () => {
    const puts = serveSettings();
    const user = await openPage();
    expect(screen.queryByLabelText('Lateness', { exact: true })).toBeNull();
    await user.click(screen.getByRole('button', { name: /Advanced/ }));
    expect(weights()).toEqual(['1', '0', '0.25', '0.5', '1']);

    await user.click(screen.getByRole('radio', { name: /^Arrive on time/ }));
    expect(weights()).toEqual(['1', '0', '0.25', '5', '2']);
    await user.click(screen.getByRole('radio', { name: /^Keep clients with their usual practitioner/ }));
    expect(weights()).toEqual(['1', '0', '2', '0.5', '1']);
    expect(screen.queryByRole('radio', { name: /^Custom/ })).toBeNull();

    await user.clear(weight('Distance'));
    await user.type(weight('Distance'), '0.1');
    expect(screen.getByRole('radio', { name: /^Custom/ })).toBeChecked();
    expect(screen.getByRole('radio', { name: /^Keep clients/ })).not.toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('The optimisation settings have been saved.');
    expect(puts).toEqual([{ preset: 'custom', weights: { travel_time: 1, distance: 0.1, continuity: 2, lateness: 0.5, overtime: 1 } }]);

    // Back to a plain choice: its name is sent, and its weights come back.
    await user.click(screen.getByRole('radio', { name: /^Shortest travel/ }));
    expect(weights()).toEqual(['1', '0', '0', '0', '0']);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(puts).toHaveLength(2));
    expect(puts[1]).toEqual({ preset: 'shortest_travel' });
  });

  it('balances the day as a plain choice, its weight under Advanced, without making the choice Custom', async () => {
    const puts = serveSettings();
    const user = await openPage();
    const balance = screen.getByLabelText(/^Balance the day between practitioners/);
    expect(balance).not.toBeChecked();
    await user.click(balance);
    await user.click(screen.getByRole('button', { name: /Advanced/ }));
    const balanceWeight = screen.getByLabelText('Balance between practitioners');
    expect(balanceWeight).toHaveValue(10);
    await user.clear(balanceWeight);
    await user.type(balanceWeight, '1001');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(balanceWeight).toHaveAccessibleDescription(expect.stringMatching(/A number from 0 to 1000/));
    expect(puts).toEqual([]);
    await user.clear(balanceWeight);
    await user.type(balanceWeight, '20');
    expect(screen.getByRole('radio', { name: /^Balanced/ })).toBeChecked();
    expect(screen.queryByRole('radio', { name: /^Custom/ })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('The optimisation settings have been saved.');
    expect(puts).toEqual([{ balance_workload: true, balance_weight: 20 }]);
    await waitFor(() => expect(screen.getByLabelText(/^Balance the day between practitioners/)).toBeChecked());
  });

  it('says what is wrong under each field, sends nothing, and can discard the changes', async () => {
    const puts = serveSettings();
    const user = await openPage();
    await user.click(screen.getByRole('radio', { name: /^Soft/ }));
    await user.clear(screen.getByLabelText('How late at most (minutes)'));
    await user.type(screen.getByLabelText('How late at most (minutes)'), '300');
    await user.clear(screen.getByLabelText('Overtime allowed (minutes)'));
    await user.clear(screen.getByLabelText('Default search time (seconds)'));
    await user.type(screen.getByLabelText('Default search time (seconds)'), '0');
    await user.click(screen.getByRole('button', { name: /Advanced/ }));
    await user.clear(weight('Lateness'));
    await user.type(weight('Lateness'), '1001');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(screen.getByLabelText('How late at most (minutes)')).toHaveAccessibleDescription('How late: a whole number of minutes from 0 to 240.');
    expect(screen.getByLabelText('Overtime allowed (minutes)')).toHaveAccessibleDescription(/^Overtime: a whole number of minutes from 0 to 240\./);
    expect(screen.getByLabelText('Default search time (seconds)')).toHaveAccessibleDescription(/^Search time: a whole number of seconds from 1 to 120\./);
    expect(weight('Lateness')).toHaveAccessibleDescription(/^A number from 0 to 1000\./);
    await waitFor(() => expect(screen.getByLabelText('How late at most (minutes)')).toHaveFocus());
    expect(puts).toEqual([]);

    // Every weight at 0 leaves nothing to improve.
    await user.click(screen.getByRole('radio', { name: /^Shortest travel/ }));
    await user.clear(weight('Travel time'));
    await user.type(weight('Travel time'), '0');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText('At least one weight must be above 0, or the optimiser has nothing to improve.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Discard changes' }));
    expect(screen.getByRole('radio', { name: /^Hard/ })).toBeChecked();
    expect(screen.getByLabelText('Default search time (seconds)')).toHaveValue(10);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(puts).toEqual([]);
  });

  it('shows the rules of home care, checks them like the other numbers, saves only what changed and has days checked again', async () => {
    const puts = serveSettings();
    const user = await openPage();
    // A day's problems read earlier (under the day lists' key): new rules make them out of date.
    const dayProblems = routeQueries.dayIssues(app.services.api, '2026-11-25').queryKey;
    app.services.queryClient.setQueryData(dayProblems, { counts: [], issues: [] });
    const rules = within(screen.getByRole('group', { name: 'Rules of home care' }));
    const tolerance = rules.getByLabelText('Arrivals may move up to … minutes from the booked time');
    const gap = rules.getByLabelText('At least … minutes between a client’s visits');
    expect(tolerance).toHaveValue(30);
    expect(gap).toHaveValue(60);

    await user.clear(tolerance);
    await user.type(tolerance, '721');
    await user.clear(gap);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(tolerance).toHaveAccessibleDescription(/^Arrivals may move: a whole number of minutes from 0 to 720\./);
    expect(gap).toHaveAccessibleDescription(/^Between a client’s visits: a whole number of minutes from 0 to 720\./);
    await waitFor(() => expect(tolerance).toHaveFocus());
    expect(puts).toEqual([]);

    await user.clear(tolerance);
    await user.type(tolerance, '45');
    await user.type(gap, '90');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The optimisation settings have been saved.')).toBeInTheDocument();
    expect(puts).toEqual([{ tolerance_minutes: 45, client_gap_minutes: 90 }]);
    await waitFor(() => expect(screen.getByLabelText('At least … minutes between a client’s visits')).toHaveValue(90));
    expect(app.services.queryClient.getQueryState(dayProblems)?.isInvalidated).toBe(true);
  });

  it('shows the call-in threshold, checks it like the other numbers and saves only what changed', async () => {
    const puts = serveSettings();
    const user = await openPage();
    const callIn = within(screen.getByRole('group', { name: 'Calling a practitioner in' }));
    const visits = callIn.getByLabelText('At least … visits');
    const minutes = callIn.getByLabelText('Or at least … minutes of work');
    expect(visits).toHaveValue(3);
    expect(minutes).toHaveValue(180);
    await user.clear(visits);
    await user.type(visits, '0');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(visits).toHaveAccessibleDescription(/^Visits that make a day worth opening: a whole number from 1 to 50\./);
    expect(puts).toEqual([]);
    await user.clear(visits);
    await user.type(visits, '4');
    await user.clear(minutes);
    await user.type(minutes, '0');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The optimisation settings have been saved.')).toBeInTheDocument();
    expect(puts).toEqual([{ call_in_min_visits: 4, call_in_min_minutes: 0 }]);
  });

  it('prices moving a visit from its agreed time: checked like the weights, saved on its own', async () => {
    const puts = serveSettings();
    const user = await openPage();
    const price = within(screen.getByRole('group', { name: 'Rules of home care' })).getByLabelText('Price of moving a visit from its agreed time');
    expect(price).toHaveValue(0.25);
    await user.clear(price);
    await user.type(price, '101');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(price).toHaveAccessibleDescription(/^Price of moving a visit: a number from 0 to 100\./);
    expect(puts).toEqual([]);
    await user.clear(price);
    await user.type(price, '0.5');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The optimisation settings have been saved.')).toBeInTheDocument();
    expect(puts).toEqual([{ move_price: 0.5 }]);
  });

  it('asks before the sidebar leaves unsaved changes, and leaves only when told to', async () => {
    const puts = serveSettings();
    const user = await openPage({ inApp: true });
    await user.click(screen.getByRole('radio', { name: /^Soft/ }));
    const sidebar = within(screen.getByRole('navigation', { name: 'Main' }));
    await user.click(sidebar.getByRole('link', { name: 'Dashboard' }));
    let question = await screen.findByRole('alertdialog', { name: 'Discard unsaved changes?' });
    expect(currentPath()).toBe('/settings/optimization-settings');
    await user.click(within(question).getByRole('button', { name: 'Keep editing' }));
    expect(screen.getByRole('radio', { name: /^Soft/ })).toBeChecked();

    await user.click(sidebar.getByRole('link', { name: 'Dashboard' }));
    question = await screen.findByRole('alertdialog', { name: 'Discard unsaved changes?' });
    await user.click(within(question).getByRole('button', { name: 'Discard changes' }));
    await waitFor(() => expect(currentPath()).toBe('/dashboard'));
    expect(puts).toEqual([]);
  });

  it('leaves without asking when nothing has changed', async () => {
    serveSettings();
    const user = await openPage({ inApp: true });
    await user.click(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'Dashboard' }));
    await waitFor(() => expect(currentPath()).toBe('/dashboard'));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('shows the server’s 422 under the field it names', async () => {
    const puts = serveSettings({
      refuse: HttpResponse.json(
        { message: 'Invalid request: search_seconds must be <= 60.', errors: ['search_seconds must be <= 60'], code: 'VALIDATION_FAILED' },
        { status: 422 },
      ),
    });
    const user = await openPage();
    await user.clear(screen.getByLabelText('Default search time (seconds)'));
    await user.type(screen.getByLabelText('Default search time (seconds)'), '90');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(screen.getByLabelText('Default search time (seconds)')).toHaveAccessibleDescription(/^Must be 60 or less\./),
    );
    expect(puts).toEqual([{ search_seconds: 90 }]);
    expect(screen.getByText('You have unsaved changes.')).toBeInTheDocument();
    // Once the field is changed, the server's problem with the old value goes.
    await user.clear(screen.getByLabelText('Default search time (seconds)'));
    await user.type(screen.getByLabelText('Default search time (seconds)'), '45');
    expect(screen.getByLabelText('Default search time (seconds)')).not.toHaveAccessibleDescription(/Must be 60 or less/);
    expect(screen.queryByText('Must be 60 or less.')).not.toBeInTheDocument();
  });

  it('is not shown to a REGULAR_USER', async () => {
    serveSettings();
    renderApp('/settings/optimization-settings', { as: 'REGULAR_USER' });
    await waitFor(() => expect(currentPath()).toBe('/dashboard'));
    expect(screen.queryByRole('form', { name: 'Optimisation settings' })).toBeNull();
  });
});
