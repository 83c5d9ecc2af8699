// What every report page shares: its title and what it answers, the filter bar (range with presets, visit filters;
// all in the address), Print, the summary figures, the chart and the table — loading and failure said in words.
import type { ReactNode } from 'react';
import type { Temporal } from 'temporal-polyfill';
import { messageOfError } from '../../api/errors';
import { Button } from '../../ui/Button';
import { CollapsibleFilters } from '../../ui/CollapsibleFilters';
import { DateRangePicker, type DayRange } from '../../ui/DateRangePicker';
import { ErrorNote } from '../../ui/forms';
import { Card, PageHeader } from '../../ui/PageHeader';
import { LoadingText, Spinner } from '../../ui/PageSpinner';
import { VisitFilters, type VisitFilterValue } from '../../ui/VisitFilters';
import { REPORT_LOAD_ERROR } from './api';
import { activeFilterCount, MAX_REPORT_DAYS, REPORT_PRESETS } from './reportFilters';
import type { DateRangePreset } from '../../ui/DateRangePicker';

export interface SummaryFigure {
  label: string;
  value: string | number;
}

export function ReportFrame({ title, intro, today, range, onRangeChange, rangeLabel = 'Dates', presets = REPORT_PRESETS, rangeControl, visitFilters, onVisitFiltersChange, scope, status, summary, chart, children }: {
  title: string;
  intro: ReactNode;
  today: Temporal.PlainDate;
  range: DayRange;
  onRangeChange: (range: DayRange) => void;
  rangeLabel?: string;
  presets?: readonly DateRangePreset[];
  /** Beside the range: a report's own control (e.g. whether the range applies). */
  rangeControl?: ReactNode;
  visitFilters: VisitFilterValue;
  onVisitFiltersChange: (patch: Partial<VisitFilterValue>) => void;
  /** What the report covers, in words, printed under the title (the filter bar is not printed). */
  scope: string;
  status: { pending: boolean; fetching: boolean; error: unknown };
  summary: readonly SummaryFigure[] | null;
  chart: ReactNode;
  children: ReactNode;
}) {
  return (
    <>
      <PageHeader title={title}>
        <span className="print:hidden">{intro}</span>
        <span data-testid="report-scope" className="hidden print:inline">{scope}</span>
      </PageHeader>
      <Card className="p-0">
        <div className="flex flex-wrap items-end gap-3 border-b border-slate-200 p-4 print:hidden dark:border-slate-800">
          <div className="w-full md:w-auto">
            <DateRangePicker label={rangeLabel} compact presets={presets} maxDays={MAX_REPORT_DAYS} value={range} onChange={onRangeChange} today={today} />
          </div>
          {rangeControl}
          <CollapsibleFilters activeCount={activeFilterCount(visitFilters)} panelClassName="md:min-w-[24rem] md:flex-1 md:basis-0 md:flex-row md:items-end">
            <VisitFilters value={visitFilters} onChange={onVisitFiltersChange} includeInactive />
          </CollapsibleFilters>
          <div className="flex items-center gap-2 md:ml-auto">
            {status.fetching && <span data-testid="report-fetching"><Spinner className="size-4 text-slate-400" /></span>}
            <Button variant="secondary" size="sm" onClick={() => window.print()}>
              Print
            </Button>
          </div>
        </div>
        {status.error !== null && status.error !== undefined && (
          <div className="p-4">
            <ErrorNote>{messageOfError(status.error, REPORT_LOAD_ERROR)}</ErrorNote>
          </div>
        )}
        {status.pending && !status.error && <LoadingText label="Loading the report" className="justify-center px-4 py-10 text-sm" />}
        {summary && (
          <>
            <dl data-testid="report-summary" className="grid grid-cols-2 gap-3 border-b border-slate-200 p-4 sm:grid-cols-4 dark:border-slate-800">
              {summary.map((figure) => (
                <div key={figure.label} className="rounded-lg bg-slate-50 p-3 dark:bg-slate-800/50">
                  <dt className="text-xs text-slate-600 dark:text-slate-400">{figure.label}</dt>
                  <dd className="mt-1 text-xl font-semibold tabular-nums">{figure.value}</dd>
                </div>
              ))}
            </dl>
            {chart && <div className="border-b border-slate-200 p-4 text-slate-600 dark:border-slate-800 dark:text-slate-400">{chart}</div>}
            {children}
          </>
        )}
      </Card>
    </>
  );
}
