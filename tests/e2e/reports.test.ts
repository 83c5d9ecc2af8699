// An administrator opens each of the eight reports on the demo, changes a filter (the address keeps it over a reload)
// and downloads the CSV, which holds exactly the table's columns and rows (of every page, where the server pages it).
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { logIn, newPage } from './support/browser';
import { useProductAndBrowser } from './support/running';

const running = useProductAndBrowser();

/** RFC 4180 as the reports write it (BOM, CRLF, quoted fields with doubled quotes). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const body = text.replace(/^\uFEFF/, '');
  for (let index = 0; index < body.length; index++) {
    const char = body[index];
    if (quoted) {
      if (char === '"' && body[index + 1] === '"') { cell += '"'; index++; }
      else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') { row.push(cell); cell = ''; }
    else if (char === '\r' && body[index + 1] === '\n') { row.push(cell); rows.push(row); row = []; cell = ''; index++; }
    else cell += char;
  }
  return rows;
}

/** The table's header labels (as written, not as styled) and its rows, the totals row last, as shown (a cell's lines
 * joined by "; ", as the CSV writes them). */
function tableShown(table: Locator): Promise<{ header: string[]; rows: string[][] }> {
  return table.evaluate((element) => ({
    header: [...element.querySelectorAll('thead th')].map((cell) => (cell.textContent ?? '').replace(/[▲▼]$/, '').trim()),
    rows: [...element.querySelectorAll('tbody tr, tfoot tr')]
      .map((row) => [...row.querySelectorAll('td')].map((cell) => (cell as HTMLElement).innerText.trim().split(/\s*\n\s*/).join('; '))),
  }));
}

/** Clicks the table's "Download CSV" and reads the file the browser saved. */
async function downloadTable(page: Page, table: Locator): Promise<string[][]> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    table.locator('xpath=../..').getByRole('button', { name: 'Download CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/\.csv$/);
  // Read through the connection: the shared browser (a separate process the file connects to) keeps the file.
  return parseCsv(await text(await download.createReadStream()));
}

/** The whole table: on a table the server pages, every page in turn (100 rows a page), then back to the first. */
async function wholeTable(page: Page, table: Locator): Promise<{ header: string[]; rows: string[][] }> {
  const pager = table.locator('xpath=../..').getByRole('navigation', { name: 'Pagination' });
  if ((await pager.count()) === 0) return tableShown(table);
  await settled(page, pager.getByLabel('Rows per page').selectOption('100'));
  const first = await tableShown(table);
  const rows = [...first.rows];
  const next = pager.getByRole('button', { name: 'Next' });
  while (await next.isEnabled()) {
    await settled(page, next.click());
    rows.push(...(await tableShown(table)).rows);
  }
  expect(rows.length).toBe(Number((await pager.getByTestId('pagination-summary').innerText()).match(/of (\d+)/)![1]));
  return { header: first.header, rows };
}

async function expectCsvEqualsTable(page: Page, table: Locator) {
  const shown = await wholeTable(page, table);
  expect(shown.rows.length).toBeGreaterThan(0);
  const [header, ...rows] = await downloadTable(page, table);
  expect(header).toEqual(shown.header);
  expect(rows).toHaveLength(shown.rows.length);
  // Formula-like cells are prefixed with ' in the file; a time may be written ISO 8601 with its offset (the visit
  // verification export, for audit): its local date and time are the ones the table shows. Every other cell reads as
  // the table shows it.
  rows.forEach((row, index) => expect(row.map((cell) => shownAs(cell.replace(/^'(?=[=+\-@])/, '')))).toEqual(shown.rows[index]));
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** An ISO 8601 time with offset as the table shows it ('2026-12-07T12:15:00+10:00' → '07 Dec 2026 12:15'); else the cell. */
function shownAs(cell: string): string {
  const iso = cell.match(/^(\d{4})-(\d\d)-(\d\d)T(\d\d:\d\d)(?::\d\d)?[+-]\d\d:\d\d$/);
  return iso ? `${iso[3]} ${MONTHS[Number(iso[2]) - 1]} ${iso[1]} ${iso[4]}` : cell;
}

interface ReportCase {
  path: string;
  /** The table whose CSV is checked (its accessible name). */
  table: string;
  /** Changes one of the report's filters and says what the address then holds. */
  changeFilter: (page: Page) => Promise<RegExp>;
}

/** Picks a preset of the report's range other than its default; the address then holds the range. */
const choosePreset = (preset: string) => async (page: Page) => {
  await page.getByRole('group', { name: /presets$/ }).getByRole('button', { name: preset, exact: true }).click();
  return /start=\d{4}-\d{2}-\d{2}&end=\d{4}-\d{2}-\d{2}/;
};

/** Waits for the report's answer to the filters shown (the request made, then no fetching left). */
async function settled(page: Page, change: Promise<unknown>) {
  const answered = page.waitForResponse((response) => response.url().includes('/api/reports/'));
  await change;
  await answered;
  await expect.poll(() => page.getByTestId('report-fetching').count()).toBe(0);
}

const REPORTS: ReportCase[] = [
  {
    path: '/reports/activity', table: 'Activity report',
    changeFilter: async (page) => {
      await page.getByLabel('Kind').selectOption({ label: 'Import' });
      return /kind=/;
    },
  },
  {
    path: '/reports/appointments', table: 'Appointments report',
    changeFilter: async (page) => {
      await page.getByLabel('Group by').selectOption({ label: 'Appointment type' });
      return /group=type/;
    },
  },
  { path: '/reports/practitioner-travel', table: 'Practitioner travel', changeFilter: choosePreset('This month') },
  { path: '/reports/practitioner-performance', table: 'Practitioner performance', changeFilter: choosePreset('This month') },
  {
    // Every client by default; a range looks at clients with visits in it, and unticking goes back to every client.
    path: '/reports/clients-missing-address', table: 'Clients missing address',
    changeFilter: async (page) => {
      await settled(page, choosePreset('This month')(page));
      await page.getByLabel('Only clients with a visit in these days').uncheck();
      return /start=/;
    },
  },
  {
    path: '/reports/client-travel', table: 'Client travel',
    changeFilter: async (page) => {
      await page.getByRole('spinbutton', { name: /^Cap/ }).fill('20');
      return /cap=20/;
    },
  },
  {
    // The clients' table is paged and sorted by the server: the CSV is every page of it, in the order chosen.
    path: '/reports/client-geography', table: 'Client geography',
    changeFilter: async (page) => {
      await page.getByRole('table', { name: 'Client geography', exact: true }).getByRole('button', { name: /^Km/ }).click();
      return /sort=distance/;
    },
  },
  {
    // The EVV table is paged and sorted by the server: the CSV is every visit of the week, in the order chosen.
    path: '/reports/visit-verification', table: 'Visit verification',
    changeFilter: async (page) => {
      await page.getByRole('table', { name: 'Visit verification', exact: true }).getByRole('button', { name: /^Client/ }).click();
      return /sort=client/;
    },
  },
  {
    path: '/reports/client-geography', table: 'Clients per postcode',
    changeFilter: async (page) => {
      await page.getByLabel('Count by').selectOption('postcode');
      return /by=postcode/;
    },
  },
];

describe('the eight reports on the demo', () => {
  it.each(REPORTS)('$path: shows figures, keeps a changed filter in the address, and downloads the table as CSV', async ({ path, table: tableName, changeFilter }) => {
    const { context, page } = await newPage(running.browser, running.product.url);
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    try {
      await logIn(page, 'admin@demo.test');
      await page.goto(path);
      await page.getByTestId('report-summary').waitFor();

      let expected = /./;
      await settled(page, changeFilter(page).then((address) => { expected = address; }));
      await page.waitForURL(expected);
      const table = page.getByRole('table', { name: tableName, exact: true });
      await expect.poll(() => table.locator('tbody tr').count(), { timeout: 15_000 }).toBeGreaterThan(0);
      const summary = await page.getByTestId('report-summary').innerText();

      await page.reload();
      await page.getByTestId('report-summary').waitFor();
      expect(page.url()).toMatch(expected);
      await expect.poll(() => page.getByTestId('report-summary').innerText()).toBe(summary);

      await expectCsvEqualsTable(page, table);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
