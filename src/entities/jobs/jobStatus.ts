// How an import's or export's status and result read wherever a job is shown (the modals' status panel, the
// history tables, the toast of a job that ends in the background): one mapping, in plain words.
import { type ExportJob, type ImportJob, type JobKind, type JobStatus, type SyncJob } from '../../api/jobs';
import { plural } from '../../lib/plural';

type ImportResult = NonNullable<ImportJob['result']>;
type ExportResult = NonNullable<ExportJob['result']>;

/** PENDING and INPROGRESS both read "In progress" (shown with a spinner); the other statuses read as their own words. */
const JOB_STATUS_LABELS: Record<JobStatus, string> = {
  PENDING: 'In progress',
  INPROGRESS: 'In progress',
  COMPLETE: 'Complete',
  ERROR: 'Error',
  CANCELLED: 'Cancelled',
};

export function jobStatusLabel(status: JobStatus): string {
  return JOB_STATUS_LABELS[status];
}

/** 1221 → "1,221" */
export const formatCount = (count: number): string => count.toLocaleString('en-AU');

const appointments = (count: number) => plural(count, 'appointment');

/** The counts of an import, unchanged included so that an import that changed nothing still shows what it read. */
export function importCounts(result: ImportResult): Array<{ label: string; value: number }> {
  return [
    { label: 'Created', value: result.appointments_created },
    { label: 'Updated', value: result.appointments_updated },
    { label: 'Cancelled', value: result.appointments_cancelled },
    { label: 'Unchanged', value: result.appointments_unchanged },
  ];
}

/** Said when an import changed nothing, so that zeros do not look as if it did not run; null otherwise. */
export function nothingChangedSentence(result: ImportResult): string | null {
  if (result.appointments_created + result.appointments_updated + result.appointments_cancelled > 0) return null;
  const unchanged = result.appointments_unchanged;
  if (unchanged === 0) return 'Nothing changed: there are no appointments in this range.';
  return `Nothing changed: ${appointments(unchanged)} ${unchanged === 1 ? 'was' : 'were'} already up to date.`;
}

export function exportCounts(result: ExportResult): Array<{ label: string; value: number }> {
  return [
    { label: 'Exported', value: result.exported },
    { label: 'Unchanged', value: result.skipped_unchanged },
    { label: 'Conflicts', value: result.conflicts.length },
  ];
}

/** "12 created, 3 updated, 1 cancelled, 40 unchanged" */
function countsText(job: SyncJob, kind: JobKind, separator = ', '): string | null {
  if (!job.result) return null;
  const counts = kind === 'import' ? importCounts((job as ImportJob).result!) : exportCounts((job as ExportJob).result!);
  return counts.map(({ label, value }) => `${formatCount(value)} ${label.toLowerCase()}`).join(separator);
}

/** One line for a toast: how a finished job ended. */
export function describeOutcome(job: SyncJob, kind: JobKind): string {
  const noun = kind === 'import' ? 'Import' : 'Export';
  if (job.status === 'ERROR') return `${noun} failed: ${job.error_message ?? 'unknown error'}`;
  if (job.status !== 'COMPLETE') return `${noun} ${jobStatusLabel(job.status).toLowerCase()}.`;
  const counts = countsText(job, kind);
  if (!counts) return `${noun} complete.`;
  const nothing = kind === 'import' ? nothingChangedSentence((job as ImportJob).result!) : null;
  return nothing ? `${noun} complete. ${nothing}` : `${noun} complete: ${counts}.`;
}

/** The history table's result cell: the counts, the error, or a dash while running. */
export function resultSummary(job: SyncJob, kind: JobKind): string {
  if (job.status === 'ERROR') return job.error_message ?? 'Failed';
  return countsText(job, kind, ' · ') ?? '—';
}
