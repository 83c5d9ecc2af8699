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
// The admin's walk is in accessibility-admin.test.ts; the steps of both in support/axeWalk.ts.
import { describe, expect, it } from 'vitest';
import { routeMetas } from '../../src/router/routeMeta';
import { demoWeekday } from './support/demoDay';
import { useProductAndBrowser } from './support/running';
import { loaded, logInAs, newAxePage, scan, scanClientModal, scanModal, scanPagesOf } from './support/axeWalk';

const running = useProductAndBrowser();

describe('axe-core: no serious or critical violation', () => {
  it('on the signed-out pages', { timeout: 60_000 }, async () => {
    const page = await newAxePage(running);
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

  for (const role of ['REGULAR_USER', 'PRACTITIONER'] as const) {
    it(`as ${role === 'REGULAR_USER' ? 'staff, on every page they may open and the visit and client modals' : 'a practitioner, on every page they may open and the visit modal'}`, { timeout: 90_000 }, async () => {
      const page = await newAxePage(running);
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
