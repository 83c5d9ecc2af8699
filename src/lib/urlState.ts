// A page's state kept in the address's query string (wouter's search params), so a reload or a shared link shows the
// same page. Each key is typed by a parameter; values equal to their default are left out of the address, and a
// value that cannot be read (hand-edited, from an older version) reads as the default instead of breaking the page.
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'wouter';
import { Temporal } from 'temporal-polyfill';

export interface UrlParam<T> {
  /** The key's entries in the query (empty when absent) → the value, or undefined when they cannot be read. */
  parse(entries: readonly string[]): T | undefined;
  format(value: T): string[];
  fallback: T;
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
    parse: first((entry) => {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(entry)) return undefined;
      try {
        return Temporal.PlainDate.from(entry, { overflow: 'reject' });
      } catch {
        return undefined;
      }
    }),
    format: (value) => (value === null ? [] : [value.toString()]),
    fallback,
  }),
};

export type UrlValues<Schema> = { [Key in keyof Schema]: Schema[Key] extends UrlParam<infer Value> ? Value : never };
export type SetUrlValues<Schema> = (patch: Partial<UrlValues<Schema>>, options?: { replace?: boolean }) => void;

/** Reads the schema's keys from `params`. */
export function readUrlValues<Schema extends Record<string, UrlParam<unknown>>>(schema: Schema, params: URLSearchParams): UrlValues<Schema> {
  const values: Record<string, unknown> = {};
  for (const [key, param] of Object.entries(schema)) values[key] = param.parse(params.getAll(key)) ?? param.fallback;
  return values as UrlValues<Schema>;
}

/** `params` with the patched keys rewritten; defaults are removed, every other key is kept as it was. */
export function writeUrlValues<Schema extends Record<string, UrlParam<unknown>>>(
  schema: Schema,
  params: URLSearchParams,
  patch: Partial<UrlValues<Schema>>,
): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const [key, value] of Object.entries(patch)) {
    const param = schema[key];
    if (!param) continue;
    next.delete(key);
    const entries = param.format(value);
    if (entries.join('\u0000') === param.format(param.fallback).join('\u0000')) continue;
    for (const entry of entries) next.append(key, entry);
  }
  return next;
}

/**
 * The page state `schema` describes, read from the address, and a setter that writes a patch of it back (a new
 * history entry, or in place with `replace`, e.g. while typing). Keys outside the schema stay untouched.
 */
export function useUrlState<Schema extends Record<string, UrlParam<unknown>>>(schema: Schema): [UrlValues<Schema>, SetUrlValues<Schema>] {
  const [params, setParams] = useSearchParams();
  const values = useMemo(() => readUrlValues(schema, params), [schema, params]);
  const setValues = useCallback<SetUrlValues<Schema>>(
    (patch, options) => setParams((current) => writeUrlValues(schema, current, patch), { replace: options?.replace ?? false }),
    [schema, setParams],
  );
  return [values, setValues];
}
