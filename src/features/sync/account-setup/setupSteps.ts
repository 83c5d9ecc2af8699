// Where the first-run wizard stands, from the real state: the provider account's status, whether an import has
// ever completed, and (between connecting and the first import) whether the user has reviewed the settings.
import type { ProviderAccount } from '../../../api/types';

export type SetupStep = 'connect' | 'initializing' | 'review' | 'import' | 'done';

export const STEP_TITLES = ['Connect your practice management system', 'Review time zone and sync settings', 'Run the first import'] as const;

export interface SetupProgress {
  /** The user saved or kept the sync settings in this visit. */
  reviewed: boolean;
  /** An import of this business has completed (in this visit or before). */
  importCompleted: boolean;
}

export function setupStep(account: ProviderAccount | null, { reviewed, importCompleted }: SetupProgress): SetupStep {
  // A connection that was lost has to be made again, whatever was imported through it before.
  if (account === null || account.status === 'DISCONNECTED' || account.status === 'CONNECTION_ERROR') return 'connect';
  if (account.status === 'INITIALIZING') return 'initializing';
  if (importCompleted) return 'done';
  return reviewed ? 'import' : 'review';
}

/** 0-based index of the step in STEP_TITLES; STEP_TITLES.length once every step is done. */
export function stepIndex(step: SetupStep): number {
  switch (step) {
    case 'connect':
    case 'initializing':
      return 0;
    case 'review':
      return 1;
    case 'import':
      return 2;
    case 'done':
      return STEP_TITLES.length;
  }
}
