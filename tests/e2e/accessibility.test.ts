// Issue 15, people who use a keyboard or a screen reader: axe-core in a real Chromium over every page and the modals,
// as each role, in the light and the dark theme: no serious or critical violation.
//
// Pages: every route of src/router/routeMeta.ts that the role may open (the signed-out pages once, without their
// links' tokens: they show their "link not valid" state); the activity report with one kind, since the whole week is
// thousands of rows that would take axe half a minute.
// Modals and popups: the appointment modal (every role), the client modal (admin, staff), and as admin the Optimise
// dialog, the Import and Export modals, Invite user, Edit practitioner, Set hours, and the account and theme menus.
// Themes: every page and modal in light (all rules) and again in dark (colour contrast); the theme follows the
// system's scheme ("auto", the default), so the test switches Chromium's scheme and checks <html> has `dark`.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { routeMetas } from '../../src/router/routeMeta';
import type { Role } from '../../src/api/types';
import { describeFindings, seriousViolations } from './support/axe';
import { DEMO_PASSWORD, openFirstAppointment } from './support/browser';
import { demoWeekday, openOptimiseDialog } from './support/demoDay';
import { useProductAndBrowser } from './support/running';

const running = useProductAndBrowser();

const ACCOUNTS: Record<Role, string> = { ADMIN: 'admin@demo.test', REGULAR_USER: 'staff@demo.test', PRACTITIONER: 'practitioner@demo.test' };
/** Pages whose full content would only slow axe down: the same components with fewer rows. */
const NARROWED: Record<string, string> = { '/reports/activity': '/reports/activity?kind=import' };

async function newAxePage(): Promise<Page> {
  // The product's CSP forbids inline scripts; axe is injected as one.
  const context = await running.browser.newContext({
    baseURL: running.product.url, bypassCSP: true, timezoneId: 'Australia/Brisbane', locale: 'en-AU', viewport: { width: 1280, height: 900 },
  });
  context.setDefaultTimeout(15_000);
  return context.newPage();
}

/** Waits until the page's data has arrived. */
async function loaded(page: Page) {
  await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => {});
}

/** Waits until no transition (a theme's colours fading in) is running. */
async function settle(page: Page) {
  await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined))));
}

/** Scans `page` (or the part `include` selects) in light with every rule and in dark for contrast. */
async function scan(page: Page, where: string, findings: string[], include?: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect.poll(() => page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(scheme === 'dark');
    await settle(page);
    const found = await seriousViolations(page, { include, only: scheme === 'dark' ? ['color-contrast'] : undefined });
    findings.push(...describeFindings(`${where} [${scheme}]`, found));
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

async function scanModal(page: Page, testId: string, where: string, findings: string[]) {
  const modal = page.getByTestId(testId);
  await modal.waitFor();
  await loaded(page);
  await scan(page, where, findings, `[data-testid="${testId}"]`);
  await page.keyboard.press('Escape');
  await modal.waitFor({ state: 'detached' });
}

async function logInAs(page: Page, role: Role) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(ACCOUNTS[role]);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL('**/dashboard');
}

async function scanPagesOf(page: Page, role: Role, findings: string[]) {
  for (const route of routeMetas) {
    if (!route.requiresAuth || (route.roles && !route.roles.includes(role))) continue;
    await page.goto(NARROWED[route.path] ?? route.path);
    await page.locator('main').first().waitFor();
    await loaded(page);
    await scan(page, `${role} ${new URL(page.url()).pathname}`, findings);
  }
}

async function scanClientModal(page: Page, role: Role, findings: string[]) {
  await page.goto('/clients');
  await page.getByTestId('client-row').first().click();
  await scanModal(page, 'client-details-modal', `${role} client modal`, findings);
}

describe('axe-core: no serious or critical violation', () => {
  it('on the signed-out pages', { timeout: 60_000 }, async () => {
    const page = await newAxePage();
    const findings: string[] = [];
    try {
      for (const route of routeMetas.filter((meta) => !meta.requiresAuth)) {
        await page.goto(route.path);
        await loaded(page);
        await scan(page, `signed out ${route.path}`, findings);
      }
    } finally {
      await page.context().close();
    }
    expect(findings).toEqual([]);
  });

  // Every page and modal in light and dark: the longest walk of the suite, minutes on a busy two-core machine.
  it('as an admin, on every page and modal', { timeout: 300_000 }, async () => {
    const page = await newAxePage();
    const findings: string[] = [];
    try {
      await logInAs(page, 'ADMIN');
      await scanPagesOf(page, 'ADMIN', findings);

      await openFirstAppointment(page);
      await scanModal(page, 'appointment-details-modal', 'ADMIN appointment modal', findings);
      await scanClientModal(page, 'ADMIN', findings);

      const day = demoWeekday(3).toString();
      await page.goto(`/appointments?view=schedule&start=${day}&end=${day}`);
      await page.getByTestId('day-schedule').waitFor();
      await openOptimiseDialog(page);
      await scanModal(page, 'optimise-dialog', 'ADMIN Optimise dialog', findings);

      for (const kind of ['Import', 'Export']) {
        await page.getByTestId('app-header').getByRole('button', { name: kind, exact: true }).click();
        await scanModal(page, `${kind.toLowerCase()}-modal`, `ADMIN ${kind} modal`, findings);
      }

      await page.goto('/settings/users');
      await page.getByRole('button', { name: 'Invite user' }).click();
      await scanModal(page, 'user-dialog', 'ADMIN Invite user dialog', findings);

      await page.goto('/settings/practitioners');
      await page.getByRole('button', { name: /^Edit / }).first().click();
      // With its Leave section's form open (part of a day: the times).
      await page.getByTestId('practitioner-edit-dialog').getByRole('button', { name: 'Add leave' }).click();
      await page.getByTestId('practitioner-edit-dialog').getByLabel('Part of a day').check();
      await scanModal(page, 'practitioner-edit-dialog', 'ADMIN Edit practitioner dialog', findings);
      await page.getByRole('checkbox', { name: /^Select (?!every)/ }).first().check();
      await page.getByRole('button', { name: /^Set hours/ }).click();
      await scanModal(page, 'set-hours-dialog', 'ADMIN Set hours dialog', findings);

      await page.getByRole('button', { name: 'Open account menu' }).click();
      await page.getByRole('menu').waitFor();
      await scan(page, 'ADMIN account menu', findings, '[role="menu"]');
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: /^Theme:/ }).click();
      await page.getByRole('menu').waitFor();
      await scan(page, 'ADMIN theme menu', findings, '[role="menu"]');
      await page.keyboard.press('Escape');
    } finally {
      await page.context().close();
    }
    expect(findings).toEqual([]);
  });

  for (const role of ['REGULAR_USER', 'PRACTITIONER'] as const) {
    it(`as ${role === 'REGULAR_USER' ? 'staff, on every page they may open and the visit and client modals' : 'a practitioner, on every page they may open and the visit modal'}`, { timeout: 90_000 }, async () => {
      const page = await newAxePage();
      const findings: string[] = [];
      try {
        await logInAs(page, role);
        await scanPagesOf(page, role, findings);
        // A practitioner lands on their run sheet; the list shows the coming week's visits.
        const from = demoWeekday(1);
        await page.goto(`/appointments?view=list&start=${from.toString()}&end=${from.add({ days: 6 }).toString()}`);
        await page.getByTestId('appointment-row').first().click();
        await scanModal(page, 'appointment-details-modal', `${role} appointment modal`, findings);
        if (role === 'REGULAR_USER') await scanClientModal(page, role, findings);
      } finally {
        await page.context().close();
      }
      expect(findings).toEqual([]);
    });
  }
});
