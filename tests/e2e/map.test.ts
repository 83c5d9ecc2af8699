// The street map in a real browser: with MAP_STYLE_URL set, the day schedule's map is drawn by MapLibre GL (headless
// Chromium has WebGL 2 through SwiftShader, even with --disable-gpu) over a style served by this test on a loopback
// port — a background layer only, so nothing is fetched from the network — through the product's
// Content-Security-Policy, with its numbered pins, its credit, and pins that open their visit.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Temporal } from 'temporal-polyfill';
import { logIn, newPage } from './support/browser';
import { useProductAndBrowser } from './support/running';

const STYLE = {
  version: 8,
  name: 'Rounds e2e background',
  sources: {},
  layers: [{ id: 'background', type: 'background', paint: { 'background-color': '#dfe7d0' } }],
};

let styleServer: Server;
const styleRequests: string[] = [];
const env: Record<string, string> = {};

beforeAll(async () => {
  styleServer = createServer((request, response) => {
    styleRequests.push(request.url ?? '');
    if (request.url !== '/style.json') {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' }).end(JSON.stringify(STYLE));
  });
  await new Promise<void>((resolve) => styleServer.listen(0, '127.0.0.1', resolve));
  env.MAP_STYLE_URL = `http://127.0.0.1:${(styleServer.address() as AddressInfo).port}/style.json`;
  env.MAP_ATTRIBUTION = '© Rounds test tiles';
});
// Registered after the style server's beforeAll, so the product starts with its address.
const running = useProductAndBrowser(env);
afterAll(() => new Promise<void>((resolve) => styleServer.close(() => resolve())));

/** The next weekday from today in Brisbane: the demo books visits on weekdays from today on. */
function nextWeekday(): string {
  let day = Temporal.Now.plainDateISO('Australia/Brisbane');
  while (day.dayOfWeek > 5) day = day.add({ days: 1 });
  return day.toString();
}

describe('the MapLibre map', () => {
  it("draws the day's visits over the configured style, credits it, and opens a visit from its pin", async () => {
    const { context, page } = await newPage(running.browser, running.product.url);
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    try {
      await logIn(page, 'admin@demo.test');
      const day = nextWeekday();
      await page.goto(`/appointments?view=schedule&start=${day}&end=${day}`);
      const map = page.locator('[data-testid="map"][data-renderer="maplibre"]');
      await map.waitFor();
      // The style came from the test's server; the map drew into its WebGL canvas and did not fall back.
      await map.locator('canvas.maplibregl-canvas').waitFor();
      await expect.poll(() => styleRequests).toContain('/style.json');
      expect(await page.getByTestId('map-note').count()).toBe(0);
      await expect.poll(() => map.locator('.maplibregl-ctrl-attrib').textContent()).toContain('© Rounds test tiles');

      // One numbered pin per visit of each practitioner (a place visited twice is one pin), and a legend entry each.
      const pins = map.getByTestId('map-marker');
      await expect.poll(() => pins.count()).toBeGreaterThan(3);
      const labels = await pins.evaluateAll((elements) => elements.map((element) => (element as HTMLElement).dataset.label));
      expect(labels).toContain('1');
      expect(labels).toContain('2');
      const legend = page.getByTestId('map-legend');
      expect(await legend.getByRole('checkbox').count()).toBeGreaterThan(1);

      // Hiding the first practitioner removes their pins.
      const before = await pins.count();
      const first = legend.getByRole('checkbox').first();
      const firstName = (await first.locator('xpath=..').textContent())!.replace(/\d+ stops?$/, '').trim();
      await first.uncheck();
      await expect.poll(() => pins.count()).toBeLessThan(before);
      expect(await map.locator(`[data-testid="map-marker"][aria-label^="${firstName}:"]`).count()).toBe(0);
      await first.check();
      await expect.poll(() => pins.count()).toBe(before);

      // A pin is a button that opens its visit, from the keyboard too (pins close together overlap at a city's zoom).
      const stop = map.locator('[data-testid="map-marker"][data-kind="stop"][data-label="1"]').first();
      const title = (await stop.getAttribute('aria-label'))!;
      await stop.focus();
      await page.keyboard.press('Enter');
      const modal = page.getByTestId('appointment-details-modal');
      await modal.waitFor();
      await expect.poll(() => modal.getByRole('heading').first().textContent()).toContain(title.split(': ')[1]);

      expect(problems.filter((text) => /Content Security Policy|worker|WebGL/i.test(text))).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("gives a practitioner on a phone their run sheet: the visits in order with directions, and the day on the map", async () => {
    const context = await running.browser.newContext({
      baseURL: running.product.url, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, timezoneId: 'Australia/Brisbane', locale: 'en-AU',
    });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    try {
      await logIn(page, 'practitioner@demo.test');
      await page.getByRole('link', { name: 'Open today’s run sheet' }).click();
      await page.waitForURL('**/appointments');
      // The demo practitioner may have no visits today: step to the next day that has some.
      const sheet = page.getByTestId('run-sheet');
      for (let step = 0; step < 6 && !(await sheet.isVisible()); step++) {
        await page.getByRole('button', { name: 'Next period' }).click();
        await page.waitForTimeout(1000);
      }
      await sheet.waitFor();
      expect(await page.getByRole('button', { name: 'Run sheet' }).getAttribute('aria-pressed')).toBe('true');
      const stops = sheet.getByTestId('run-sheet-stop');
      expect(await stops.count()).toBeGreaterThan(0);
      const times = await sheet.getByTestId('run-sheet-arrival').allTextContents();
      expect(times).toEqual([...times].sort());
      // Directions and a phone number for the first visit, once its details are in.
      const first = stops.first();
      await first.getByRole('link', { name: 'Google Maps' }).waitFor();
      expect(await first.getByRole('link', { name: 'Waze' }).getAttribute('href')).toMatch(/^https:\/\/waze\.com\/ul\?q=/);
      expect(await first.locator('a[href^="tel:"]').count()).toBeGreaterThan(0);
      // The map is MapLibre's, with one numbered pin per stop place; nothing is wider than the phone.
      await sheet.locator('[data-testid="map"][data-renderer="maplibre"] canvas.maplibregl-canvas').waitFor();
      expect(await sheet.locator('[data-testid="map-marker"][data-kind="stop"]').count()).toBeGreaterThan(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    } finally {
      await context.close();
    }
  });
});
