import { describe, expect, it } from 'vitest';
import { Temporal } from 'temporal-polyfill';
import { correctedUrlValues, readUrlValues, urlParam, writeUrlValues } from './urlState';

const today = Temporal.PlainDate.from('2026-11-24');
const schema = {
  start: urlParam.date(today),
  end: urlParam.date(null),
  ids: urlParam.ids(),
  view: urlParam.oneOf(['list', 'schedule'], 'list'),
  page: urlParam.integer(1),
  tag: urlParam.integer(null),
  flag: urlParam.flag(),
  q: urlParam.text(),
};

describe('URL state', () => {
  it('reads typed values and defaults for absent keys', () => {
    const values = readUrlValues(schema, new URLSearchParams('start=2026-12-01&ids=7&ids=9&view=schedule&page=3&tag=4&flag=true&q=a+b'));
    expect(values).toEqual({ start: Temporal.PlainDate.from('2026-12-01'), end: null, ids: [7, 9], view: 'schedule', page: 3, tag: 4, flag: true, q: 'a b' });
    expect(readUrlValues(schema, new URLSearchParams(''))).toEqual({ start: today, end: null, ids: [], view: 'list', page: 1, tag: null, flag: false, q: '' });
  });

  it('reads what it cannot use as the default, and drops unreadable ids', () => {
    const values = readUrlValues(schema, new URLSearchParams('start=2026-02-30&end=tomorrow&ids=x&ids=5&ids=99999999999&view=map&page=0&tag=-1&flag=yes'));
    expect(values).toMatchObject({ start: today, end: null, ids: [5], view: 'list', page: 1, tag: null, flag: false });
    expect(readUrlValues(schema, new URLSearchParams('page=1e3')).page).toBe(1);
  });

  it('writes only the patched keys, leaves defaults out and keeps other keys', () => {
    const next = writeUrlValues(schema, new URLSearchParams('appointment=5&page=2&ids=1'), { page: 1, ids: [3, 4], start: today, end: Temporal.PlainDate.from('2026-11-26') });
    expect(next.toString()).toBe('appointment=5&ids=3&ids=4&end=2026-11-26');
    expect(writeUrlValues(schema, next, { ids: [], end: null, q: 'x' }).toString()).toBe('appointment=5&q=x');
  });

  it('keeps a date range in two keys written together, and corrects an address holding half of one', () => {
    const day = (text: string) => Temporal.PlainDate.from(text);
    const ranged = { range: urlParam.dateRange({ start: today, end: today }, { maxDays: 62 }), page: urlParam.integer(1) };
    // A range starting today still names its start: tomorrow the link shows the same days.
    const chosen = writeUrlValues(ranged, new URLSearchParams('client=3'), { range: { start: today, end: day('2026-11-26') } });
    expect(chosen.toString()).toBe('client=3&start=2026-11-24&end=2026-11-26');
    expect(readUrlValues(ranged, chosen).range).toEqual({ start: today, end: day('2026-11-26') });
    expect(writeUrlValues(ranged, new URLSearchParams(), { range: { start: day('2026-11-25'), end: day('2026-11-25') } }).toString()).toBe('start=2026-11-25&end=2026-11-25');
    expect(writeUrlValues(ranged, chosen, { range: { start: today, end: today } }).toString()).toBe('client=3');
    expect(correctedUrlValues(ranged, chosen)).toBeNull();

    for (const half of ['end=2026-11-22', 'start=2026-11-26', 'start=2026-11-26&end=2026-11-23', 'start=2026-01-01&end=2026-11-26', 'start=x&end=2026-11-26']) {
      const params = new URLSearchParams(`${half}&client=3&page=2`);
      expect(readUrlValues(ranged, params).range).toEqual({ start: today, end: today });
      expect(correctedUrlValues(ranged, params)?.toString()).toBe('client=3&page=2');
    }
    expect(correctedUrlValues(ranged, new URLSearchParams('page=0&client=3'))?.toString()).toBe('client=3');
  });
});
