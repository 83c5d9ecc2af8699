import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ApiError } from '../api/errors';
import type { JobKind, SyncJob, SyncJobRequest } from '../api/jobs';
import { DATE_RANGE_REQUIRED, describeCreateFailure, requestFromDraft, syncFormMachine, type SyncDraft, type SyncFormEmitted } from './syncForm';

const draft = (overrides: Partial<SyncDraft> = {}): SyncDraft => ({
  start_date: '2026-11-22',
  end_date: '2026-11-29',
  practitioner_ids: [7],
  appointment_type_ids: [],
  business_location_ids: [2],
  ...overrides,
});

const created: SyncJob = { id: 9, status: 'PENDING', result: null, start_date: '2026-11-22', end_date: '2026-11-29', error_message: null, created_at: '2026-11-22T00:00:00Z' };

function start(kind: JobKind, create: (request: SyncJobRequest) => Promise<SyncJob> = async () => created) {
  const sent: SyncJobRequest[] = [];
  const machine = syncFormMachine.provide({
    actors: {
      createJob: fromPromise(({ input }) => {
        sent.push(input.request);
        return create(input.request);
      }),
    },
  });
  const actor = createActor(machine, { input: { kind } });
  const emitted: SyncFormEmitted[] = [];
  actor.on('*', (event) => emitted.push(event));
  actor.start();
  return { actor, emitted, sent };
}

describe('sync form', () => {
  it.each([
    ['start', { start_date: null }],
    ['end', { end_date: null }],
  ])('refuses a missing %s date with a danger toast and sends nothing', (_, missing) => {
    const { actor, emitted, sent } = start('import');
    actor.send({ type: 'SUBMIT', draft: draft(missing) });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(emitted).toEqual([{ type: 'notice', text: DATE_RANGE_REQUIRED, kind: 'danger' }]);
    expect(sent).toEqual([]);
  });

  it('refuses a range longer than the server accepts with a message for the date field, sends nothing, and forgets it once the range is fixed', async () => {
    const { actor, emitted, sent } = start('export');
    actor.send({ type: 'SUBMIT', draft: draft({ start_date: '2026-11-01', end_date: '2027-01-02' }) });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.dateProblem).toBe('Choose at most 62 days: this range has 63.');
    expect(emitted).toEqual([]);
    expect(sent).toEqual([]);
    actor.send({ type: 'SUBMIT', draft: draft({ start_date: '2026-11-01', end_date: '2027-01-01' }) });
    expect(actor.getSnapshot().value).toBe('confirming');
    expect(actor.getSnapshot().context.dateProblem).toBeNull();
  });

  it('creates an import straight away and hands the job on', async () => {
    const { actor, emitted, sent } = start('import');
    actor.send({ type: 'SUBMIT', draft: draft() });
    await waitFor(actor, (snapshot) => snapshot.status === 'done');
    expect(sent).toEqual([{ start_date: '2026-11-22', end_date: '2026-11-29', practitioner_ids: [7], appointment_type_ids: [], business_location_ids: [2] }]);
    expect(emitted).toEqual([{ type: 'created', job: created }]);
  });

  it('asks before an export, sends nothing when cancelled, and hands the job on without a toast when confirmed', async () => {
    const { actor, emitted, sent } = start('export');
    actor.send({ type: 'SUBMIT', draft: draft() });
    expect(actor.getSnapshot().value).toBe('confirming');
    actor.send({ type: 'CANCEL' });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(sent).toEqual([]);
    actor.send({ type: 'SUBMIT', draft: draft() });
    actor.send({ type: 'CONFIRM' });
    await waitFor(actor, (snapshot) => snapshot.status === 'done');
    expect(sent).toHaveLength(1);
    expect(emitted).toEqual([{ type: 'created', job: created }]);
  });

  it('shows a 422 message then its first error, and lets the user try again', async () => {
    const { actor, emitted } = start('import', async () => {
      throw new ApiError(422, { message: 'Invalid range.', errors: ['end_date: before start', 'other'] }, 'fallback');
    });
    actor.send({ type: 'SUBMIT', draft: draft() });
    await waitFor(actor, (snapshot) => snapshot.matches('editing') && emitted.length > 0);
    expect(emitted).toEqual([
      { type: 'notice', text: 'Invalid range.', kind: 'danger' },
      { type: 'notice', text: 'end_date: before start', kind: 'danger' },
    ]);
  });

  it('leaves account codes to start-up', async () => {
    const { actor, emitted } = start('export', async () => {
      throw new ApiError(409, { message: 'x', code: 'PROVIDER_ACCOUNT_NOT_SETUP' }, 'fallback');
    });
    actor.send({ type: 'SUBMIT', draft: draft() });
    actor.send({ type: 'CONFIRM' });
    await waitFor(actor, (snapshot) => snapshot.matches('editing') && emitted.length > 0);
    expect(emitted).toEqual([{ type: 'accountProblem', code: 'PROVIDER_ACCOUNT_NOT_SETUP' }]);
  });
});

describe('describeCreateFailure', () => {
  it.each([
    ['a network error', new TypeError('fetch failed'), 'import', ['An error has occurred. Could not create import.']],
    ['a 500 without a message', new ApiError(500, {}, 'An error has occurred. Could not create export.'), 'export', ['An error has occurred. Could not create export.']],
    ['a 409 with a message', new ApiError(409, { message: 'An import is already running.' }, 'f'), 'import', ['An import is already running.']],
    ['a 422 with only errors', new ApiError(422, { errors: ['start_date: required'] }, 'f'), 'import', ['start_date: required']],
    ['a 422 with nothing', new ApiError(422, {}, 'f'), 'export', ['An error has occurred. Could not create export.']],
    ['a 422 repeating its message in errors', new ApiError(422, { message: 'The date range can be at most 62 days (got 75).', errors: ['The date range can be at most 62 days (got 75).'] }, 'f'), 'import', ['The date range can be at most 62 days (got 75).']],
    ['a 422 whose message quotes its first error', new ApiError(422, { message: 'Invalid request: end_date must match format "date".', errors: ['end_date must match format "date"'] }, 'f'), 'export', ['Invalid request: end_date must match format "date".']],
  ] as const)('%s', (_, error, kind, notices) => {
    expect(describeCreateFailure(error, kind)).toEqual({ notices });
  });

  it('names the account code instead of a message', () => {
    expect(describeCreateFailure(new ApiError(403, { message: 'x', code: 'PROVIDER_ACCOUNT_NOT_ACTIVE' }, 'f'), 'import')).toEqual({ notices: [], accountCode: 'PROVIDER_ACCOUNT_NOT_ACTIVE' });
  });
});

describe('requestFromDraft', () => {
  it('is null without both dates', () => {
    expect(requestFromDraft(draft({ end_date: null }))).toBeNull();
    expect(requestFromDraft(draft())).toMatchObject({ start_date: '2026-11-22', end_date: '2026-11-29' });
  });
});
