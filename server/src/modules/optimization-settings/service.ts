// Optimisation settings: how a business's days are optimised. Anyone who may run the optimiser reads them (the
// defaults until an admin saves them); an admin saves them. Choosing a preset writes its weights; weights set by hand
// make the preset custom. Each save is in the change log (item OptimizationSettings, id = the business's).
import type { AuthContext } from '../../auth/access';
import type { BodyOf, Schemas } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { invalid } from '../../http/errors';
import type { DbOrTx } from '../../db/client';
import { changesBetween, recordVersion } from '../audit';
import { columnsOf, toOptimizationSettingsDto, valuesOfRow } from './dto';
import { DEFAULT_OPTIMIZATION_SETTINGS, PRESET_WEIGHTS, sameWeights, type OptimizationSettingsValues } from './presets';
import { findOptimizationSettings, lockOptimizationSettings, updateOptimizationSettings } from './repository';

export type OptimizationSettingsUpdate = BodyOf<'updateOptimizationSettings'>;

/** The business's optimisation settings, or the defaults when it has never saved any (what a run uses). */
export async function optimizationSettingsOf(db: DbOrTx, businessAccountId: number): Promise<OptimizationSettingsValues> {
  const row = await findOptimizationSettings(db, businessAccountId);
  return row ? valuesOfRow(row) : structuredClone(DEFAULT_OPTIMIZATION_SETTINGS) as OptimizationSettingsValues;
}

/** The settings after `input`: fields left out keep their value; the preset and the weights follow each other. */
export function applyOptimizationSettings(current: OptimizationSettingsValues, input: OptimizationSettingsUpdate): OptimizationSettingsValues {
  const { preset, weights, ...rest } = input;
  const next: OptimizationSettingsValues = { ...current, ...rest, weights: { ...current.weights } };
  if (preset !== undefined && preset !== 'custom') {
    if (weights && !sameWeights(weights, PRESET_WEIGHTS[preset])) {
      throw invalid(`weights: these are not the weights of the ${preset} preset. Leave weights out to use the preset, or send preset custom with your own weights.`);
    }
    next.preset = preset;
    next.weights = { ...PRESET_WEIGHTS[preset] };
  } else if (preset === 'custom' || weights) {
    next.preset = 'custom';
    if (weights) next.weights = { ...weights };
  }
  return next;
}

export class OptimizationSettingsService {
  constructor(private readonly ctx: AppContext) {}

  async get(auth: AuthContext): Promise<Schemas['OptimizationSettings']> {
    const row = await findOptimizationSettings(this.ctx.db, auth.businessAccountId);
    return toOptimizationSettingsDto(row ? valuesOfRow(row) : DEFAULT_OPTIMIZATION_SETTINGS, row?.updated_at ?? null);
  }

  async update(auth: AuthContext, input: OptimizationSettingsUpdate): Promise<Schemas['OptimizationSettings']> {
    const { businessAccountId } = auth;
    const saved = await this.ctx.db.transaction(async (tx) => {
      const before = valuesOfRow(await lockOptimizationSettings(tx, businessAccountId));
      const after = applyOptimizationSettings(before, input);
      const changes = changesBetween(before, after);
      const row = await updateOptimizationSettings(tx, businessAccountId, columnsOf(after));
      await recordVersion(tx, { businessAccountId, itemType: 'OptimizationSettings', itemId: businessAccountId, event: 'update', whodunnit: auth.fullName, changes });
      return row;
    });
    return toOptimizationSettingsDto(valuesOfRow(saved), saved.updated_at);
  }
}
