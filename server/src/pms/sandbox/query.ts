/**
 * Cliniko's `q[]=field:OPvalue` filters, evaluated over the sandbox's records with the operator sets Cliniko
 * documents per field type. Records with a hidden-by-default field set (archived_at, cancelled_at,
 * deleted_at) are left out unless a filter names that field — `archived_at:*` ("any value") lets them in.
 */
export type FieldType = 'id' | 'datetime' | 'date' | 'string' | 'boolean';
export type FilterSchema = Record<string, FieldType>;

const OPERATORS = ['>=', '<=', '!=', '!?', '~~', '>', '<', '=', '~', '?', '*'] as const;
type Operator = (typeof OPERATORS)[number];

const ALLOWED: Record<FieldType, readonly Operator[]> = {
  id: ['=', '!=', '>=', '>', '<=', '<', '?', '!?'],
  datetime: ['>=', '>', '<=', '<', '?', '!?', '*'],
  date: ['=', '>=', '>', '<=', '<', '?', '!?'],
  string: ['=', '!=', '~', '~~', '?', '!?'],
  boolean: ['=', '!='],
};

export interface ParsedFilter {
  field: string;
  type: FieldType;
  operator: Operator;
  value: string;
  /** Date-time filters: the value as epoch ms and as canonical "yyyy-MM-ddTHH:mm:ssZ" (ms dropped). */
  valueMs: number;
  canonical: string;
}

const CANONICAL_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

export class SandboxQueryError extends Error {}

export function parseFilters(values: string[], schema: FilterSchema): ParsedFilter[] {
  return values.map((text) => {
    const colon = text.indexOf(':');
    if (colon <= 0) throw new SandboxQueryError(`q[]: expected "field:OPvalue", got ${JSON.stringify(text)}`);
    const field = text.slice(0, colon);
    const rest = text.slice(colon + 1);
    const type = schema[field];
    if (!type) throw new SandboxQueryError(`q[]: cannot filter on "${field}"`);
    const operator = OPERATORS.find((op) => rest.startsWith(op));
    if (!operator || !ALLOWED[type].includes(operator)) {
      throw new SandboxQueryError(`q[]: unsupported operator for ${field} (${type}) in ${JSON.stringify(text)}`);
    }
    const value = rest.slice(operator.length);
    validateValue(field, type, operator, value);
    const valueMs = type === 'datetime' ? Date.parse(value) : NaN;
    const canonical = Number.isFinite(valueMs) ? new Date(valueMs).toISOString().replace(/\.\d{3}Z$/, 'Z') : '';
    const exact = Number.isFinite(valueMs) && valueMs % 1000 === 0;
    return { field, type, operator, value, valueMs, canonical: exact ? canonical : '' };
  });
}

function validateValue(field: string, type: FieldType, operator: Operator, value: string) {
  if (operator === '?' || operator === '!?' || operator === '*') return;
  const bad = (what: string) => new SandboxQueryError(`q[]: ${field} needs ${what}, got ${JSON.stringify(value)}`);
  if (type === 'id' && !(operator === '=' ? /^\d+(,\d+)*$/ : /^\d+$/).test(value)) throw bad('digits');
  if (type === 'datetime' && !(/T.*(Z|[+-]\d{2}:?\d{2})$/.test(value) && Number.isFinite(Date.parse(value)))) {
    throw bad('a UTC date-time like 2014-08-30T18:00:00Z');
  }
  if (type === 'date' && !/^\d{4}-\d{2}-\d{2}$/.test(value)) throw bad('a yyyy-MM-dd date');
  if (type === 'boolean' && value !== 'true' && value !== 'false') throw bad('true or false');
}

function compare(filter: ParsedFilter, value: string): number {
  if (filter.type === 'id') {
    const x = BigInt(value);
    const y = BigInt(filter.value);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (filter.type === 'datetime') {
    // Stored timestamps are canonical whole-second UTC, which sort as strings; skip parsing when both are.
    if (filter.canonical !== '' && value.length === 20 && CANONICAL_UTC.test(value)) return value < filter.canonical ? -1 : value > filter.canonical ? 1 : 0;
    return Date.parse(value) - filter.valueMs;
  }
  return value < filter.value ? -1 : value > filter.value ? 1 : 0;
}

function wildcardToRegExp(pattern: string): RegExp {
  const escaped = pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/%/g, '.*');
  return new RegExp(`^${escaped}$`, 'i');
}

function matches(filter: ParsedFilter, raw: unknown): boolean {
  const present = raw !== null && raw !== undefined && raw !== '';
  switch (filter.operator) {
    case '*':
      return true;
    case '?':
      return present;
    case '!?':
      return !present;
  }
  if (!present) return false;
  const value = String(raw);
  switch (filter.operator) {
    case '=':
      if (filter.type === 'id') return filter.value.split(',').includes(value);
      return filter.type === 'string' ? value.toLowerCase() === filter.value.toLowerCase() : value === filter.value;
    case '!=':
      return filter.type === 'string' ? value.toLowerCase() !== filter.value.toLowerCase() : value !== filter.value;
    case '~':
      return value.toLowerCase().includes(filter.value.toLowerCase());
    case '~~':
      return wildcardToRegExp(filter.value).test(value);
    case '>':
      return compare(filter, value) > 0;
    case '>=':
      return compare(filter, value) >= 0;
    case '<':
      return compare(filter, value) < 0;
    case '<=':
      return compare(filter, value) <= 0;
  }
}

export function applyFilters<R extends object>(
  records: readonly R[],
  filters: ParsedFilter[],
  hiddenByDefault: readonly string[],
): R[] {
  const named = new Set(filters.map((f) => f.field));
  const stillHidden = hiddenByDefault.filter((field) => !named.has(field));
  // "*" only lifts the default exclusion; it never rules a record out.
  const active = filters.filter((f) => f.operator !== '*');
  return records.filter((record) => {
    const values = record as Record<string, unknown>;
    for (const field of stillHidden) if (values[field] !== null && values[field] !== undefined) return false;
    for (const f of active) if (!matches(f, values[f.field])) return false;
    return true;
  });
}
