// The automatic sync settings of a business (docs/decisions/0003-sync-jobs.md).
import { eq } from 'drizzle-orm';
import type { AuthContext } from '../../auth/access';
import { syncSettings, type SyncFilters } from '../../db/schema';
import type { Schemas } from '../../http/contract';
import type { AppContext } from '../../http/context';
import type { DbOrTx } from '../../db/client';
import { changesBetween, recordVersion } from '../audit';
import { assertOwnFilterIds } from './filters';

const toSyncSettingsDto = (row: typeof syncSettings.$inferSelect): Schemas['SyncSettings'] => ({
  enable_auto_import: row.enable_auto_import, enable_auto_export: row.enable_auto_export, ahead_days: row.ahead_days, filters: row.filters,
});

const DEFAULT_SYNC_SETTINGS: Schemas['SyncSettings'] = {
  enable_auto_import: false,
  enable_auto_export: false,
  ahead_days: 7,
  filters: { practitioner_ids: [], appointment_type_ids: [], business_location_ids: [] },
};

/** A new business's sync settings: automatic sync off, no filters (written with the business, in its transaction). */
export async function createSyncSettings(tx: DbOrTx, businessAccountId: number): Promise<void> {
  await tx.insert(syncSettings).values({ business_account_id: businessAccountId, filters: DEFAULT_SYNC_SETTINGS.filters });
}

export async function readSyncSettings(ctx: AppContext, auth: AuthContext): Promise<Schemas['SyncSettings']> {
  const [row] = await ctx.db.select().from(syncSettings).where(eq(syncSettings.business_account_id, auth.businessAccountId));
  return row ? toSyncSettingsDto(row) : DEFAULT_SYNC_SETTINGS;
}

export async function updateSyncSettings(ctx: AppContext, auth: AuthContext, body: Schemas['SyncSettings']): Promise<Schemas['SyncSettings']> {
  const filters: SyncFilters = {
    practitioner_ids: [...new Set(body.filters.practitioner_ids)],
    appointment_type_ids: [...new Set(body.filters.appointment_type_ids)],
    business_location_ids: [...new Set(body.filters.business_location_ids)],
  };
  await assertOwnFilterIds(ctx, auth.businessAccountId, filters);
  const values = {
    enable_auto_import: body.enable_auto_import,
    enable_auto_export: body.enable_auto_export,
    ahead_days: body.ahead_days,
    filters,
    updated_at: new Date(),
  };
  // The change is recorded in the change log (the filters as three lists, so each reads with names).
  const flat = (settings: Schemas['SyncSettings']) => ({
    enable_auto_import: settings.enable_auto_import, enable_auto_export: settings.enable_auto_export, ahead_days: settings.ahead_days,
    ...settings.filters,
  });
  const row = await ctx.db.transaction(async (tx) => {
    const [before] = await tx.select().from(syncSettings).where(eq(syncSettings.business_account_id, auth.businessAccountId)).for('update');
    const [saved] = await tx.insert(syncSettings).values({ business_account_id: auth.businessAccountId, ...values })
      .onConflictDoUpdate({ target: syncSettings.business_account_id, set: values }).returning();
    await recordVersion(tx, {
      businessAccountId: auth.businessAccountId, itemType: 'SyncSettings', itemId: auth.businessAccountId, event: 'update', whodunnit: auth.fullName,
      changes: changesBetween(flat(before ? toSyncSettingsDto(before) : DEFAULT_SYNC_SETTINGS), flat(toSyncSettingsDto(saved))),
    });
    return saved;
  });
  return toSyncSettingsDto(row);
}
