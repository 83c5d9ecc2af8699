// The foundation, as a person meets it: logging in as each role, the sidebar, guarded routes, titles, theme, logout, 404.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, logIn, newPage } from './support/browser';
import { startProduct, type RunningProduct } from './support/server';

let product: RunningProduct;
let browser: Browser;

beforeAll(async () => {
  [product, browser] = await Promise.all([startProduct(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

async function sidebarItems(page: Page): Promise<string[]> {
  const nav = page.getByRole('navigation', { name: 'Main' }).first();
  await nav.getByRole('link').first().waitFor();
  return (await nav.getByRole('link').allInnerTexts()).map((text) => text.trim()).filter(Boolean);
}

describe('each demo role logs in and sees what the role allows', () => {
  it.each([
    ['admin@demo.test', ['Dashboard', 'Appointments', 'Nearby search', 'Clients', 'Reports', 'Settings']],
    ['staff@demo.test', ['Dashboard', 'Appointments', 'Nearby search', 'Clients']],
    ['practitioner@demo.test', ['Dashboard', 'Appointments', 'Clients']],
  ])('%s', async (email, expected) => {
    const { context, page } = await newPage(browser, product.url);
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
  it('sends a visitor to the login page and back to the dashboard after logging in', async () => {
    const { context, page } = await newPage(browser, product.url);
    try {
      await page.goto('/clients');
      await page.waitForURL('**/login');
      expect(await page.title()).toBe('Log in - Rounds');
    } finally {
      await context.close();
    }
  });

  it('sends a user without the role to the dashboard', async () => {
    const { context, page } = await newPage(browser, product.url);
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
    const { context, page } = await newPage(browser, product.url);
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
    const { context, page } = await newPage(browser, product.url);
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
    const { context, page } = await newPage(browser, product.url);
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
    const { context, page } = await newPage(browser, product.url);
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

describe('not found', () => {
  it('shows the not-found page for an unknown path', async () => {
    const { context, page } = await newPage(browser, product.url);
    try {
      const response = await page.goto('/no/such/page');
      expect(response?.status()).toBe(200); // the SPA answers, then renders its not-found page
      await page.getByRole('heading', { name: /not found/i }).waitFor();
    } finally {
      await context.close();
    }
  });
});
