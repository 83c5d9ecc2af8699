import { describe, expect, it } from 'vitest';
import type { ProviderAccount } from '../../../api/types';
import { setupStep, stepIndex, STEP_TITLES } from './setupSteps';

const account = (status: ProviderAccount['status']): ProviderAccount => ({ id: 1, provider: 'cliniko', status, api_key_last4: 'ab12', last_error: null, connected_at: '2026-11-01T00:00:00Z' });
const fresh = { reviewed: false, importCompleted: false };

describe('account setup steps', () => {
  it('follow the provider account, then the user, until an import has completed', () => {
    expect(setupStep(null, fresh)).toBe('connect');
    expect(setupStep(account('INITIALIZING'), fresh)).toBe('initializing');
    expect(setupStep(account('ACTIVE'), fresh)).toBe('review');
    expect(setupStep(account('ACTIVE'), { ...fresh, reviewed: true })).toBe('import');
  });

  it('are all done for a connected account that has imported, and ask to reconnect a lost connection', () => {
    expect(setupStep(account('ACTIVE'), { reviewed: false, importCompleted: true })).toBe('done');
    expect(stepIndex('done')).toBe(STEP_TITLES.length);
    expect(setupStep(account('CONNECTION_ERROR'), { reviewed: false, importCompleted: true })).toBe('connect');
    expect(setupStep(account('DISCONNECTED'), { reviewed: false, importCompleted: true })).toBe('connect');
  });
});
