// A page's state kept in the address's query string (wouter's search params), so a reload or a shared link shows the
// same page. Each key is typed by a parameter; values equal to their default are left out of the address, and a
// value that cannot be read (hand-edited, from an older version) reads as the default instead of breaking the page,
// and the address is corrected to say so. A value kept in several keys (a date range's start and end) is one group:
// its keys are written together or not at all, so a link never holds half of it.
import { useCallback, useEffect, useMemo } from 'react';
import { useSearchParams } from 'wouter';
import { Temporal } from 'temporal-polyfill';

export interface UrlParam<T> {
  /** The key's entries in the query (empty when absent) → the value, or undefined when they cannot be read. */
  parse(entries: readonly string[]): T | undefined;
  format(value: T): string[];
  fallback: T;
}

/** A value kept in several keys that are written together: all of them, or none when it is the default. */
export interface UrlGroup<T> {
  keys: readonly string[];
  /** Each key's entries (empty when absent) → the value, or undefined when they do not make a whole one. */
  parse(entries: Readonly<Record<string, readonly string[]>>): T | undefined;
  /** Every key's entries. */
  format(value: T): Record<string, string[]>;
  fallback: T;
}

export type UrlField<T> = UrlParam<T> | UrlGroup<T>;
type Schema = Record<string, UrlField<unknown>>;

/** A range of calendar days, both ends included. */
export interface UrlDateRange {
  start: Temporal.PlainDate;
  end: Temporal.PlainDate;
}

const MAX_ID = 2 ** 31 - 1;
const isDigits = (text: string) => /^\d{1,10}$/.test(text);

function first<T>(read: (entry: string) => T | undefined) {
  return (entries: readonly string[]) => (entries.length === 0 ? undefined : read(entries[0]));
}

/** The parameter builders; every one takes the value used when the key is absent or unreadable. */
export const urlParam = {
  text: (fallback = ''): UrlParam<string> => ({ parse: first((entry) => entry), format: (value) => [value], fallback }),

  /** A whole number from `min` (1) to `max` (2³¹−1); `null` as the fallback makes it optional. */
  integer: <Fallback extends number | null>(fallback: Fallback, { min = 1, max = MAX_ID }: { min?: number; max?: number } = {}): UrlParam<number | Fallback> => ({
    parse: first((entry) => {
      if (!isDigits(entry)) return undefined;
      const value = Number(entry);
      return value >= min && value <= max ? value : undefined;
    }),
    format: (value) => (value === null ? [] : [String(value)]),
    fallback,
  }),

  oneOf: <const Value extends string | number>(values: readonly Value[], fallback: Value): UrlParam<Value> => ({
    parse: first((entry) => values.find((value) => String(value) === entry)),
    format: (value) => [String(value)],
    fallback,
  }),

  /** A set of record ids as repeated keys (`practitioner=7&practitioner=9`); unreadable entries are dropped. */
  ids: (): UrlParam<number[]> => ({
    parse: (entries) => [...new Set(entries.filter(isDigits).map(Number).filter((id) => id >= 1 && id <= MAX_ID))],
    format: (ids) => ids.map(String),
    fallback: [],
  }),

  flag: (): UrlParam<boolean> => ({
    parse: first((entry) => (entry === 'true' ? true : entry === 'false' ? false : undefined)),
    format: (value) => [String(value)],
    fallback: false,
  }),

  /** A calendar day as yyyy-MM-dd; `null` as the fallback makes it optional. */
  date: <Fallback extends Temporal.PlainDate | null>(fallback: Fallback): UrlParam<Temporal.PlainDate | Fallback> => ({
    parse: first(readDay),
    format: (value) => (value === null ? [] : [value.toString()]),
    fallback,
  }),

  /**
   * A range of days in two keys (yyyy-MM-dd each), both written when the range is not the fallback: a link names the
   * whole range, not an end relative to whatever today is. One key alone, an end before the start or a range longer
   * than `maxDays` reads as the fallback.
   */
  dateRange: (fallback: UrlDateRange, { keys = ['start', 'end'], maxDays }: { keys?: readonly [string, string]; maxDays: number }): UrlGroup<UrlDateRange> => ({
    keys,
    parse: (entries) => {
      const [startEntries, endEntries] = keys.map((key) => entries[key] ?? []);
      if (startEntries.length !== 1 || endEntries.length !== 1) return undefined;
      const start = readDay(startEntries[0]);
      const end = readDay(endEntries[0]);
      if (!start || !end) return undefined;
      const length = start.until(end).days;
      return length >= 0 && length < maxDays ? { start, end } : undefined;
    },
    format: (range) => ({ [keys[0]]: [range.start.toString()], [keys[1]]: [range.end.toString()] }),
    fallback,
  }),
};

function readDay(entry: string): Temporal.PlainDate | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(entry)) return undefined;
  try {
    return Temporal.PlainDate.from(entry, { overflow: 'reject' });
  } catch {
    return undefined;
  }
}

const isGroup = (field: UrlField<unknown>): field is UrlGroup<unknown> => 'keys' in field;

/** The field's keys and each key's entries for `value`; a value equal to the fallback has no entries. */
function entriesOf(name: string, field: UrlField<unknown>, value: unknown): Record<string, string[]> {
  if (isGroup(field)) {
    const entries = field.format(value);
    const fallback = field.format(field.fallback);
    const isFallback = field.keys.every((key) => (entries[key] ?? []).join('\u0000') === (fallback[key] ?? []).join('\u0000'));
    return Object.fromEntries(field.keys.map((key) => [key, isFallback ? [] : (entries[key] ?? [])]));
  }
  const entries = field.format(value);
  return { [name]: entries.join('\u0000') === field.format(field.fallback).join('\u0000') ? [] : entries };
}

function readField(name: string, field: UrlField<unknown>, params: URLSearchParams): unknown {
  const value = isGroup(field) ? field.parse(Object.fromEntries(field.keys.map((key) => [key, params.getAll(key)]))) : field.parse(params.getAll(name));
  return value ?? field.fallback;
}

export type UrlValues<S> = { [Key in keyof S]: S[Key] extends UrlField<infer Value> ? Value : never };
export type SetUrlValues<S> = (patch: Partial<UrlValues<S>>, options?: { replace?: boolean }) => void;

/** Reads the schema's fields from `params`. */
export function readUrlValues<S extends Schema>(schema: S, params: URLSearchParams): UrlValues<S> {
  const values: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(schema)) values[name] = readField(name, field, params);
  return values as UrlValues<S>;
}

/** `params` with the patched fields rewritten; defaults are removed, every other key is kept as it was. */
export function writeUrlValues<S extends Schema>(schema: S, params: URLSearchParams, patch: Partial<UrlValues<S>>): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const [name, value] of Object.entries(patch)) {
    const field = schema[name];
    if (!field) continue;
    for (const [key, entries] of Object.entries(entriesOf(name, field, value))) {
      next.delete(key);
      for (const entry of entries) next.append(key, entry);
    }
  }
  return next;
}

/** `params` rewritten to say what the page shows (unreadable or partial values removed), or null when it already does. */
export function correctedUrlValues<S extends Schema>(schema: S, params: URLSearchParams): URLSearchParams | null {
  const values = readUrlValues(schema, params);
  const wrong = Object.entries(schema).some(([name, field]) =>
    Object.entries(entriesOf(name, field, values[name])).some(([key, entries]) => params.getAll(key).join('\u0000') !== entries.join('\u0000')),
  );
  return wrong ? writeUrlValues(schema, params, values) : null;
}

/**
 * The page state `schema` describes, read from the address, and a setter that writes a patch of it back (a new
 * history entry, or in place with `replace`, e.g. while typing). Keys outside the schema stay untouched. An address
 * holding values the page cannot use is corrected in place, so it never says something the page does not show.
 */
export function useUrlState<S extends Schema>(schema: S): [UrlValues<S>, SetUrlValues<S>] {
  const [params, setParams] = useSearchParams();
  const values = useMemo(() => readUrlValues(schema, params), [schema, params]);
  const setValues = useCallback<SetUrlValues<S>>(
    (patch, options) => setParams((current) => writeUrlValues(schema, current, patch), { replace: options?.replace ?? false }),
    [schema, setParams],
  );
  useEffect(() => {
    if (correctedUrlValues(schema, params)) setParams((current) => correctedUrlValues(schema, current) ?? current, { replace: true });
  }, [schema, params, setParams]);
  return [values, setValues];
}
