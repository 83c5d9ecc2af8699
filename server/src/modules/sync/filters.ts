// Sync filters (practitioners, appointment types, locations) must name the caller's business's own records.
import { and, eq, inArray } from 'drizzle-orm';
import { appointmentTypes, businessLocations, practitioners, type SyncFilters } from '../../db/schema';
import type { AppContext } from '../../http/context';
import { invalid } from '../../http/errors';

/** 422 naming the field when a filter names records of another business (or none). */
export async function assertOwnFilterIds(ctx: AppContext, businessAccountId: number, filters: Partial<SyncFilters>) {
  const checks = [
    ['practitioner_ids', practitioners, filters.practitioner_ids],
    ['appointment_type_ids', appointmentTypes, filters.appointment_type_ids],
    ['business_location_ids', businessLocations, filters.business_location_ids],
  ] as const;
  const problems: string[] = [];
  for (const [field, table, ids] of checks) {
    if (!ids?.length) continue;
    const unique = [...new Set(ids)];
    const found = await ctx.db.select({ id: table.id }).from(table)
      .where(and(eq(table.business_account_id, businessAccountId), inArray(table.id, unique)));
    const known = new Set(found.map((row) => row.id));
    const unknown = unique.filter((id) => !known.has(id));
    if (unknown.length) problems.push(`${field}: ${unknown.join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not in this business`);
  }
  if (problems.length) throw invalid(problems[0], problems);
}

