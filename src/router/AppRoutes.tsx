import { Redirect, Route, Switch } from 'wouter';
import { useAuthSelector } from '../app/ServicesContext';
import { selectIsAuthenticated } from '../machines/auth';
import { MainLayout } from '../shell/MainLayout';
import { ErrorBoundary } from '../shell/errors/ErrorBoundary';
import { RoutePage } from './RoutePage';
import { notFoundRoute, routes } from './routeTable';

const layoutRoutes = routes.filter((route) => route.inLayout);
const standaloneRoutes = routes.filter((route) => !route.inLayout);

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Matches every in-layout path, so the layout stays mounted while moving between its pages. */
const layoutPattern = new RegExp(`^(?:${layoutRoutes.map((route) => escapeRegExp(route.path)).join('|')})/?$`);

function HomeRedirect() {
  const authenticated = useAuthSelector(selectIsAuthenticated);
  return <Redirect to={authenticated ? '/dashboard' : '/login'} replace />;
}

export function AppRoutes() {
  return (
    <Switch>
      <Route path="/">
        <HomeRedirect />
      </Route>
      {standaloneRoutes.map((route) => (
        <Route key={route.path} path={route.path}>
          <RoutePage route={route} />
        </Route>
      ))}
      <Route path={layoutPattern}>
        <MainLayout>
          <ErrorBoundary inLayout>
            <Switch>
              {layoutRoutes.map((route) => (
                <Route key={route.path} path={route.path}>
                  <RoutePage route={route} />
                </Route>
              ))}
            </Switch>
          </ErrorBoundary>
        </MainLayout>
      </Route>
      <Route>
        <RoutePage route={notFoundRoute} />
      </Route>
    </Switch>
  );
}
