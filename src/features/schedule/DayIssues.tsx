// The rule book on the day schedule (ADR 0020), for those who plan routes: a banner listing the day's hard problems in
// words ("3 problems on this day"; past the first five, the rest folded), the soft ones folded beneath, and each visit's problems for its mark. Read from
// GET /schedule/issues under the appointment lists' key, so whatever changes a visit checks the day again.
import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useAuthSelector, useServices } from '../../app/ServicesContext';
import { selectRole } from '../../machines/auth';
import { plural } from '../../lib/plural';
import { Icon } from '../../ui/Icon';
import { canPlanRoutes } from '../../entities/routes/access';
import type { RuleIssue } from '../../entities/routes/api';
import { routeQueries } from '../../entities/routes/queries';
import { openAppointmentModal } from '../../app/modalStore';

/** A problem a visit has, as its mark says it. */
export interface VisitProblem {
  message: string;
  hard: boolean;
}

const NO_ISSUES: readonly RuleIssue[] = [];

/** The hard problems listed before "and N more", so a bad day still shows its lanes on the first screen. */
const FIRST_PROBLEMS = 5;

/** The day's problems (`date` yyyy-MM-dd in the business's zone; null: none asked), for ADMIN and REGULAR_USER only. */
export function useDayIssues(date: string | null): readonly RuleIssue[] {
  const { api } = useServices();
  const allowed = canPlanRoutes(useAuthSelector(selectRole));
  const issues = useQuery({ ...routeQueries.dayIssues(api, date ?? ''), enabled: allowed && date !== null });
  return allowed && date !== null ? (issues.data?.issues ?? NO_ISSUES) : NO_ISSUES;
}

/** Each visit's problems, by visit id: a problem of two visits is on both. */
export function useVisitProblems(issues: readonly RuleIssue[]): ReadonlyMap<number, readonly VisitProblem[]> {
  return useMemo(() => {
    const byVisit = new Map<number, VisitProblem[]>();
    for (const { appointment_ids: ids, message, hard } of issues) {
      for (const id of ids) byVisit.set(id, [...(byVisit.get(id) ?? []), { message, hard }]);
    }
    return byVisit;
  }, [issues]);
}

/** A problem in words, with a link to open each of its visits. */
function Problem({ issue }: { issue: RuleIssue }) {
  return (
    <li>
      {issue.message}
      {issue.appointment_ids.map((id, index) => (
        <button
          key={id}
          type="button"
          data-testid="day-issue-open-visit"
          onClick={() => openAppointmentModal(id)}
          className="ml-1.5 text-xs font-medium underline underline-offset-2"
        >
          {issue.appointment_ids.length === 1 ? 'Open the visit' : `Open visit ${index + 1}`}
        </button>
      ))}
    </li>
  );
}

/** Above the lanes: the hard problems, each in words; the soft ones (allowed, worth a look) folded beneath. Nothing on a day without any. */
export function DayIssuesBanner({ issues }: { issues: readonly RuleIssue[] }) {
  const hard = issues.filter((issue) => issue.hard);
  const soft = issues.filter((issue) => !issue.hard);
  if (issues.length === 0) return null;
  const softList = (
    <details className={hard.length > 0 ? 'mt-2' : ''} data-testid="day-issues-soft">
      <summary className="cursor-pointer text-sm text-slate-700 dark:text-slate-300">
        {plural(soft.length, 'soft problem')}: allowed by the rules, but worth a look
      </summary>
      <ul className="mt-1 list-disc space-y-0.5 pl-5 text-xs text-slate-600 dark:text-slate-400">
        {soft.map((issue, index) => <Problem key={index} issue={issue} />)}
      </ul>
    </details>
  );
  return (
    <section
      aria-label="Problems on this day"
      data-testid="day-issues"
      className={`mx-4 mt-3 rounded-md border px-3 py-2 text-sm ${
        hard.length > 0
          ? 'border-rose-200 bg-rose-50 text-rose-900 dark:border-rose-900 dark:bg-rose-950 dark:text-rose-100'
          : 'border-slate-200 bg-slate-50 dark:border-slate-700 dark:bg-slate-800/60'
      }`}
    >
      {hard.length > 0 && (
        <div className="flex items-start gap-2">
          <Icon name="danger" className="mt-0.5 size-5 shrink-0" />
          <div>
            <h3 className="font-medium">{plural(hard.length, 'problem')} on this day</h3>
            <ul className="mt-1 list-disc space-y-0.5 pl-5" data-testid="day-issues-hard">
              {hard.slice(0, FIRST_PROBLEMS).map((issue, index) => <Problem key={index} issue={issue} />)}
            </ul>
            {hard.length > FIRST_PROBLEMS && (
              <details data-testid="day-issues-more">
                <summary className="cursor-pointer pl-5 font-medium">and {hard.length - FIRST_PROBLEMS} more</summary>
                <ul className="mt-0.5 list-disc space-y-0.5 pl-5">
                  {hard.slice(FIRST_PROBLEMS).map((issue, index) => <Problem key={index} issue={issue} />)}
                </ul>
              </details>
            )}
          </div>
        </div>
      )}
      {soft.length > 0 && softList}
    </section>
  );
}
