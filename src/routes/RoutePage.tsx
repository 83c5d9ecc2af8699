import { Suspense, useEffect } from 'react';
import { Redirect } from 'wouter';
import { useAuthSelector } from '../app/ServicesContext';
import { selectIsAuthenticated, selectRole } from '../machines/auth';
import { decideAccess } from './access';
import { pageTitle, type AppRoute } from './routeTable';
import { PageSpinner } from '../views/common/PageSpinner';

export function usePageTitle(title: string | undefined): void {
  useEffect(() => {
    document.title = pageTitle(title);
  }, [title]);
}

/** One route: its title, its access rule, then its lazily loaded page. */
export function RoutePage({ route }: { route: AppRoute }) {
  const authenticated = useAuthSelector(selectIsAuthenticated);
  const role = useAuthSelector(selectRole);
  const decision = decideAccess(route, { authenticated, role });
  usePageTitle(decision.kind === 'redirect' ? undefined : route.title);

  if (decision.kind === 'redirect') return <Redirect to={decision.to} replace />;
  if (decision.kind === 'wait') return <PageSpinner label="Loading your account" />;
  const Page = route.component;
  return (
    <Suspense fallback={<PageSpinner label="Loading page" />}>
      <Page route={route} />
    </Suspense>
  );
}
