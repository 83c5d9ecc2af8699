// Every wait for data says so, and after LOADING_TIME_OUT_MS (15 s) says it is taking longer than it should and
// offers Try again, which asks again (issue 34: the header's Import dialog stayed on "Loading sync settings…").
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { state, useSyncFakeApi } from './support/syncFakeApi';
import { api, server } from './support/fakeApi';
import { renderWithServices } from './support/harness';
import { BusinessDefaultsProvider } from '../../src/app/BusinessDefaultsProvider';
import { HeaderSyncLinks } from '../../src/features/sync';

useSyncFakeApi();
afterEach(() => vi.useRealTimers());

/** GET /sync_settings: the first request is held (as behind a long write on the embedded database), later ones answer. */
function holdFirstSettingsRequest(): { requests: () => number } {
  let requests = 0;
  server.use(http.get(api('/sync_settings'), async () => {
    requests += 1;
    if (requests === 1) await new Promise(() => {});
    return HttpResponse.json({ sync_settings: state.current.settings });
  }));
  return { requests: () => requests };
}

async function openImportDialog() {
  // The clock also runs on its own, so Testing Library's waits still end.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
  const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
  renderWithServices(<BusinessDefaultsProvider><HeaderSyncLinks /></BusinessDefaultsProvider>, { role: 'ADMIN' });
  await user.click(await screen.findByRole('button', { name: 'Import' }));
  const dialog = await screen.findByRole('dialog', { name: 'Import appointments' });
  return { user, dialog };
}

describe('a wait that lasts', () => {
  it('shows what is loading for 15 s, then says it is taking too long; Try again asks again and shows the form', async () => {
    const settings = holdFirstSettingsRequest();
    const { user, dialog } = await openImportDialog();
    expect(await within(dialog).findByText('Loading sync settings…')).toBeInTheDocument();

    await act(() => vi.advanceTimersByTimeAsync(14_000));
    expect(within(dialog).getByText('Loading sync settings…')).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Try again' })).toBeNull();

    await act(() => vi.advanceTimersByTimeAsync(1_000));
    expect(within(dialog).getByRole('status')).toHaveTextContent('This is taking longer than it should.');
    expect(within(dialog).queryByText('Loading sync settings…')).toBeNull();

    await user.click(within(dialog).getByRole('button', { name: 'Try again' }));
    expect(await within(dialog).findByRole('button', { name: 'Start import' })).toBeInTheDocument();
    expect(settings.requests()).toBe(2);
  });

  it('starts its 15 s over after Try again', async () => {
    let requests = 0;
    server.use(http.get(api('/sync_settings'), async () => {
      requests += 1;
      await new Promise(() => {});
      return HttpResponse.json({});
    }));
    const { user, dialog } = await openImportDialog();
    await act(() => vi.advanceTimersByTimeAsync(15_000));
    await user.click(within(dialog).getByRole('button', { name: 'Try again' }));
    expect(within(dialog).getByText('Loading sync settings…')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(14_000));
    expect(within(dialog).queryByRole('button', { name: 'Try again' })).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    expect(within(dialog).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
    expect(requests).toBe(2);
  });
});
