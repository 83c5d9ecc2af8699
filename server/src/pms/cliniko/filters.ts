/**
 * Cliniko's `q[]` filter strings: `[field]:[operator][value]`, one `q[]` parameter per filter.
 * Date-times are sent in UTC ("2026-11-23T22:00:00Z"). The `*` operator ("any value") lifts the default
 * exclusion of cancelled / archived / deleted records on endpoints that hide them.
 */
export type FilterOperator = '=' | '!=' | '>' | '>=' | '<' | '<=' | '~' | '~~' | '?' | '!?' | '*';

export function filter(field: string, operator: FilterOperator, value = ''): string {
  return `${field}:${operator}${value}`;
}

/** Cliniko documents whole-second UTC date-times; milliseconds are dropped (floor) for the filter. */
export function utcFilterTime(iso: string, field: string): string {
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms) || !/T.*(Z|[+-]\d{2}:?\d{2})$/.test(iso)) {
    throw new Error(`${field}: must be an ISO-8601 date-time with a zone, got ${JSON.stringify(iso)}`);
  }
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** `field:=1,2,3` — Cliniko's list form of the numeric equality filter. */
export function idListFilter(field: string, ids: string[]): string {
  for (const id of ids) {
    if (!/^\d+$/.test(id)) throw new Error(`${field}: ids must be strings of digits, got ${JSON.stringify(id)}`);
  }
  return filter(field, '=', ids.join(','));
}
