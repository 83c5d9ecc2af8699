// Qualifications (issue 35) in a real browser, against the real server, optimiser and the Cliniko sandbox the demo
// imports from. A coordinator (staff) at 1280 px optimises a demo weekday reassigning between every practitioner with
// visits: the Optimise dialog names nobody without known qualifications (the demo's import read every practitioner's
// appointment types from Cliniko), and the proposal moves no visit to a practitioner who does not deliver its type.
import { describe, expect, it } from 'vitest';
import { apiAs } from './support/api';
import { logIn, newPage } from './support/browser';
import { demoWeekday, openOptimiseDialog } from './support/demoDay';
import { useProductAndBrowser } from './support/running';

const running = useProductAndBrowser({ OPTIMIZER_MAX_SEARCH_MS: '2000' });

interface Practitioner { id: number; full_name: string; active: boolean; qualified_appointment_type_ids?: number[] | null }
interface ListItem { id: number; practitioner_id: number; appointment_type_id: number | null; status: string }
interface Proposal { lanes: { practitioner_id: number; after: { stops: { appointment_id: number }[] } }[]; changes: { appointment_id: number }[] }

describe('qualifications', () => {
  it('a reassign proposal on a demo weekday moves no visit to a practitioner who does not deliver its type', async () => {
    const { context, page } = await newPage(running.browser, running.product.url);
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    try {
      await page.setViewportSize({ width: 1280, height: 800 });
      await logIn(page, 'staff@demo.test');
      const api = await apiAs(running.product.url, 'staff@demo.test');
      const { practitioners } = await api<{ practitioners: Practitioner[] }>('/practitioners/all');
      // Every practitioner of the demo has qualifications from Cliniko.
      expect(practitioners.filter((practitioner) => practitioner.qualified_appointment_type_ids == null).map((practitioner) => practitioner.full_name)).toEqual([]);
      const qualified = new Map(practitioners.map((practitioner) => [practitioner.id, practitioner.qualified_appointment_type_ids ?? []]));

      const day = demoWeekday(5).toString();
      const { appointments } = await api<{ appointments: ListItem[] }>(`/appointments?start_date=${day}&end_date=${day}`);
      const booked = new Map(appointments.map((visit) => [visit.id, visit]));

      await page.goto(`/appointments?view=schedule&start=${day}&end=${day}`);
      await page.getByTestId('day-schedule').waitFor();
      const dialog = await openOptimiseDialog(page);
      expect(await dialog.getByTestId('optimise-unknown-qualifications').count()).toBe(0);
      await dialog.getByRole('radio', { name: /Reassign between these practitioners/ }).check();
      const started = page.waitForResponse((response) => response.request().method() === 'POST' && /\/api\/optimizations$/.test(response.url()));
      await dialog.getByRole('button', { name: 'Start' }).click();
      const { optimization } = (await (await started).json()) as { optimization: { id: number } };
      await dialog.getByTestId('proposal-kpis').waitFor({ timeout: 90_000 });

      const { optimization: run } = await api<{ optimization: { status: string; proposal: Proposal } }>(`/optimizations/${optimization.id}`);
      expect(run.status).toBe('COMPLETE');
      let movedToAnother = 0;
      for (const lane of run.proposal.lanes) {
        for (const stop of lane.after.stops) {
          const visit = booked.get(stop.appointment_id);
          if (!visit || visit.practitioner_id === lane.practitioner_id || visit.appointment_type_id === null) continue;
          movedToAnother += 1;
          const name = practitioners.find((practitioner) => practitioner.id === lane.practitioner_id)?.full_name;
          expect(qualified.get(lane.practitioner_id), `visit ${visit.id} (type ${visit.appointment_type_id}) to ${name}`).toContain(visit.appointment_type_id);
        }
      }
      // Reassigning still moves visits between practitioners of the same profession.
      expect(movedToAnother).toBeGreaterThan(0);
      // The proposal's changes the coordinator sees are the run's.
      await expect.poll(() => dialog.getByTestId('proposal-change').count()).toBe(run.proposal.changes.length);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 180_000);
});
