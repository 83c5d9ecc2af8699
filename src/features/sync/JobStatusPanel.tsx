// The status of a created import or export: 'In progress' with a spinner while PENDING or
// INPROGRESS, then the status in words with the counts (and what they mean when nothing changed) or the error.
import { Spinner } from '../../ui/PageSpinner';
import { isActiveStatus, type ExportJob, type ImportJob, type JobKind, type SyncJob } from '../../api/jobs';
import { exportCounts, formatCount, importCounts, jobStatusLabel, nothingChangedSentence } from '../../entities/jobs/jobStatus';

function Count({ label, value }: { label: string; value: number }) {
  return (
    <div className="rounded-lg border border-slate-200 px-4 py-3 dark:border-slate-700">
      <dt className="text-xs font-medium text-slate-500 uppercase dark:text-slate-400">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold text-slate-900 dark:text-white" data-testid={`count-${label}`}>
        {formatCount(value)}
      </dd>
    </div>
  );
}

export function JobStatusPanel({ job, kind, pollError }: { job: SyncJob; kind: JobKind; pollError: string | null }) {
  const active = isActiveStatus(job.status);
  return (
    <div className="@container space-y-4" data-testid="job-panel">
      <p className="flex items-center gap-2 text-sm">
        <span className="text-slate-500 dark:text-slate-400">Status:</span>
        <span data-testid="job-status" className="inline-flex items-center gap-2 font-semibold">
          {active && <Spinner className="size-4 text-sky-600" />}
          {jobStatusLabel(job.status)}
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
  const counts = importCounts(result);
  const nothingChanged = nothingChangedSentence(result);
  return (
    <>
      {/* Four counts side by side only where the modal is wide enough for their labels. */}
      <dl className={`grid gap-3 ${counts.length === 4 ? 'grid-cols-2 @lg:grid-cols-4' : 'grid-cols-3'}`}>
        {counts.map(({ label, value }) => (
          <Count key={label} label={label} value={value} />
        ))}
      </dl>
      {nothingChanged && (
        <p data-testid="import-nothing-changed" className="text-sm text-slate-700 dark:text-slate-200">
          {nothingChanged}
        </p>
      )}
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
        {exportCounts(result).map(({ label, value }) => (
          <Count key={label} label={label} value={value} />
        ))}
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
