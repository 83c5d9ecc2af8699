// Account settings and the payment-required flow, as people meet them: an admin changes the business's time zone and
// the dashboard's "today" follows; a business the operator puts into "payment required" (`npm run admin --
// set-subscription`) takes its admin to Subscription info and its staff to the ask-your-administrator page.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiAs } from './support/api';
import { launchBrowser, logIn, newPage } from './support/browser';
import { startProduct, type RunningProduct } from './support/server';

let browser: Browser;
let product: RunningProduct;
const dataDir = mkdtempSync(join(tmpdir(), 'rounds-e2e-account-'));

beforeAll(async () => {
  [product, browser] = await Promise.all([startProduct({}, { dataDir }), launchBrowser()]);
}, 200_000);
afterAll(async () => {
  await browser?.close();
  await product?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const zonedToday = (timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date());

/** The day the dashboard calls today: its "Today’s schedule" link opens that day. */
async function dashboardToday(page: Page): Promise<string> {
  await page.goto('/dashboard');
  const link = page.getByRole('link', { name: 'Today’s schedule' }).first();
  await link.waitFor();
  const href = (await link.getAttribute('href')) ?? '';
  return /\d{4}-\d{2}-\d{2}/.exec(decodeURIComponent(href))?.[0] ?? href;
}

async function chooseTimeZone(page: Page, zone: string) {
  await page.goto('/settings/business-account');
  const input = page.getByRole('combobox', { name: 'Time zone' });
  await input.fill(zone.split('/')[1].replace('_', ' ').toLowerCase());
  await page.getByRole('option', { name: zone }).click();
  await page.getByRole('button', { name: 'Save account settings' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Change the time zone' }).click();
  await page.getByTestId('toast').filter({ hasText: 'The account settings have been saved.' }).waitFor();
}

describe('account settings', () => {
  it('an admin changes the time zone and the dashboard’s "today" follows', async () => {
    const { context, page } = await newPage(browser, product.url);
    try {
      await logIn(page, 'admin@demo.test');
      expect(await dashboardToday(page)).toBe(zonedToday('Australia/Brisbane'));
      // Kiritimati (UTC+14) and Honolulu (UTC−10) are 24 hours apart: never on the same calendar day.
      await chooseTimeZone(page, 'Pacific/Kiritimati');
      expect(await dashboardToday(page)).toBe(zonedToday('Pacific/Kiritimati'));
      await expect.poll(() => page.getByTestId('dashboard-time-zone').innerText()).toBe('Pacific/Kiritimati');
      await chooseTimeZone(page, 'Pacific/Honolulu');
      expect(await dashboardToday(page)).toBe(zonedToday('Pacific/Honolulu'));
      await chooseTimeZone(page, 'Australia/Brisbane');
    } finally {
      await context.close();
    }
  }, 90_000);
});

describe('payment required, set by the operator', () => {
  it('takes the admin to Subscription info and others to the ask-your-administrator page', async () => {
    const businessId = (await (await apiAs(product.url, 'admin@demo.test'))<{ user: { business_account: { id: number } } }>('/auth/user')).user.business_account.id;
    // The embedded database belongs to one process: the operator runs the command while the product is stopped.
    await product.stop();
    const command = spawnSync('npm', ['run', '--silent', 'admin', '--', 'set-subscription', '--business', String(businessId),
      '--status', 'trialing', '--trial-ends', '2026-01-01', '--payment-method', 'off'], {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn' }, encoding: 'utf8',
    });
    expect(command.status, command.stderr).toBe(0);
    expect(command.stdout).toContain('Payment is required');
    product = await startProduct({}, { dataDir });

    const admin = await newPage(browser, product.url);
    try {
      await admin.page.goto('/login');
      await admin.page.getByLabel('Email').fill('admin@demo.test');
      await admin.page.getByLabel('Password').fill('rounds-demo');
      await admin.page.getByRole('button', { name: 'Log in' }).click();
      await admin.page.waitForURL('**/settings/subscription');
      expect(await admin.page.title()).toBe('Subscription info - Rounds');
      const callout = admin.page.getByTestId('payment-required-callout');
      await expect.poll(() => callout.innerText()).toContain('A payment method is required');
      expect(await callout.innerText()).toContain('The trial ended on');
      // Another page leads back here.
      await admin.page.getByRole('navigation', { name: 'Main' }).first().getByRole('link', { name: 'Clients' }).click();
      await admin.page.waitForURL('**/settings/subscription');
    } finally {
      await admin.context.close();
    }

    const staff = await newPage(browser, product.url);
    try {
      await staff.page.goto('/login');
      await staff.page.getByLabel('Email').fill('staff@demo.test');
      await staff.page.getByLabel('Password').fill('rounds-demo');
      await staff.page.getByRole('button', { name: 'Log in' }).click();
      await staff.page.waitForURL('**/payment-required');
      await staff.page.getByRole('heading', { name: 'Ask your administrator to add a payment method' }).waitFor();
    } finally {
      await staff.context.close();
    }
  }, 240_000);
});
