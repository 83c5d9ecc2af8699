// What the route tests share: Brisbane times (UTC+10, no daylight saving), working hours on every weekday, and a day
// optimised and applied through the API as a coordinator would.
import { expect } from 'vitest';
import type { TestApp } from './app';
import type { BusinessFixture } from './fixtures';
import { drainJobs } from './jobs';

export const workingEveryDay = (start: string, end: string) => Array.from({ length: 7 }, () => ({ start, end }));

/** 'HH:MM' on a Brisbane `date` as an instant. */
export const brisbaneAt = (date: string, hhmm: string) => new Date(`${date}T${hhmm}:00+10:00`);

/** An instant's Brisbane 'HH:MM'. */
export const brisbaneClock = (iso: string) => new Date(Date.parse(iso) + 10 * 3600_000).toISOString().slice(11, 16);

export const routesOf = async (t: TestApp, business: BusinessFixture, date: string) =>
  (await t.request('GET', `/api/routes?date=${date}`, { token: business.tokens.admin })).body.routes as any[];

/** Optimises a day for the practitioners (keeping each visit's practitioner) and applies it; answers the routes. */
export async function optimiseAndApply(t: TestApp, business: BusinessFixture, date: string, practitionerIds: number[]) {
  const created = await t.request('POST', '/api/optimizations', { token: business.tokens.admin, body: { date, practitioner_ids: practitionerIds } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  await drainJobs(t.ctx);
  const applied = await t.request('POST', `/api/optimizations/${created.body.optimization.id}/apply`, { token: business.tokens.admin });
  expect(applied.status, JSON.stringify(applied.body)).toBe(200);
  return applied.body.routes as any[];
}
