// The import or export history (ADMIN): status, range, filters, counts or error, who and when, paginated,
// with Cancel for jobs still PENDING or INPROGRESS. Refreshes itself while any job on the page is running.
import { useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useAuthSelector, useServices } from '../../app/ServicesContext';
import { messageOfError } from '../../api/errors';
import { selectUser } from '../../machines/auth';
import { browserTimeZone, formatDateTime, formatDayRange } from '../../lib/dates';
import { ErrorNote } from '../../ui/forms';
import { Pagination } from '../../ui/Pagination';
import { PageHeader } from '../../ui/PageHeader';
import { PageSpinner, Spinner } from '../../ui/PageSpinner';
import { cancelJob, isActiveStatus, JOB_POLL_INTERVAL_MS, type JobKind } from '../../api/jobs';
import type { SyncFilters } from './api';
import { jobStatusLabel, resultSummary } from '../../entities/jobs/jobStatus';
import type { Option } from '../../ui/MultiSelect';
import { useReferenceLists } from './useSyncData';
import { syncJobQueries } from './queries';
import { Button } from '../../ui/Button';

const PAGE_SIZES = [5, 10, 20, 50] as const;

const STATUS_STYLE: Record<string, string> = {
  COMPLETE: 'bg-emerald-100 text-emerald-800 dark:bg-emerald-900 dark:text-emerald-100',
  ERROR: 'bg-rose-100 text-rose-800 dark:bg-rose-900 dark:text-rose-100',
  CANCELLED: 'bg-slate-200 text-slate-700 dark:bg-slate-700 dark:text-slate-100',
  ACTIVE: 'bg-sky-100 text-sky-800 dark:bg-sky-900 dark:text-sky-100',
};

function namesOf(ids: readonly number[], options: readonly Option[]): string {
  const names = ids.map((id) => options.find((option) => option.id === id)?.name ?? `#${id}`);
  return names.length <= 3 ? names.join(', ') : `${names.slice(0, 3).join(', ')} +${names.length - 3}`;
}

function FiltersCell({ filters, lists }: { filters: SyncFilters | undefined; lists: ReturnType<typeof useReferenceLists> }) {
  const parts = [
    ['Locations', filters?.business_location_ids ?? [], lists.businessLocations.options],
    ['Types', filters?.appointment_type_ids ?? [], lists.appointmentTypes.options],
    ['Practitioners', filters?.practitioner_ids ?? [], lists.practitioners.options],
  ] as const;
  const chosen = parts.filter(([, ids]) => ids.length > 0);
  if (chosen.length === 0) return <span className="text-slate-500 dark:text-slate-400">All</span>;
  return (
    <ul className="space-y-0.5">
      {chosen.map(([label, ids, options]) => (
        <li key={label}>
          <span className="text-slate-500 dark:text-slate-400">{label}:</span> {namesOf(ids, options)}
        </li>
      ))}
    </ul>
  );
}

export function JobHistory({ kind }: { kind: JobKind }) {
  const { api, flash } = useServices();
  const queryClient = useQueryClient();
  const timeZone = useAuthSelector(selectUser)?.business_account.time_zone ?? browserTimeZone();
  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState<(typeof PAGE_SIZES)[number]>(10);
  const lists = useReferenceLists();
  const noun = kind === 'import' ? 'import' : 'export';
  const title = kind === 'import' ? 'Imports' : 'Exports';

  const history = useQuery({
    ...syncJobQueries.page(api, kind, page, perPage),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.jobs.some((job) => isActiveStatus(job.status)) ? JOB_POLL_INTERVAL_MS : false),
  });
  const cancel = useMutation({
    mutationFn: (id: number) => cancelJob(api, kind, id),
    onSuccess: () => flash.send({ type: 'APPEND', text: `The ${noun} has been cancelled.` }),
    onError: (error) => flash.send({ type: 'APPEND', text: messageOfError(error, `An error has occurred. Could not cancel the ${noun}.`), flashType: 'danger' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: syncJobQueries.all(kind) }),
  });

  const total = history.data?.meta.total ?? 0;
  return (
    <>
      <PageHeader title={title}>
        {kind === 'import' ? 'Appointments imported from your practice management system.' : 'Appointment times exported to your practice management system.'}
      </PageHeader>
      <div className="mb-4 flex justify-end">
        <Button href={`/${kind}s/add`}>{kind === 'import' ? 'New import' : 'New export'}</Button>
      </div>
      {history.isPending && <PageSpinner label={`Loading ${noun}s`} />}
      {history.isError && <ErrorNote>{messageOfError(history.error, `An error has occurred. Could not load ${noun}s.`)}</ErrorNote>}
      {history.data && (
        <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900">
          <table className="min-w-full divide-y divide-slate-200 text-sm dark:divide-slate-800" aria-label={`${title} history`}>
            <thead className="bg-slate-50 text-left text-xs font-semibold tracking-wide text-slate-500 uppercase dark:bg-slate-800/50 dark:text-slate-400">
              <tr>
                {['Status', 'Date range', 'Filters', 'Result', 'By', 'Created', ''].map((heading) => (
                  <th key={heading} scope="col" className="px-4 py-3">
                    {heading}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
              {history.data.jobs.length === 0 && (
                <tr>
                  <td colSpan={7} className="px-4 py-8 text-center text-slate-500 dark:text-slate-400">
                    No {noun}s yet.
                  </td>
                </tr>
              )}
              {history.data.jobs.map((job) => {
                const active = isActiveStatus(job.status);
                return (
                  <tr key={job.id} data-testid={`${noun}-row`}>
                    <td className="px-4 py-3">
                      <span className={`inline-flex items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-semibold ${STATUS_STYLE[active ? 'ACTIVE' : job.status]}`}>
                        {active && <Spinner className="size-3" />}
                        {jobStatusLabel(job.status)}
                      </span>
                    </td>
                    <td className="px-4 py-3 whitespace-nowrap">
                      {formatDayRange(job.start_date, job.end_date)}
                    </td>
                    <td className="px-4 py-3">
                      <FiltersCell filters={job.filters} lists={lists} />
                    </td>
                    <td className="px-4 py-3 xl:whitespace-nowrap" data-testid="job-result">
                      {resultSummary(job, kind)}
                    </td>
                    <td className="px-4 py-3 whitespace-nowrap">{job.created_by_name ?? 'Automatic'}</td>
                    <td className="px-4 py-3 whitespace-nowrap">{formatDateTime(job.created_at, timeZone)}</td>
                    <td className="px-4 py-3 text-right">
                      {active && (
                        <Button
                          variant="secondary"
                          danger
                          size="xs"
                          disabled={cancel.isPending && cancel.variables === job.id}
                          onClick={() => cancel.mutate(job.id)}
                        >
                          Cancel
                        </Button>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          <Pagination
            page={page}
            perPage={perPage}
            pageSizes={PAGE_SIZES}
            total={total}
            onPageChange={setPage}
            onPerPageChange={(size) => {
              setPerPage(size);
              setPage(1);
            }}
          />
        </div>
      )}
    </>
  );
}
