// GET /schedule/issues: the day checker on a day as it is now, for every active practitioner with visits that day.
import type { AuthContext } from '../../auth/access';
import type { Schemas } from '../../http/contract';
import type { AppContext } from '../../http/context';
import {
  asTheyAre, type CheckContext, checkDay, countsByRule, dayBounds, dayStartMs, issuesOfPlan, practitionersOnClock, ruleIssueDto, travelProviderFor,
} from '../schedule';
import { businessTimeZone } from '../../db/business-time-zone';
import { travelDays } from '../travel';
import { loadDay } from './day';

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
  const [{ data }, days] = await Promise.all([
    loadDay(ctx.db, business, { date, practitionerIds, mode: 'keep_practitioners' }),
    // The legs the day's travel warnings read (the applied route's where it still says them, else the estimate).
    practitionerIds.length === 0 ? [] : travelDays(ctx.db, travelProviderFor(ctx.config), business, { startDate: date, endDate: date, practitionerIds }),
  ]);
  const legs = new Map(days.flatMap((day) => day.legs.flatMap((leg) => (leg.kind === 'between' ? [[`${leg.fromAppointmentId}>${leg.toAppointmentId}`, leg.seconds] as const] : []))));
  const zeroMs = dayStartMs(date, timeZone);
  const checkContext: CheckContext = {
    rules: data.rules, zeroMs, timeZone, staff: data.staff, travel: (fromId, toId) => legs.get(`${fromId}>${toId}`) ?? null,
    // The hours they work (leave is a rule of its own).
    practitioners: practitionersOnClock(data.practitioners, zeroMs),
  };
  const issues = issuesOfPlan(asTheyAre([...data.visits, ...data.otherVisits]), checkContext);
  return {
    date,
    counts: countsByRule(issues, data.rules),
    issues: issues.map(ruleIssueDto),
  };
}
