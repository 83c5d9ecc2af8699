// Queensland's public holidays of 2026 and 2027 (Brisbane: with the Royal Queensland Show's day), which the demo
// business's care plans skip. Part-day holidays (Christmas Eve from 6 pm) are left out: a care plan's visits that
// evening still happen. An administrator keeps the list in Settings.
import type { DbOrTx } from '../db/client';
import { publicHolidays } from '../db/schema-care';

export const QUEENSLAND_PUBLIC_HOLIDAYS: readonly { date: string; name: string }[] = [
  { date: '2026-01-01', name: 'New Year’s Day' },
  { date: '2026-01-26', name: 'Australia Day' },
  { date: '2026-04-03', name: 'Good Friday' },
  { date: '2026-04-04', name: 'Easter Saturday' },
  { date: '2026-04-05', name: 'Easter Sunday' },
  { date: '2026-04-06', name: 'Easter Monday' },
  { date: '2026-04-25', name: 'Anzac Day' },
  { date: '2026-05-04', name: 'Labour Day' },
  { date: '2026-08-12', name: 'Royal Queensland Show (Brisbane)' },
  { date: '2026-10-05', name: 'King’s Birthday' },
  { date: '2026-12-25', name: 'Christmas Day' },
  { date: '2026-12-26', name: 'Boxing Day' },
  { date: '2026-12-28', name: 'Boxing Day (additional day)' },
  { date: '2027-01-01', name: 'New Year’s Day' },
  { date: '2027-01-26', name: 'Australia Day' },
  { date: '2027-03-26', name: 'Good Friday' },
  { date: '2027-03-27', name: 'Easter Saturday' },
  { date: '2027-03-28', name: 'Easter Sunday' },
  { date: '2027-03-29', name: 'Easter Monday' },
  { date: '2027-04-25', name: 'Anzac Day' },
  { date: '2027-05-03', name: 'Labour Day' },
  { date: '2027-08-11', name: 'Royal Queensland Show (Brisbane)' },
  { date: '2027-10-04', name: 'King’s Birthday' },
  { date: '2027-12-25', name: 'Christmas Day' },
  { date: '2027-12-26', name: 'Boxing Day' },
  { date: '2027-12-27', name: 'Christmas Day (additional day)' },
  { date: '2027-12-28', name: 'Boxing Day (additional day)' },
];

export async function seedPublicHolidays(db: DbOrTx, businessAccountId: number): Promise<void> {
  await db.insert(publicHolidays).values(QUEENSLAND_PUBLIC_HOLIDAYS.map((holiday) => ({ business_account_id: businessAccountId, ...holiday })))
    .onConflictDoNothing();
}
