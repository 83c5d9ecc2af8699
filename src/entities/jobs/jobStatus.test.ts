import { describe, expect, it } from 'vitest';
import type { ImportJob, JobStatus, SyncJob } from '../../api/jobs';
import { describeOutcome, jobStatusLabel, nothingChangedSentence, resultSummary } from './jobStatus';

const importJob = (status: JobStatus, result: ImportJob['result'] = null): SyncJob =>
  ({ id: 1, status, result, start_date: '2026-11-22', end_date: '2026-11-22', error_message: status === 'ERROR' ? 'Cliniko answered 401' : null, created_at: '2026-11-22T00:00:00Z' }) as SyncJob;

describe('job status words', () => {
  it('reads the same for imports and exports, in plain words', () => {
    expect((['PENDING', 'INPROGRESS', 'COMPLETE', 'ERROR', 'CANCELLED'] as const).map(jobStatusLabel)).toEqual(['In progress', 'In progress', 'Complete', 'Error', 'Cancelled']);
  });
});

describe('an import that changed nothing', () => {
  const none = { appointments_created: 0, appointments_updated: 0, appointments_cancelled: 0 };
  it.each([
    [{ ...none, appointments_unchanged: 12 }, 'Nothing changed: 12 appointments were already up to date.'],
    [{ ...none, appointments_unchanged: 1 }, 'Nothing changed: 1 appointment was already up to date.'],
    [{ ...none, appointments_unchanged: 1221 }, 'Nothing changed: 1,221 appointments were already up to date.'],
    [{ ...none, appointments_unchanged: 0 }, 'Nothing changed: there are no appointments in this range.'],
    [{ ...none, appointments_updated: 1, appointments_unchanged: 11 }, null],
  ])('%o', (result, sentence) => {
    expect(nothingChangedSentence(result)).toBe(sentence);
  });

  it('says so in the toast and shows the unchanged count in the history', () => {
    const job = importJob('COMPLETE', { ...none, appointments_unchanged: 12 });
    expect(describeOutcome(job, 'import')).toBe('Import complete. Nothing changed: 12 appointments were already up to date.');
    expect(resultSummary(job, 'import')).toBe('0 created · 0 updated · 0 cancelled · 12 unchanged');
    expect(describeOutcome(importJob('COMPLETE', { ...none, appointments_created: 2, appointments_unchanged: 5 }), 'import')).toBe('Import complete: 2 created, 0 updated, 0 cancelled, 5 unchanged.');
    expect(describeOutcome(importJob('CANCELLED'), 'import')).toBe('Import cancelled.');
    expect(describeOutcome(importJob('ERROR'), 'import')).toBe('Import failed: Cliniko answered 401');
  });
});
