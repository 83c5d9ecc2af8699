// The app's services own the import and export jobs the views follow (services.followJob): an export whose modal was
// closed goes on after its view is gone, and stops when the user logs out or the services stop.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { followSyncJob } from '../../src/features/sync/useJobPoller';
import { renderApp, TEST_POLL_MS } from './support/harness';
import { seedJobs, state, useSyncFakeApi } from './support/syncFakeApi';

useSyncFakeApi();

const toastTexts = () => screen.queryAllByTestId('toast').map((toast) => toast.textContent);
const quiet = () => new Promise((resolve) => setTimeout(resolve, TEST_POLL_MS * 5));

describe('jobs followed by the services', () => {
  it('an export closed while it runs stops when the user logs out: no more polls, and its outcome is told to no one', async () => {
    state.current.pollStatuses = ['INPROGRESS'];
    const user = userEvent.setup();
    const app = renderApp('/dashboard', { as: 'ADMIN' });
    await user.click(await screen.findByRole('button', { name: 'Export' }));
    const dialog = await screen.findByRole('dialog', { name: 'Export appointments' });
    await user.click(await within(dialog).findByRole('button', { name: 'Start export' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Yes, export' }));
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const pollsWhileClosed = state.current.polls.length;
    await waitFor(() => expect(state.current.polls.length).toBeGreaterThan(pollsWhileClosed));

    app.services.auth.send({ type: 'LOGOUT' });
    await waitFor(() => expect(window.location.pathname).toBe('/login'));
    const pollsAtLogout = state.current.polls.length;
    state.current.pollStatuses = ['COMPLETE'];
    await quiet();
    expect(state.current.polls.length).toBe(pollsAtLogout);
    expect(toastTexts().filter((text) => text?.startsWith('Export'))).toEqual([]);
  });

  it('every job still followed stops with the services', async () => {
    state.current.pollStatuses = ['INPROGRESS'];
    const [running] = seedJobs('export', ['INPROGRESS']);
    const app = renderApp('/dashboard', { as: 'ADMIN' });
    const followed = followSyncJob(app.services, 'export');
    followed.send({ type: 'FOLLOW', job: running });
    followed.send({ type: 'CLOSE' });
    await waitFor(() => expect(state.current.polls.length).toBeGreaterThan(0));

    app.stop();
    expect(followed.getSnapshot().status).toBe('stopped');
    const pollsAtStop = state.current.polls.length;
    await quiet();
    expect(state.current.polls.length).toBe(pollsAtStop);
  });
});
