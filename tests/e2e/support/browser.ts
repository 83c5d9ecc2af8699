// Debian's Chromium driven by playwright-core; nothing is downloaded.
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { demoWeekday } from './demoDay';

export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--no-first-run', '--disable-dev-shm-usage',
];

declare module 'vitest' {
  export interface ProvidedContext {
    /** The shared Chromium's address (playwright's `connect`). */
    chromiumWsEndpoint: string;
  }
}

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * A connection to the Chromium the run's global set-up launched (./global-setup.ts), instead of a Chromium of the
 * file's own: closing it closes the file's contexts and leaves the browser to the next file.
 */
export function launchBrowser(): Promise<Browser> {
  return chromium.connect(inject('chromiumWsEndpoint'));
}

export async function newPage(browser: Browser, baseURL: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL, timezoneId: 'Australia/Brisbane', locale: 'en-AU' });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  return { context, page };
}

export const DEMO_PASSWORD = 'rounds-demo';

export async function logIn(page: Page, email: string, password = DEMO_PASSWORD) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL('**/dashboard');
}

/**
 * Goes to /appointments on a coming weekday (the demo books weekdays only) and clicks its first visit. Never today's:
 * during the practitioners' day its first visit has started or is about to, and keeps its arrival as it is.
 */
export async function clickFirstAppointment(page: Page) {
  const day = demoWeekday(2);
  await page.goto(`/appointments?start=${day}&end=${day}`);
  await page.getByTestId('pagination-summary').waitFor();
  await page.getByTestId('appointment-row').first().click();
}

/** Opens the first visit's details modal (see clickFirstAppointment) and answers the modal. */
export async function openFirstAppointment(page: Page) {
  await clickFirstAppointment(page);
  const modal = page.getByTestId('appointment-details-modal');
  await modal.waitFor();
  return modal;
}
