// The day's open visits on the day schedule (issue 36): visits that need a practitioner and have none yet wait in the
// open visits list; the day that has some says so above its lanes, with the way to fill them. Only for those who plan.
import { useQuery } from '@tanstack/react-query';
import { useAuthSelector, useServices } from '../../app/ServicesContext';
import { selectRole } from '../../machines/auth';
import { plural } from '../../lib/plural';
import { canPlanRoutes } from '../../entities/routes/access';
import { openVisitQueries } from '../../entities/open-visits/queries';
import { TextLink } from '../../ui/TextLink';

export function OpenVisitsNotice({ day }: { day: string }) {
  const { api } = useServices();
  const allowed = canPlanRoutes(useAuthSelector(selectRole));
  const open = useQuery({ ...openVisitQueries.list(api, { startDate: day, endDate: day }), enabled: allowed });
  const visits = allowed ? (open.data ?? []) : [];
  if (visits.length === 0) return null;
  const clients = [...new Set(visits.map((visit) => visit.client.name))];
  return (
    <p role="status" data-testid="open-visits-notice"
      className="mx-4 mt-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100">
      {plural(visits.length, 'open visit')} on this day {visits.length === 1 ? 'needs' : 'need'} a practitioner ({clients.slice(0, 3).join(', ')}
      {clients.length > 3 ? ` and ${clients.length - 3} more` : ''}): <TextLink variant="prose" href="/open-visits">fill them in Open visits</TextLink>.
    </p>
  );
}
