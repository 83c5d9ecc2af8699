// The status of a created import or export (spec section 4): 'Inprogress' / 'In progress' with a spinner
// while PENDING or INPROGRESS, the raw status otherwise, then the counts or the error.
import { Spinner } from '../common/PageSpinner';
import { isActiveStatus, type ExportJob, type ImportJob, type JobKind, type JobStatus, type SyncJob } from './api';

export function statusLabel(status: JobStatus, kind: JobKind): string {
  if (isActiveStatus(status)) return kind === 'import' ? 'Inprogress' : 'In progress';
  return status;
}

/** One line for a toast or a table cell: the counts of a finished job, or its error. */
export function describeOutcome(job: SyncJob, kind: JobKind): string {
  const noun = kind === 'import' ? 'Import' : 'Export';
  if (job.status === 'ERROR') return `${noun} failed: ${job.error_message ?? 'unknown error'}`;
  if (job.status !== 'COMPLETE') return `${noun} ${job.status}`;
  if (kind === 'import') {
    const result = (job as ImportJob).result;
    return result
      ? `Import complete: ${result.appointments_created} created, ${result.appointments_updated} updated, ${result.appointments_cancelled} cancelled.`
      : 'Import complete.';
  }
  const result = (job as ExportJob).result;
  return result
    ? `Export complete: ${result.exported} exported, ${result.skipped_unchanged} unchanged, ${result.conflicts.length} conflicts.`
    : 'Export complete.';
}

function Count({ label, value }: { label: string; value: number }) {
  return (
    <div className="rounded-lg border border-slate-200 px-4 py-3 dark:border-slate-700">
      <dt className="text-xs font-medium text-slate-500 uppercase dark:text-slate-400">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold text-slate-900 dark:text-white" data-testid={`count-${label}`}>
        {value}
      </dd>
    </div>
  );
}

export function JobStatusPanel({ job, kind, pollError }: { job: SyncJob; kind: JobKind; pollError: string | null }) {
  const active = isActiveStatus(job.status);
  return (
    <div className="space-y-4" data-testid="job-panel">
      <p className="flex items-center gap-2 text-sm">
        <span className="text-slate-500 dark:text-slate-400">Status:</span>
        <span data-testid="job-status" className="inline-flex items-center gap-2 font-semibold">
          {active && <Spinner className="size-4 text-sky-600" />}
          {statusLabel(job.status, kind)}
        </span>
      </p>
      {pollError && (
        <p role="alert" className="text-sm text-rose-700 dark:text-rose-300">
          {pollError} The status is no longer being refreshed.
        </p>
      )}
      {job.status === 'COMPLETE' && kind === 'import' && (job as ImportJob).result && <ImportCounts job={job as ImportJob} />}
      {job.status === 'COMPLETE' && kind === 'export' && (job as ExportJob).result && <ExportCounts job={job as ExportJob} />}
      {job.status === 'ERROR' && (
        <p data-testid="job-error" className="rounded-md border border-rose-200 bg-rose-50 px-3 py-2 text-sm text-rose-800 dark:border-rose-900 dark:bg-rose-950 dark:text-rose-200">
          {job.error_message ?? 'The job failed.'}
        </p>
      )}
    </div>
  );
}

function ImportCounts({ job }: { job: ImportJob }) {
  const result = job.result!;
  return (
    <>
      <dl className="grid grid-cols-3 gap-3">
        <Count label="Created" value={result.appointments_created} />
        <Count label="Updated" value={result.appointments_updated} />
        <Count label="Cancelled" value={result.appointments_cancelled} />
      </dl>
      {result.warnings && result.warnings.length > 0 && (
        <ul className="list-disc pl-5 text-sm text-amber-800 dark:text-amber-200">
          {result.warnings.slice(0, 5).map((warning) => (
            <li key={warning}>{warning}</li>
          ))}
        </ul>
      )}
    </>
  );
}

function ExportCounts({ job }: { job: ExportJob }) {
  const result = job.result!;
  return (
    <>
      <dl className="grid grid-cols-3 gap-3">
        <Count label="Exported" value={result.exported} />
        <Count label="Unchanged" value={result.skipped_unchanged} />
        <Count label="Conflicts" value={result.conflicts.length} />
      </dl>
      {result.conflicts.length > 0 && (
        <ul className="list-disc pl-5 text-sm text-amber-800 dark:text-amber-200" aria-label="Conflicts">
          {result.conflicts.map((conflict) => (
            <li key={conflict.appointment_id}>
              Appointment {conflict.appointment_id}: {conflict.reason}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
