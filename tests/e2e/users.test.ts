// Issue 14 as an administrator and a new colleague meet it: the admin invites a practitioner from Settings → Users, the
// invitee opens the emailed link, chooses a password, is logged in and sees the sidebar of their role; the link then
// says it was used; deactivated, they cannot log in.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, logIn, newPage } from './support/browser';
import { startProduct, type RunningProduct } from './support/server';
import { startSmtpSink, type SmtpSink } from './support/smtpSink';

let product: RunningProduct;
let browser: Browser;
let mail: SmtpSink;

beforeAll(async () => {
  // The same mail path as a password reset: over SMTP when SMTP_URL is set, here to a sink the test reads.
  mail = await startSmtpSink();
  [product, browser] = await Promise.all([startProduct({ SMTP_URL: mail.url }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await product?.stop();
  await mail?.close();
});

const invitationLinks = () => [...mail.messages().join('\n').matchAll(/https?:\/\/[^\s"\\]+\/accept-invitation\?token=[^\s"\\]+/g)].map((match) => match[0]);

describe('inviting a user', () => {
  it('the invitee sets a password from the emailed link, is logged in and sees their role’s sidebar', async () => {
    const admin = await newPage(browser, product.url);
    const invitee = await newPage(browser, product.url);
    try {
      await logIn(admin.page, 'admin@demo.test');
      await admin.page.goto('/settings/users');
      await admin.page.getByRole('button', { name: 'Invite user' }).click();
      const dialog = admin.page.getByTestId('user-dialog');
      await dialog.getByLabel('Email').fill('nina.brown@demo.test');
      await dialog.getByLabel('First name').fill('Nina');
      await dialog.getByLabel('Last name').fill('Brown');
      await dialog.getByLabel('Role').selectOption('PRACTITIONER');
      await dialog.getByTestId('multiselect-Works as').click();
      await admin.page.getByRole('listbox').getByRole('option', { name: 'Ava Burke' }).click();
      await admin.page.keyboard.press('Escape');
      await dialog.getByRole('button', { name: 'Send invitation' }).click();
      await admin.page.getByText('An invitation has been emailed to nina.brown@demo.test.').waitFor();
      const row = admin.page.getByTestId('user-row').filter({ hasText: 'nina.brown@demo.test' });
      await expect.poll(() => row.innerText()).toContain('Invited');

      await expect.poll(() => invitationLinks().length).toBe(1);
      const link = invitationLinks()[0];
      expect(new URL(link).origin).toBe(product.url);
      product.keepOutOfLog('nina-secret-42', new URL(link).searchParams.get('token')!);
      await invitee.page.goto(link);
      await invitee.page.getByRole('heading', { name: 'Welcome to Brisbane Demo Care' }).waitFor();
      await invitee.page.getByLabel('Password', { exact: true }).fill('nina-secret-42');
      await invitee.page.getByLabel('Confirm password').fill('nina-secret-42');
      await invitee.page.getByRole('button', { name: 'Set password and log in' }).click();
      await invitee.page.waitForURL('**/dashboard');
      const nav = invitee.page.getByRole('navigation', { name: 'Main' }).first();
      await nav.getByRole('link').first().waitFor();
      expect((await nav.getByRole('link').allInnerTexts()).map((text) => text.trim()).filter(Boolean)).toEqual(['Dashboard', 'Appointments', 'Clients']);
      await expect.poll(() => invitee.page.getByTestId('header-first-name').innerText()).toBe('Nina');

      // The link works once.
      const again = await newPage(browser, product.url);
      await again.page.goto(link);
      await again.page.getByRole('heading', { name: 'Invitation already accepted' }).waitFor();
      await again.context.close();

      // The admin sees them active, with a last login; deactivated, their session ends and their login is refused.
      await admin.page.reload();
      await expect.poll(() => row.innerText()).toContain('Active');
      await row.getByRole('button', { name: 'Deactivate Nina Brown' }).click();
      await admin.page.getByRole('alertdialog').getByRole('button', { name: 'Deactivate' }).click();
      await admin.page.getByText('Nina Brown has been deactivated.').waitFor();
      await invitee.page.goto('/appointments');
      await invitee.page.waitForURL(/\/login/);
      await invitee.page.getByLabel('Email').fill('nina.brown@demo.test');
      await invitee.page.getByLabel('Password').fill('nina-secret-42');
      await invitee.page.getByRole('button', { name: 'Log in' }).click();
      await invitee.page.getByText('Your account has been deactivated. Ask your administrator to reactivate it.').waitFor();
    } finally {
      await admin.context.close();
      await invitee.context.close();
    }
  });

  it('changing the password in My account keeps this browser logged in and logs the other one out', async () => {
    const laptop = await newPage(browser, product.url);
    const phone = await newPage(browser, product.url);
    const newPassword = 'staff chose this 2741';
    product.keepOutOfLog(newPassword);
    try {
      await logIn(laptop.page, 'staff@demo.test');
      await logIn(phone.page, 'staff@demo.test');
      await laptop.page.goto('/settings/my-account');
      await laptop.page.getByLabel('Current password').fill('rounds-demo');
      await laptop.page.getByLabel('New password').fill('Password123!');
      await laptop.page.getByRole('button', { name: 'Save changes' }).click();
      await laptop.page.getByText('This password is one of the most common passwords, which attackers try first.', { exact: false }).waitFor();
      await laptop.page.getByLabel('New password').fill(newPassword);
      await laptop.page.getByRole('button', { name: 'Save changes' }).click();
      await laptop.page.getByText('Your account has been updated.').waitFor();
      // This browser goes on with the new session, across a reload; the other one is sent to log in.
      await laptop.page.goto('/clients');
      await laptop.page.reload();
      await laptop.page.getByRole('heading', { name: 'Clients' }).first().waitFor();
      expect(laptop.page.url()).toContain('/clients');
      await phone.page.goto('/clients');
      await phone.page.waitForURL(/\/login/);
      await logIn(phone.page, 'staff@demo.test', newPassword);
      await phone.page.waitForURL((url) => !url.pathname.startsWith('/login'));
    } finally {
      await laptop.context.close();
      await phone.context.close();
    }
  });

  it('an administrator lands on the report they first opened after logging in', async () => {
    const { context, page } = await newPage(browser, product.url);
    try {
      await page.goto('/reports/activity');
      await page.waitForURL(/\/login\?next=/);
      await page.getByLabel('Email').fill('admin@demo.test');
      await page.getByLabel('Password').fill('rounds-demo');
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.waitForURL('**/reports/activity');
      // The invitation and the deactivation above are there, under the kind "User change".
      await page.getByText('User Nina Brown').first().waitFor();
    } finally {
      await context.close();
    }
  });
});
