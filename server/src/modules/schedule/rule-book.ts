// The business's rule book as it stands: its optimisation settings and its appointment types' own rules.
import type { DbOrTx } from '../../db/client';
import { listAppointmentTypes } from '../appointment-types';
import type { OptimizationSettingsValues } from '../optimization-settings';
import { ruleBookOf, type RuleBook } from './rules';

export async function loadRuleBook(db: DbOrTx, businessAccountId: number, settings: OptimizationSettingsValues): Promise<RuleBook> {
  const types = await listAppointmentTypes(db, businessAccountId);
  return ruleBookOf(settings, new Map(types.map((type) => [type.id, type])));
}
