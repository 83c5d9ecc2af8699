// /reports: every report with one line on what it answers; the ones still to come are marked so.
import { routeMetas } from '../../router/routeMeta';
import type { RoutePageProps } from '../../router/routeTypes';
import { PageHeader } from '../../ui/PageHeader';
import { RouteCards } from '../../ui/RouteCards';

const reportPages = routeMetas.filter((route) => route.path.startsWith('/reports/'));

export default function ReportsIndexPage({ route }: RoutePageProps) {
  return (
    <>
      <PageHeader title={route.title}>How far practitioners travel, who is overloaded, which clients cannot be routed, and what changed.</PageHeader>
      <RouteCards routes={reportPages} label="Reports" />
    </>
  );
}
