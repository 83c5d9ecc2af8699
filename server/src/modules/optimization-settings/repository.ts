// Optimisation settings queries: one row per business (none until an admin saves them).
import { eq } from 'drizzle-orm';
import { optimizationSettings } from '../../db/schema';
import type { DbOrTx } from '../../db/client';

export type OptimizationSettingsRow = typeof optimizationSettings.$inferSelect;
export type OptimizationSettingsColumns = Omit<OptimizationSettingsRow, 'business_account_id' | 'updated_at'>;

export async function findOptimizationSettings(db: DbOrTx, businessAccountId: number): Promise<OptimizationSettingsRow | undefined> {
  const [row] = await db.select().from(optimizationSettings).where(eq(optimizationSettings.business_account_id, businessAccountId));
  return row;
}

/** The business's row, created with the column defaults when it has none, locked for the rest of the transaction. */
export async function lockOptimizationSettings(tx: DbOrTx, businessAccountId: number): Promise<OptimizationSettingsRow> {
  await tx.insert(optimizationSettings).values({ business_account_id: businessAccountId }).onConflictDoNothing();
  const [row] = await tx.select().from(optimizationSettings).where(eq(optimizationSettings.business_account_id, businessAccountId)).for('update');
  return row;
}

export async function updateOptimizationSettings(tx: DbOrTx, businessAccountId: number, values: OptimizationSettingsColumns): Promise<OptimizationSettingsRow> {
  const [row] = await tx.update(optimizationSettings).set({ ...values, updated_at: new Date() })
    .where(eq(optimizationSettings.business_account_id, businessAccountId)).returning();
  return row;
}
