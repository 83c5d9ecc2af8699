// Issue 15, as the accessibility walk (accessibility.test.ts) but the admin's: every page they may open and every
// modal and popup (the appointment and client modals, the Optimise dialog, Import and Export, Invite user, Edit
// practitioner with its leave form, Set hours, the account and theme menus), in light and dark: no serious or critical
// violation. In a file of its own, the longest walk runs beside the others.
import { describe, expect, it } from 'vitest';
import { openFirstAppointment } from './support/browser';
import { demoWeekday, openOptimiseDialog } from './support/demoDay';
import { useProductAndBrowser } from './support/running';
import { logInAs, newAxePage, scan, scanClientModal, scanModal, scanPagesOf } from './support/axeWalk';

const running = useProductAndBrowser();

describe('axe-core: no serious or critical violation', () => {
  // Every page and modal in light and dark: the longest walk of the suite, minutes on a busy two-core machine.
  it('as an admin, on every page and modal', { timeout: 300_000 }, async () => {
    const page = await newAxePage(running);
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
});
