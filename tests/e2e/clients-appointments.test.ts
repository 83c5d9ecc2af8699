// Issue 5 as a scheduler meets it: a client's availability and tags, an appointment's arrival time and change log,
// the practitioner's limits, and the client's own availability page reached through the emailed link.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clickFirstAppointment, DEMO_PASSWORD, launchBrowser, logIn, newPage, openFirstAppointment } from './support/browser';
import { startProduct, type RunningProduct } from './support/server';
import { startSmtpSink, type SmtpSink } from './support/smtpSink';

let product: RunningProduct;
let browser: Browser;
let mail: SmtpSink;

beforeAll(async () => {
  // The product sends its emails over SMTP to a sink on a loopback port, where the test reads the links.
  mail = await startSmtpSink();
  [product, browser] = await Promise.all([startProduct({ SMTP_URL: mail.url, LOG_LEVEL: 'info' }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await product?.stop();
  await mail?.close();
});

async function api(path: string, token: string, init: RequestInit = {}) {
  const response = await fetch(`${product.url}/api${path}`, {
    ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers },
  });
  return { status: response.status, body: await response.json().catch(() => null) };
}

async function tokenFor(email: string): Promise<string> {
  const response = await fetch(`${product.url}/api/auth/login`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: DEMO_PASSWORD }),
  });
  return ((await response.json()) as { token: string }).token;
}

async function openFirstClientWithEmail(page: Page, token: string) {
  const { body } = await api('/clients?per_page=50', token);
  const client = body.clients.find((candidate: { email: string | null }) => candidate.email);
  await page.goto('/clients');
  await page.getByLabel('Search').fill(client.email);
  await page.getByTestId('client-row').filter({ hasText: client.email }).first().click();
  const modal = page.getByTestId('client-details-modal');
  await modal.waitFor();
  return { client, modal };
}

describe('client details', () => {
  it('edits availability and tags, shows the toasts, and keeps both after a reload', async () => {
    const token = await tokenFor('admin@demo.test');
    const tagName = `E2E tag ${Date.now()}`;
    const created = await api('/tags', token, { method: 'POST', body: JSON.stringify({ name: tagName, color: '#0ea5e9' }) });
    expect(created.status).toBe(201);

    const { context, page } = await newPage(browser, product.url);
    try {
      await logIn(page, 'admin@demo.test');
      const { client, modal } = await openFirstClientWithEmail(page, token);

      const custom = modal.getByRole('switch', { name: 'Custom availability' });
      if (!(await custom.isChecked())) await custom.click();
      const saturday = modal.getByRole('checkbox', { name: 'Saturday', exact: true });
      if (await saturday.isChecked()) await saturday.click();
      await saturday.click();
      await modal.getByRole('checkbox', { name: 'Saturday all day' }).click();
      await modal.getByRole('checkbox', { name: 'Saturday 09:00-12:00' }).click();
      await modal.getByRole('button', { name: 'Save availability' }).click();
      await page.getByTestId('toast').filter({ hasText: 'The availability has been updated.' }).waitFor();

      await modal.locator('label', { hasText: tagName }).click();
      await expect.poll(() => modal.getByRole('checkbox', { name: tagName }).isChecked()).toBe(true);
      await modal.getByRole('button', { name: 'Save tags' }).click();
      await page.getByTestId('toast').filter({ hasText: 'Tags have been updated.' }).waitFor();

      await page.reload();
      const saved = await api(`/clients/${client.id}`, token);
      expect(saved.body.client.availability).toContainEqual({ dow: 6, hours: ['09:00-12:00'] });
      expect(saved.body.client.tags.map((tag: { name: string }) => tag.name)).toContain(tagName);
      const reopened = await openFirstClientWithEmail(page, token);
      await expect.poll(() => reopened.modal.getByRole('checkbox', { name: 'Saturday 09:00-12:00' }).isChecked()).toBe(true);
    } finally {
      await context.close();
    }
  });
});

describe('appointment details', () => {
  it('changes the arrival time inline and shows the change in the change log', async () => {
    const token = await tokenFor('admin@demo.test');
    const { context, page } = await newPage(browser, product.url);
    try {
      await logIn(page, 'admin@demo.test');
      const modal = await openFirstAppointment(page);
      await modal.getByRole('button', { name: 'Edit arrival time' }).click();
      const input = modal.getByLabel('Arrival time');
      const before = await input.inputValue();
      const [hours, minutes] = before.split(':').map(Number);
      const later = `${String(hours).padStart(2, '0')}:${String(minutes >= 55 ? minutes - 5 : minutes + 5).padStart(2, '0')}`;
      await input.fill(later);
      await input.press('Enter');
      await page.getByTestId('toast').filter({ hasText: 'The arrival time has been successfully updated.' }).waitFor();
      await modal.getByTestId('change-log-change').filter({ hasText: /^Arrival time: / }).first().waitFor();
      expect(token).toBeTruthy();
    } finally {
      await context.close();
    }
  });

  it('does not let a practitioner open another practitioner’s appointment by id', async () => {
    const practitionerToken = await tokenFor('practitioner@demo.test');
    const adminToken = await tokenFor('admin@demo.test');
    const me = await api('/auth/user', practitionerToken);
    const own = new Set<number>(me.body.user.associated_practitioner_ids);
    const today = new Date().toISOString().slice(0, 10);
    const inTwoWeeks = new Date(Date.now() + 14 * 86400_000).toISOString().slice(0, 10);
    const all = await api(`/appointments?start_date=${today}&end_date=${inTwoWeeks}`, adminToken);
    const foreign = all.body.appointments.find((appointment: { practitioner_id: number }) => !own.has(appointment.practitioner_id));
    expect(foreign).toBeTruthy();
    expect((await api(`/appointments/${foreign.id}`, practitionerToken)).status).toBe(404);
    const mine = await api(`/appointments?start_date=${today}&end_date=${inTwoWeeks}`, practitionerToken);
    expect(mine.body.appointments.every((appointment: { practitioner_id: number }) => own.has(appointment.practitioner_id))).toBe(true);

    const { context, page } = await newPage(browser, product.url);
    try {
      await logIn(page, 'practitioner@demo.test');
      // A practitioner's /appointments opens on their run sheet; the list is one click away.
      await page.goto('/appointments?view=list');
      await page.getByTestId('pagination-summary').waitFor();
      await page.waitForLoadState('networkidle');
      await page.evaluate((id) => window.dispatchEvent(new CustomEvent('open-modal-show-appointment', { detail: { id } })), foreign.id);
      await page.getByTestId('appointment-details-modal').getByText(/not found|Could not load appointment details/i).first().waitFor();
    } finally {
      await context.close();
    }
  });
});

describe('page state in the address', () => {
  it('keeps the appointments view and dates across a reload, links to one visit, and Back closes it', async () => {
    const { context, page } = await newPage(browser, product.url);
    try {
      await logIn(page, 'admin@demo.test');
      await page.goto('/appointments');
      await page.getByTestId('pagination-summary').waitFor();
      await page.getByRole('button', { name: 'Next period' }).click();
      await page.getByRole('button', { name: 'Day schedule' }).click();
      await page.waitForURL(/view=schedule/);
      const dates = await page.getByTestId('date-range-button').textContent();
      await page.reload();
      await expect.poll(() => page.getByRole('button', { name: 'Day schedule' }).getAttribute('aria-pressed')).toBe('true');
      expect(await page.getByTestId('date-range-button').textContent()).toBe(dates);

      await clickFirstAppointment(page);
      await page.waitForURL(/appointment=\d+/);
      const link = page.url();
      await page.goBack();
      await expect.poll(() => page.getByTestId('appointment-details-modal').count()).toBe(0);

      // The link opens the visit on a fresh page, as a colleague would open it.
      const other = await newPage(browser, product.url);
      try {
        await logIn(other.page, 'staff@demo.test');
        await other.page.goto(link);
        await other.page.getByTestId('appointment-details-modal').waitFor();
      } finally {
        await other.context.close();
      }
    } finally {
      await context.close();
    }
  });
});

describe('the client’s own availability page', () => {
  it('opens from the emailed link, saves, and refuses the used link', async () => {
    const { context, page } = await newPage(browser, product.url);
    try {
      await logIn(page, 'staff@demo.test');
      const token = await tokenFor('staff@demo.test');
      const { client, modal } = await openFirstClientWithEmail(page, token);
      await modal.getByRole('button', { name: 'Send availability request' }).click();
      await page.getByText('Are you sure you want to send an availability request email to this client?').waitFor();
      await page.getByRole('button', { name: 'Send request' }).click();
      await page.getByTestId('toast').filter({ hasText: 'The availability request has been scheduled to send to client.' }).waitFor();

      // Only availability requests: the daily reminders (sent when the server starts after the reminder hour) carry such links too.
      const requests = () => mail.messages().filter((message) => /To help .* plan your visits/.test(message));
      const links = () => [...requests().join('\n').matchAll(/https?:\/\/[^\s"\\]+\/client\/update-availability\?token=[^\s"\\]+/g)].map((match) => match[0]);
      await expect.poll(() => links().length).toBeGreaterThan(0);
      const link = links().at(-1)!;

      const visitor = await newPage(browser, product.url);
      try {
        await visitor.page.setViewportSize({ width: 390, height: 844 });
        await visitor.page.goto(link);
        await visitor.page.getByText(new RegExp(`Hi,? ${client.first_name}`)).waitFor();
        const custom = visitor.page.getByRole('switch', { name: 'Custom availability' });
        if (!(await custom.isChecked())) await custom.click();
        const monday = visitor.page.getByRole('checkbox', { name: 'Monday', exact: true });
        if (!(await monday.isChecked())) await monday.click();
        await visitor.page.getByRole('button', { name: /Save/ }).click();
        await visitor.page.getByText(/updated|thank/i).first().waitFor();
        await visitor.page.goto(link);
        await visitor.page.getByText(/already been used|expired|no longer valid/i).first().waitFor();
        expect(product.logs()).not.toContain(new URL(link).searchParams.get('token')!);
      } finally {
        await visitor.context.close();
      }
      const saved = await api(`/clients/${client.id}`, token);
      expect(saved.body.client.availability.some((entry: { dow: number }) => entry.dow === 1)).toBe(true);
    } finally {
      await context.close();
    }
  });
});
