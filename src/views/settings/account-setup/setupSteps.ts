// Where the first-run wizard stands, from the provider account's status and what the user has done.
import type { ProviderAccount } from '../../../api/types';

export type SetupStep = 'connect' | 'initializing' | 'review' | 'import';

export const STEP_TITLES = ['Connect your practice management system', 'Review time zone and sync settings', 'Run the first import'] as const;

export function setupStep(account: ProviderAccount | null, reviewed: boolean): SetupStep {
  if (account === null || account.status === 'DISCONNECTED' || account.status === 'CONNECTION_ERROR') return 'connect';
  if (account.status === 'INITIALIZING') return 'initializing';
  return reviewed ? 'import' : 'review';
}

/** 0-based index of the step in STEP_TITLES. */
export function stepIndex(step: SetupStep): number {
  return step === 'connect' || step === 'initializing' ? 0 : step === 'review' ? 1 : 2;
}
