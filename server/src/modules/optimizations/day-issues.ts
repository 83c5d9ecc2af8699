// GET /schedule/issues: the day checker on a day as it is now, for every active practitioner with visits that day.
import type { AuthContext } from '../../auth/access';
import type { Schemas } from '../../http/contract';
import type { AppContext } from '../../http/context';
import {
  asTheyAre, businessTimeZone, type CheckContext, countsByRule, dayBounds, dayStartMs, issuesOfPlan, ruleIssueDto,
} from '../schedule';
import { checkDay, loadDay } from './day';

import { practitionersWithVisits } from './repository';

interface DayIssuesDto {
  date: string;
  counts: { rule: Schemas['RuleId']; title: string; hard: boolean; count: number }[];
  issues: Schemas['RuleIssue'][];
}

export async function listDayIssues(ctx: AppContext, auth: AuthContext, date: string): Promise<DayIssuesDto> {
  checkDay(date);
  const business = auth.businessAccountId;
  const timeZone = await businessTimeZone(ctx.db, business);
  const practitionerIds = await practitionersWithVisits(ctx.db, business, dayBounds(date, timeZone));
  const { data } = await loadDay(ctx.db, business, { date, practitionerIds, mode: 'keep_practitioners' });
  const zeroMs = dayStartMs(date, timeZone);
  const checkContext: CheckContext = {
    rules: data.rules, zeroMs, timeZone,
    practitioners: new Map(data.practitioners.map((day) => {
      const offset = (day.dayStart.getTime() - zeroMs) / 1000;
      const shift = day.shift && day.shift.end > day.shift.start ? { start: day.shift.start + offset, end: day.shift.end + offset } : null;
      return [day.practitionerId, { name: day.name, timeZone: day.timeZone, shift }];
    })),
  };
  const issues = issuesOfPlan(asTheyAre([...data.visits, ...data.otherVisits]), checkContext);
  return {
    date,
    counts: countsByRule(issues, data.rules),
    issues: issues.map(ruleIssueDto),
  };
}
