import { Suspense, useEffect, useRef } from 'react';
import { Redirect, useLocation, useSearch } from 'wouter';
import { useAuthSelector, useServices, useStartUpSelector } from '../app/ServicesContext';
import { selectPaymentRequired } from '../machines/startUp';
import { selectIsAuthenticated, selectIsLoadingUser, selectRole } from '../machines/auth';
import { decideAccess, deniedMessage, loginPathFor, type DeniedReason } from './access';
import { pageTitle } from '../app/product';
import type { AppRoute } from './routeTypes';
import { PageSpinner } from '../ui/PageSpinner';

function usePageTitle(title: string | undefined): void {
  useEffect(() => {
    document.title = pageTitle(title);
  }, [title]);
}

/** Sends a signed-in user away from a page their role may not open, saying why (once, as a warning toast). */
function DeniedRedirect({ route, denied, to }: { route: AppRoute; denied: DeniedReason; to: string }) {
  const { flash } = useServices();
  const told = useRef(false);
  useEffect(() => {
    if (told.current) return;
    told.current = true;
    flash.send({ type: 'APPEND', text: deniedMessage(route, denied), flashType: 'warning' });
  }, [flash, route, denied]);
  return <Redirect to={to} replace />;
}

/** One route: its title, its access rule, then its lazily loaded page. */
export function RoutePage({ route }: { route: AppRoute }) {
  const authenticated = useAuthSelector(selectIsAuthenticated);
  const role = useAuthSelector(selectRole);
  const [location] = useLocation();
  const search = useSearch();
  const paymentRequired = useStartUpSelector(selectPaymentRequired);
  const loadingUser = useAuthSelector(selectIsLoadingUser);
  const decided = decideAccess(route, { authenticated, role, paymentRequired });
  // A role may have changed since this browser stored the user: a refusal waits for the user being loaded.
  const decision = decided.kind === 'redirect' && decided.denied && loadingUser ? { kind: 'wait' as const } : decided;
  usePageTitle(decision.kind === 'redirect' ? undefined : route.title);

  if (decision.kind === 'redirect') {
    if (decision.denied) return <DeniedRedirect route={route} denied={decision.denied} to={decision.to} />;
    // A signed-out visitor comes back to this page once logged in.
    return <Redirect to={decision.to === '/login' ? loginPathFor(search ? `${location}?${search}` : location) : decision.to} replace />;
  }
  if (decision.kind === 'wait') return <PageSpinner label="Loading your account" />;
  const Page = route.component;
  return (
    <Suspense fallback={<PageSpinner label="Loading page" />}>
      <Page route={route} />
    </Suspense>
  );
}
