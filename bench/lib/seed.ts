// What the data benchmarks seed alike: rows inserted in batches, and one business (its admin bench@bench.test, the
// demo's business locations and appointment types) to put the rest in.
import type { Db } from '../../server/src/db/client';
import { appointmentTypes, businessLocations } from '../../server/src/db/schema';
import { DEMO_LOCATIONS } from '../../server/src/demo/generate';
import { createBusinessAccount } from '../../server/src/modules/business-account';
import { APPOINTMENT_TYPES, SAMPLE_TIME_ZONE } from '../../server/src/sample-data';

export const BENCH_EMAIL = 'bench@bench.test';
export const BENCH_PASSWORD = 'benchmark password';
const BATCH = 2000;

export async function insertInBatches<T>(rows: T[], insert: (batch: T[]) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < rows.length; start += BATCH) await insert(rows.slice(start, start + BATCH));
}

/** A business in Brisbane with the demo's business locations and appointment types. */
export async function createBenchBusiness(db: Db): Promise<{ businessAccountId: number; locationIds: number[]; typeIds: number[] }> {
  const { business } = await createBusinessAccount(db, {
    name: 'Bench Care', timeZone: SAMPLE_TIME_ZONE, admin: { email: BENCH_EMAIL, password: BENCH_PASSWORD, first_name: 'Ben' },
  });
  const businessAccountId = business.id;
  const locationIds = (await db.insert(businessLocations).values(DEMO_LOCATIONS.map(({ name, suburb }) => ({ business_account_id: businessAccountId, name, city: suburb })))
    .returning({ id: businessLocations.id })).map((row) => row.id);
  const typeIds = (await db.insert(appointmentTypes).values(APPOINTMENT_TYPES.map(({ name, duration, color }) => ({ business_account_id: businessAccountId, name, duration, color })))
    .returning({ id: appointmentTypes.id })).map((row) => row.id);
  return { businessAccountId, locationIds, typeIds };
}
