// The foundation, as a person meets it: logging in as each role, the sidebar, guarded routes, titles, theme, logout, 404.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { logIn, newPage } from './support/browser';
import { useProductAndBrowser } from './support/running';

const running = useProductAndBrowser();

async function sidebarItems(page: Page): Promise<string[]> {
  const nav = page.getByRole('navigation', { name: 'Main' }).first();
  await nav.getByRole('link').first().waitFor();
  return (await nav.getByRole('link').allInnerTexts()).map((text) => text.trim()).filter(Boolean);
}

describe('each demo role logs in and sees what the role allows', () => {
  it.each([
    ['admin@demo.test', ['Dashboard', 'Appointments', 'Open visits', 'Nearby search', 'Clients', 'Reports', 'Settings']],
    ['staff@demo.test', ['Dashboard', 'Appointments', 'Open visits', 'Nearby search', 'Clients']],
    ['practitioner@demo.test', ['Dashboard', 'Appointments', 'Clients']],
  ])('%s', async (email, expected) => {
    const { context, page } = await newPage(running.browser, running.product.url);
    try {
      await logIn(page, email);
      expect(await page.title()).toBe('Dashboard - Rounds');
      expect(await sidebarItems(page)).toEqual(expected);
      await expect.poll(() => page.getByTestId('header-first-name').innerText()).not.toBe('');
    } finally {
      await context.close();
    }
  });
});

describe('guarded routes', () => {
  it('sends a visitor to the login page and back to the page they asked for after logging in', async () => {
    const { context, page } = await newPage(running.browser, running.product.url);
    try {
      await page.goto('/clients');
      await page.waitForURL(/\/login\?next=%2Fclients$/);
      expect(await page.title()).toBe('Log in - Rounds');
      await page.getByLabel('Email').fill('staff@demo.test');
      await page.getByLabel('Password').fill('rounds-demo');
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.waitForURL('**/clients');
    } finally {
      await context.close();
    }
  });

  it('sends a user without the role to the dashboard', async () => {
    const { context, page } = await newPage(running.browser, running.product.url);
    try {
      await logIn(page, 'staff@demo.test');
      await page.goto('/settings/users');
      await page.waitForURL('**/dashboard');
      await page.goto('/reports');
      await page.waitForURL('**/dashboard');
    } finally {
      await context.close();
    }
  });

  it('shows page titles of the admin’s pages', async () => {
    const { context, page } = await newPage(running.browser, running.product.url);
    try {
      await logIn(page, 'admin@demo.test');
      for (const [path, title] of [['/settings', 'Settings - Rounds'], ['/settings/business-account', 'Account settings - Rounds'], ['/search', 'Nearby search - Rounds']]) {
        await page.goto(path);
        await expect.poll(() => page.title()).toBe(title);
      }
    } finally {
      await context.close();
    }
  });
});

describe('preferences and session', () => {
  it('keeps the chosen theme across a reload', async () => {
    const { context, page } = await newPage(running.browser, running.product.url);
    try {
      await logIn(page, 'admin@demo.test');
      await page.getByRole('button', { name: /^Theme:/ }).click();
      await page.getByRole('menuitem', { name: 'Dark' }).click();
      await expect.poll(() => page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
      await page.reload();
      await page.getByTestId('app-header').waitFor();
      expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    } finally {
      await context.close();
    }
  });

  it('logs out from the avatar menu and the old session no longer works', async () => {
    const { context, page } = await newPage(running.browser, running.product.url);
    try {
      await logIn(page, 'staff@demo.test');
      await page.getByRole('button', { name: 'Open account menu' }).click();
      await page.getByRole('menuitem', { name: 'Logout' }).click();
      await page.waitForURL('**/login');
      await page.goto('/dashboard');
      await page.waitForURL('**/login');
    } finally {
      await context.close();
    }
  });

  it('shows the server’s message for a wrong password', async () => {
    const { context, page } = await newPage(running.browser, running.product.url);
    try {
      await page.goto('/login');
      await page.getByLabel('Email').fill('admin@demo.test');
      await page.getByLabel('Password').fill('not the password');
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByText('Invalid email or password.').waitFor();
    } finally {
      await context.close();
    }
  });
});

describe('the sidebar and the keyboard', () => {
  const sidebarWidth = (page: Page) => page.getByTestId('sidebar').evaluate((element) => element.getBoundingClientRect().width);

  it('is narrow at once after clicking Narrow, widens on a later hover and for keyboard focus', async () => {
    const { context, page } = await newPage(running.browser, running.product.url);
    try {
      await page.setViewportSize({ width: 1280, height: 800 });
      await logIn(page, 'admin@demo.test');
      await page.getByRole('button', { name: 'Narrow sidebar' }).click();
      await expect.poll(() => sidebarWidth(page)).toBe(64); // the pointer is still on it, and the button holds focus
      await expect.poll(() => page.getByRole('button', { name: 'Widen sidebar' }).evaluate((button) => button === document.activeElement)).toBe(true);

      await page.mouse.move(800, 400); // away, then back: hovering the rail widens it
      await expect.poll(() => sidebarWidth(page)).toBe(64);
      await page.getByTestId('sidebar').hover();
      await expect.poll(() => sidebarWidth(page)).toBe(256);
      await page.mouse.move(800, 400);
      await expect.poll(() => sidebarWidth(page)).toBe(64);

      // Keyboard: Tab into the rail widens it, with its labels showing.
      await page.getByRole('heading', { name: 'Dashboard', level: 1 }).click();
      await page.locator('body').focus();
      await page.getByRole('link', { name: 'Skip to content' }).focus();
      await page.keyboard.press('Tab');
      await expect.poll(() => page.evaluate(() => document.activeElement?.closest('[data-testid="sidebar"]') !== null)).toBe(true);
      await expect.poll(() => sidebarWidth(page)).toBe(256);
      expect(await page.getByTestId('sidebar').getByText('Appointments').isVisible()).toBe(true);
    } finally {
      await context.close();
    }
  });

  it('offers "Skip to content" as the first Tab stop, shown when focused, landing on the page content', async () => {
    const { context, page } = await newPage(running.browser, running.product.url);
    try {
      await logIn(page, 'admin@demo.test');
      await page.goto('/appointments');
      await page.getByRole('heading', { name: 'Appointments', level: 1 }).waitFor();
      await page.keyboard.press('Tab');
      const skip = page.getByRole('link', { name: 'Skip to content' });
      await expect.poll(() => skip.evaluate((link) => link === document.activeElement)).toBe(true);
      const box = await skip.boundingBox();
      expect(box && box.width > 40 && box.height > 20).toBe(true);
      await page.keyboard.press('Enter');
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('main-content');
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.getElementById('main-content')!.contains(document.activeElement))).toBe(true);
    } finally {
      await context.close();
    }
  });
});

describe('not found', () => {
  it('shows the not-found page for an unknown path', async () => {
    const { context, page } = await newPage(running.browser, running.product.url);
    try {
      const response = await page.goto('/no/such/page');
      expect(response?.status()).toBe(200); // the SPA answers, then renders its not-found page
      await page.getByRole('heading', { name: /not found/i }).waitFor();
    } finally {
      await context.close();
    }
  });
});
