// The shell's safety nets and ways around: the error boundaries, the skip link, the settings index, the user guide.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { server } from './support/fakeApi';
import { currentPath, renderApp, useFakeApi } from './support/harness';

useFakeApi();

vi.mock('../../src/features/dashboard/DashboardPage', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/features/dashboard/DashboardPage')>();
  return {
    default: () => {
      if (window.location.search.includes('explode')) throw new Error('The dashboard could not render.');
      return original.default();
    },
  };
});

afterEach(() => vi.restoreAllMocks());

describe('a page that fails to render', () => {
  it('shows the 500 page inside the layout, logs the error, and recovers on navigation', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const user = userEvent.setup();
    renderApp('/dashboard?explode', { as: 'ADMIN' });
    expect(await screen.findByRole('heading', { name: 'Something went wrong', level: 1 })).toBeInTheDocument();
    expect(screen.getByTestId('sidebar')).toBeInTheDocument(); // the layout stays: the user can go elsewhere
    expect(logged.mock.calls.some((call) => call.some((arg) => arg instanceof Error && arg.message === 'The dashboard could not render.'))).toBe(true);

    await user.click(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'Clients' }));
    expect(currentPath()).toBe('/clients');
    expect(await screen.findByRole('heading', { name: 'Clients', level: 1 })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Something went wrong' })).not.toBeInTheDocument();
  });

  it('offers a way back to the dashboard', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const user = userEvent.setup();
    renderApp('/dashboard?explode', { as: 'ADMIN' });
    await screen.findByRole('heading', { name: 'Something went wrong' });
    window.history.replaceState(null, '', '/dashboard'); // the cause is gone
    await user.click(screen.getByRole('link', { name: 'Back to the dashboard' }));
    expect(await screen.findByTestId('dashboard-greeting')).toBeInTheDocument();
  });
});

describe('skip link', () => {
  it('is the first thing Tab reaches and moves focus to the page content', async () => {
    const user = userEvent.setup();
    renderApp('/dashboard', { as: 'ADMIN' });
    await screen.findByTestId('dashboard-greeting');
    await user.tab();
    const skip = screen.getByRole('link', { name: 'Skip to content' });
    expect(skip).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('main')).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('main')).toContainElement(document.activeElement as HTMLElement);
  });
});

describe('settings index', () => {
  it('describes every settings page as a link with what it is for', async () => {
    renderApp('/settings', { as: 'ADMIN' });
    const list = await screen.findByRole('list', { name: 'Settings pages' });
    const links = within(list).getAllByRole('link');
    expect(links.length).toBeGreaterThanOrEqual(6);
    for (const link of links) {
      expect(link.querySelectorAll('span')[1]?.textContent, link.textContent ?? '').toMatch(/\w.{10,}/);
    }
    expect(within(list).getByRole('link', { name: /^Tags/ })).toHaveTextContent('The tags you put on clients');
    expect(within(list).getByRole('link', { name: /^Users/ })).toHaveTextContent('Invite staff and practitioners');
  });
});

describe('help', () => {
  it('opens the user guide inside the app when HELP_URL is an app path', async () => {
    server.use(http.get('*/api/config', () => HttpResponse.json({ product_name: 'Rounds', google_maps_api_key: null, help_url: '/help', map_style_url: null, map_attribution: null, road_geometry: false })));
    const user = userEvent.setup();
    renderApp('/dashboard', { as: 'PRACTITIONER' });
    const help = await screen.findByRole('link', { name: 'Help' });
    expect(help).toHaveAttribute('href', '/help');
    expect(help).not.toHaveAttribute('target');
    await user.click(help);
    expect(currentPath()).toBe('/help');
    expect(await screen.findByRole('heading', { name: 'User guide', level: 1 })).toBeInTheDocument();
    for (const section of ['What Rounds does', 'A coordinator’s day', 'A practitioner’s day', 'Who can do what', 'Where the settings are']) {
      expect(screen.getByRole('heading', { name: section, level: 2 })).toBeInTheDocument();
    }
    expect(screen.getByRole('main')).not.toHaveTextContent(/coming soon|not built yet/i); // every page is built
    await waitFor(() => expect(document.title).toBe('User guide - Rounds'));
  });
});
