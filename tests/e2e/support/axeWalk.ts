// The accessibility walk's steps, shared by the two files that walk the product with axe-core (accessibility.test.ts:
// signed out, staff and a practitioner; accessibility-admin.test.ts: the admin's every page and modal, the longest
// walk, in a file of its own so that it runs beside the others).
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { routeMetas } from '../../../src/router/routeMeta';
import type { Role } from '../../../src/api/types';
import { describeFindings, seriousViolations } from './axe';
import { DEMO_PASSWORD } from './browser';
import type { Running } from './running';

const ACCOUNTS: Record<Role, string> = { ADMIN: 'admin@demo.test', REGULAR_USER: 'staff@demo.test', PRACTITIONER: 'practitioner@demo.test' };
/** Pages whose full content would only slow axe down: the same components with fewer rows. */
const NARROWED: Record<string, string> = { '/reports/activity': '/reports/activity?kind=import' };

export async function newAxePage(running: Running): Promise<Page> {
  // The product's CSP forbids inline scripts; axe is injected as one.
  const context = await running.browser.newContext({
    baseURL: running.product.url, bypassCSP: true, timezoneId: 'Australia/Brisbane', locale: 'en-AU', viewport: { width: 1280, height: 900 },
  });
  context.setDefaultTimeout(15_000);
  return context.newPage();
}

/** Waits until the page's data has arrived. */
export async function loaded(page: Page) {
  await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => {});
}

/** Waits until no transition (a theme's colours fading in) is running. */
export async function settle(page: Page) {
  await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined))));
}

/** Scans `page` (or the part `include` selects) in light with every rule and in dark for contrast. */
export async function scan(page: Page, where: string, findings: string[], include?: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect.poll(() => page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(scheme === 'dark');
    await settle(page);
    const found = await seriousViolations(page, { include, only: scheme === 'dark' ? ['color-contrast'] : undefined });
    findings.push(...describeFindings(`${where} [${scheme}]`, found));
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

export async function scanModal(page: Page, testId: string, where: string, findings: string[]) {
  const modal = page.getByTestId(testId);
  await modal.waitFor();
  await loaded(page);
  await scan(page, where, findings, `[data-testid="${testId}"]`);
  await page.keyboard.press('Escape');
  await modal.waitFor({ state: 'detached' });
}

export async function logInAs(page: Page, role: Role) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(ACCOUNTS[role]);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL('**/dashboard');
}

export async function scanPagesOf(page: Page, role: Role, findings: string[]) {
  for (const route of routeMetas) {
    if (!route.requiresAuth || (route.roles && !route.roles.includes(role))) continue;
    await page.goto(NARROWED[route.path] ?? route.path);
    await page.locator('main').first().waitFor();
    await loaded(page);
    await scan(page, `${role} ${new URL(page.url()).pathname}`, findings);
  }
}

export async function scanClientModal(page: Page, role: Role, findings: string[]) {
  await page.goto('/clients');
  await page.getByTestId('client-row').first().click();
  await scanModal(page, 'client-details-modal', `${role} client modal`, findings);
}
