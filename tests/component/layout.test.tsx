import { describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AUTH_TOKEN_KEY, AUTH_USER_KEY } from '../../src/machines/auth';
import { SIDEBAR_STORAGE_KEY } from '../../src/machines/sidebar';
import { THEME_STORAGE_KEY } from '../../src/machines/theme';
import { HELP_URL, received } from './support/fakeApi';
import { currentPath, renderApp, useFakeApi } from './support/harness';

useFakeApi();

const sidebarLabels = () =>
  within(screen.getByRole('navigation', { name: 'Main' }))
    .getAllByRole('link')
    .map((link) => link.textContent);

describe('sidebar', () => {
  it.each([
    ['ADMIN', ['Dashboard', 'Appointments', 'Open visits', 'Nearby search', 'Clients', 'Reports', 'Settings']],
    ['REGULAR_USER', ['Dashboard', 'Appointments', 'Open visits', 'Nearby search', 'Clients']],
    ['PRACTITIONER', ['Dashboard', 'Appointments', 'Clients']],
  ] as const)('shows %s only the items the role may use', async (role, labels) => {
    renderApp('/dashboard', { as: role });
    await screen.findByTestId('dashboard-greeting');
    expect(sidebarLabels()).toEqual(labels);
  });

  it('marks the current page and navigates', async () => {
    renderApp('/dashboard', { as: 'ADMIN' });
    await screen.findByTestId('dashboard-greeting');
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Dashboard' })).toHaveAttribute('aria-current', 'page');
    await userEvent.click(within(nav).getByRole('link', { name: 'Reports' }));
    expect(currentPath()).toBe('/reports');
    expect(await screen.findByRole('heading', { name: 'Reports', level: 1 })).toBeInTheDocument();
    expect(within(nav).getByRole('link', { name: 'Reports' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: 'Dashboard' })).not.toHaveAttribute('aria-current');
  });

  it('names the zone the times are shown in (the business’s), not the browser’s, in its footer and on the dashboard', async () => {
    const zone = process.env.TZ;
    process.env.TZ = 'Europe/London'; // the browser is elsewhere than the business
    try {
      expect(Intl.DateTimeFormat().resolvedOptions().timeZone).toBe('Europe/London');
      renderApp('/dashboard', { as: 'ADMIN' });
      expect(await screen.findByTestId('sidebar-time-zone')).toHaveTextContent('Time zone: Australia/Brisbane');
      expect(screen.getByTestId('dashboard-time-zone')).toHaveTextContent(/^Australia\/Brisbane$/);
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  it('toggles visible from the header and unfoldable from its footer, persisting both', async () => {
    renderApp('/dashboard', { as: 'ADMIN' });
    await screen.findByTestId('dashboard-greeting');
    const sidebar = screen.getByTestId('sidebar');
    expect(sidebar).toHaveAttribute('data-visible', 'true');
    expect(sidebar).toHaveAttribute('data-unfoldable', 'false');
    await userEvent.click(screen.getByRole('button', { name: 'Toggle sidebar' }));
    expect(sidebar).toHaveAttribute('data-visible', 'false');
    await userEvent.click(screen.getByRole('button', { name: 'Narrow sidebar' }));
    expect(sidebar).toHaveAttribute('data-unfoldable', 'true');
    expect(JSON.parse(localStorage.getItem(SIDEBAR_STORAGE_KEY)!)).toEqual({ visible: false, unfoldable: true });
  });
});

describe('dashboard', () => {
  it('greets the user and shows their own day (the tiles are in dashboard.test.tsx)', async () => {
    renderApp('/dashboard', { as: 'PRACTITIONER' });
    expect(await screen.findByTestId('dashboard-greeting')).toHaveTextContent(/^Good (morning|afternoon|evening), Pat$/);
    expect(await screen.findByText('No visits today.')).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Next visit' })).getByText('No visits ahead.')).toBeInTheDocument();
  });
});

describe('header', () => {
  it("shows the user's first name and the help link from the config", async () => {
    renderApp('/dashboard', { as: 'REGULAR_USER' });
    expect(await screen.findByTestId('header-first-name')).toHaveTextContent('Sam');
    expect(await screen.findByRole('link', { name: 'Help' })).toHaveAttribute('href', HELP_URL);
  });

  it('gains a shadow once the page is scrolled', async () => {
    renderApp('/dashboard', { as: 'ADMIN' });
    const header = await screen.findByTestId('app-header');
    expect(header).toHaveAttribute('data-scrolled', 'false');
    act(() => {
      Object.defineProperty(window, 'scrollY', { value: 120, configurable: true });
      fireEvent.scroll(window);
    });
    expect(header).toHaveAttribute('data-scrolled', 'true');
    act(() => {
      Object.defineProperty(window, 'scrollY', { value: 0, configurable: true });
      fireEvent.scroll(window);
    });
    expect(header).toHaveAttribute('data-scrolled', 'false');
  });

  it('theme menu offers Light, Dark and Auto, applies the dark class and persists the choice', async () => {
    const user = userEvent.setup();
    renderApp('/dashboard', { as: 'ADMIN' });
    await user.click(await screen.findByRole('button', { name: 'Theme: Auto' }));
    const items = await screen.findAllByRole('menuitem');
    expect(items.map((item) => item.textContent)).toEqual(['Light', 'Dark', 'Auto']);
    expect(screen.getByRole('menuitem', { name: 'Auto' })).toHaveAttribute('data-selected', 'true');
    await user.click(screen.getByRole('menuitem', { name: 'Dark' }));
    expect(document.documentElement).toHaveClass('dark');
    expect(JSON.parse(localStorage.getItem(THEME_STORAGE_KEY)!)).toBe('dark');

    await user.click(screen.getByRole('button', { name: 'Theme: Dark' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Light' }));
    expect(document.documentElement).not.toHaveClass('dark');
    expect(JSON.parse(localStorage.getItem(THEME_STORAGE_KEY)!)).toBe('light');
  });

  it("avatar menu is headed 'My account' and its Settings item opens my-account", async () => {
    const user = userEvent.setup();
    renderApp('/dashboard', { as: 'PRACTITIONER' });
    await user.click(await screen.findByRole('button', { name: 'Open account menu' }));
    expect(await screen.findByText('My account')).toBeInTheDocument();
    await user.click(screen.getByRole('menuitem', { name: 'Settings' }));
    expect(currentPath()).toBe('/settings/my-account');
    expect(await screen.findByRole('heading', { name: 'My account', level: 1 })).toBeInTheDocument();
  });

  it('avatar menu Logout revokes the session and goes to /login', async () => {
    const user = userEvent.setup();
    renderApp('/dashboard', { as: 'ADMIN' });
    await user.click(await screen.findByRole('button', { name: 'Open account menu' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Logout' }));
    expect(currentPath()).toBe('/login');
    expect(await screen.findByRole('button', { name: 'Log in' })).toBeInTheDocument();
    expect(localStorage.getItem(AUTH_TOKEN_KEY)).toBeNull();
    expect(localStorage.getItem(AUTH_USER_KEY)).toBeNull();
    await waitFor(() => expect(received).toContainEqual({ method: 'POST', path: '/api/auth/logout', authorization: 'Bearer token-1' }));
  });
});

describe('toasts', () => {
  it('shows flash messages top right, success as status and danger as alert, dismissable and clearable', async () => {
    const user = userEvent.setup();
    const { services } = renderApp('/dashboard', { as: 'ADMIN' });
    await screen.findByTestId('dashboard-greeting');
    act(() => {
      services.flash.send({ type: 'APPEND', text: 'Saved.' });
      services.flash.send({ type: 'APPEND', text: 'The account is not active.', flashType: 'danger' });
      services.flash.send({ type: 'APPEND', text: 'Heads up.', flashType: 'warning' });
    });
    expect(screen.getByText('Saved.').closest('[role="status"]')).toHaveAttribute('data-type', 'success');
    expect(screen.getByText('The account is not active.').closest('[role="alert"]')).toHaveAttribute('data-type', 'danger');
    await user.click(within(screen.getByText('Saved.').closest('[data-testid="toast"]') as HTMLElement).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText('Saved.')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Clear all' }));
    expect(screen.queryAllByTestId('toast')).toEqual([]);
  });

  it('hides a toast by itself after 5 seconds', async () => {
    const { services } = renderApp('/dashboard', { as: 'ADMIN' });
    await screen.findByTestId('dashboard-greeting');
    const { vi } = await import('vitest');
    vi.useFakeTimers();
    try {
      act(() => services.flash.send({ type: 'APPEND', text: 'Short-lived.' }));
      expect(screen.getByText('Short-lived.')).toBeInTheDocument();
      act(() => vi.advanceTimersByTime(4999));
      expect(screen.getByText('Short-lived.')).toBeInTheDocument();
      act(() => vi.advanceTimersByTime(1));
      expect(screen.queryByText('Short-lived.')).not.toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('sidebar on a phone', () => {
  it('opens as a drawer from the header and closes on Escape or after navigating', async () => {
    const user = userEvent.setup();
    const narrowScreen = (query: string) =>
      ({ matches: false, media: query, addEventListener() {}, removeEventListener() {} }) as unknown as MediaQueryList;
    window.matchMedia = narrowScreen;
    try {
      renderApp('/dashboard', { as: 'ADMIN' });
      await screen.findByTestId('dashboard-greeting');
      await user.click(screen.getByRole('button', { name: 'Toggle sidebar' }));
      expect(screen.getByRole('complementary', { name: 'Sidebar drawer' })).toBeInTheDocument();
      expect(screen.getByTestId('sidebar')).toHaveAttribute('data-visible', 'true');
      await user.keyboard('{Escape}');
      expect(screen.queryByRole('complementary', { name: 'Sidebar drawer' })).not.toBeInTheDocument();

      await user.click(screen.getByRole('button', { name: 'Toggle sidebar' }));
      const drawer = screen.getByRole('complementary', { name: 'Sidebar drawer' });
      await user.click(within(drawer).getByRole('link', { name: 'Clients' }));
      expect(currentPath()).toBe('/clients');
      expect(screen.queryByRole('complementary', { name: 'Sidebar drawer' })).not.toBeInTheDocument();
    } finally {
      delete (window as { matchMedia?: unknown }).matchMedia;
    }
  });
});
