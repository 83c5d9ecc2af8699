import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Temporal } from 'temporal-polyfill';
import { parse } from 'yaml';
import { EARLIEST_DATE as SERVER_EARLIEST_DATE, LATEST_DATE as SERVER_LATEST_DATE, MAX_RANGE_DAYS as SERVER_MAX_RANGE_DAYS } from '../../../server/src/lib/day-range';
import { draftForMode, presetRange, prefillDraft, PRESETS } from './dateRange';
import { EARLIEST_DATE, LATEST_DATE, MAX_AHEAD_DAYS, MAX_RANGE_DAYS, rangeProblem } from '../../lib/syncRange';
import { selectionSummary } from '../../ui/MultiSelect';
import { offeredPractitioners } from './useSyncData';

const today = Temporal.PlainDate.from('2026-03-30');
const settings = { enable_auto_import: true, enable_auto_export: false, ahead_days: 21, filters: { practitioner_ids: [1, 2], appointment_type_ids: [3], business_location_ids: [4] } };

describe('presets', () => {
  it.each([
    ['today', '2026-03-30', '2026-03-30'],
    ['next7', '2026-03-30', '2026-04-06'],
    ['next14', '2026-03-30', '2026-04-13'],
    ['next30', '2026-03-30', '2026-04-29'],
    ['thisMonth', '2026-03-01', '2026-03-31'],
    ['previousMonth', '2026-02-01', '2026-02-28'],
    ['nextMonth', '2026-04-01', '2026-04-30'],
  ] as const)('%s', (preset, start, end) => {
    expect(presetRange(preset, today)).toEqual({ start, end });
  });

  it('crosses the year', () => {
    expect(presetRange('previousMonth', Temporal.PlainDate.from('2026-01-15'))).toEqual({ start: '2025-12-01', end: '2025-12-31' });
    expect(presetRange('nextMonth', Temporal.PlainDate.from('2026-12-31'))).toEqual({ start: '2027-01-01', end: '2027-01-31' });
  });

  it('are listed from the shortest range ahead to the calendar months', () => {
    expect(PRESETS.map((preset) => preset.label)).toEqual(['Today', 'Next 7 days', 'Next 14 days', 'Next 30 days', 'This month', 'Previous month', 'Next month']);
  });
});

describe('the range limit', () => {
  it('is the server’s, and days ahead stop where today..today+ahead_days would exceed it, as the contract says', () => {
    const contract = parse(readFileSync(new URL('../../../openapi/openapi.yaml', import.meta.url), 'utf8'));
    expect(MAX_RANGE_DAYS).toBe(SERVER_MAX_RANGE_DAYS);
    expect([EARLIEST_DATE, LATEST_DATE]).toEqual([SERVER_EARLIEST_DATE, SERVER_LATEST_DATE]);
    expect(MAX_AHEAD_DAYS).toBe(contract.components.schemas.SyncSettings.properties.ahead_days.maximum);
    expect(rangeProblem('2026-03-30', today.add({ days: MAX_AHEAD_DAYS }).toString())).toBeNull();
  });

  it('refuses a longer range in words, and an end before the start', () => {
    expect(rangeProblem('2026-01-01', '2026-03-03')).toBeNull();
    expect(rangeProblem('2026-01-01', '2026-03-04')).toBe('Choose at most 62 days: this range has 63.');
    expect(rangeProblem('2026-03-02', '2026-03-01')).toBe('The end date must be on or after the start date.');
    expect(rangeProblem('0001-01-01', '0001-01-02')).toBe('Choose dates between 1 January 2000 and 31 December 2099.');
    expect(rangeProblem('2099-12-31', '2100-01-01')).toBe('Choose dates between 1 January 2000 and 31 December 2099.');
  });
});

describe('prefill', () => {
  const base = { today, role: 'ADMIN' as const, associatedPractitionerIds: [], mode: 'NORMAL' as const };

  it('uses today..today+7 without settings or with automatic sync off', () => {
    expect(prefillDraft({ ...base, kind: 'import', settings: null })).toMatchObject({ start_date: '2026-03-30', end_date: '2026-04-06', practitioner_ids: [] });
    expect(prefillDraft({ ...base, kind: 'export', settings })).toMatchObject({ end_date: '2026-04-06' });
  });

  it('uses today..today+ahead_days and the filters with automatic sync on', () => {
    expect(prefillDraft({ ...base, kind: 'import', settings })).toEqual({
      start_date: '2026-03-30',
      end_date: '2026-04-20',
      practitioner_ids: [1, 2],
      appointment_type_ids: [3],
      business_location_ids: [4],
    });
  });

  it('keeps days ahead saved above the limit within one range', () => {
    const draft = prefillDraft({ ...base, kind: 'import', settings: { ...settings, ahead_days: 90 } });
    expect(draft).toMatchObject({ start_date: '2026-03-30', end_date: '2026-05-30' });
    expect(rangeProblem(draft.start_date!, draft.end_date!)).toBeNull();
  });

  it('preselects a practitioner’s own practitioners', () => {
    expect(prefillDraft({ ...base, kind: 'import', settings, role: 'PRACTITIONER', associatedPractitionerIds: [9] }).practitioner_ids).toEqual([9]);
  });

  it('FAST mode is one day with practitioners only', () => {
    expect(prefillDraft({ ...base, kind: 'import', settings, mode: 'FAST', date: '2026-04-02' })).toEqual({
      start_date: '2026-04-02',
      end_date: '2026-04-02',
      practitioner_ids: [1, 2],
      appointment_type_ids: [],
      business_location_ids: [],
    });
    const normal = prefillDraft({ ...base, kind: 'import', settings });
    expect(draftForMode(normal, 'FAST')).toMatchObject({ end_date: normal.start_date, appointment_type_ids: [], business_location_ids: [] });
    expect(draftForMode(normal, 'NORMAL')).toBe(normal);
  });

  it('opens on the days the page behind shows, whatever the automatic sync (FAST mode on the first)', () => {
    const range = { start: '2026-04-09', end: '2026-04-11' };
    expect(prefillDraft({ ...base, kind: 'export', settings, range })).toMatchObject({ start_date: '2026-04-09', end_date: '2026-04-11' });
    expect(prefillDraft({ ...base, kind: 'import', settings, range, mode: 'FAST' })).toMatchObject({ start_date: '2026-04-09', end_date: '2026-04-09' });
  });
});

describe('multi-select summary', () => {
  const options = [1, 2, 3, 4].map((id) => ({ id, name: `P${id}` }));
  it('placeholder, tags up to 3, a counter above', () => {
    expect(selectionSummary([])).toEqual({ kind: 'placeholder' });
    expect(selectionSummary(options.slice(0, 3))).toEqual({ kind: 'tags', names: ['P1', 'P2', 'P3'] });
    expect(selectionSummary(options)).toEqual({ kind: 'count', text: '4 selected' });
  });
});

describe('offered practitioners', () => {
  const practitioners = [
    { id: 1, full_name: 'Active', active: true },
    { id: 2, full_name: 'Inactive', active: false },
    { id: 3, full_name: 'Mine, inactive', active: false },
  ];
  it('active ones for staff, their own for a practitioner', () => {
    expect(offeredPractitioners(practitioners, 'ADMIN', [])).toEqual([{ id: 1, name: 'Active' }]);
    expect(offeredPractitioners(practitioners, 'PRACTITIONER', [3])).toEqual([{ id: 3, name: 'Mine, inactive' }]);
  });
});
