import type { RoutePageProps } from '../routes/routeTypes';
import { Icon } from './Icon';
import { Card, PageHeader } from './PageHeader';

/** A route whose content belongs to a later capability: its heading and an honest empty state. */
export default function ComingSoonPage({ route }: RoutePageProps) {
  const content = (
    <>
      <PageHeader title={route.title} />
      <Card className="flex flex-col items-center px-6 py-16 text-center">
        <span className="flex size-12 items-center justify-center rounded-full bg-sky-50 text-sky-600 dark:bg-sky-950 dark:text-sky-400">
          <Icon name="soon" className="size-6" />
        </span>
        <h2 className="mt-4 text-base font-semibold text-slate-900 dark:text-white">This area is coming soon</h2>
        {route.comingSoon && <p className="mt-2 max-w-md text-sm text-slate-600 dark:text-slate-400">{route.comingSoon}</p>}
        <p className="mt-1 text-sm text-slate-500 dark:text-slate-500">Nothing to show here yet.</p>
      </Card>
    </>
  );
  return route.inLayout ? content : <div className="mx-auto max-w-2xl px-4 py-12">{content}</div>;
}
