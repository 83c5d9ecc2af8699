import { Link, useLocation } from 'wouter';
import { useAuthSelector, useServices, useSidebarSelector } from '../app/ServicesContext';
import { selectIsAuthenticated, selectRole, selectUser } from '../machines/auth';
import { selectSidebarUnfoldable, selectSidebarWidensOnHover } from '../machines/sidebar';
import { canSee } from '../router/access';
import { PRODUCT_NAME } from '../app/product';
import { sidebarRouteMetas } from '../router/routeMeta';
import { Icon } from '../ui/Icon';
import { useShownTimeZone } from '../app/timeZone';

function isActive(location: string, path: string): boolean {
  return location === path || location.startsWith(`${path}/`);
}

/** The navigation column. `narrow` is the unfoldable rail; it widens while hovered or holding keyboard focus. */
export function Sidebar({ onNavigate }: { onNavigate?: () => void }) {
  const { sidebar } = useServices();
  const [location] = useLocation();
  const authenticated = useAuthSelector(selectIsAuthenticated);
  const role = useAuthSelector(selectRole);
  const user = useAuthSelector(selectUser);
  const narrow = useSidebarSelector(selectSidebarUnfoldable);
  const widensOnHover = useSidebarSelector(selectSidebarWidensOnHover);
  const timeZone = useShownTimeZone();
  const items = sidebarRouteMetas.filter((route) => canSee(route, { authenticated, role }));
  // In the narrow rail, labels show only while the rail is widened: hovered, or holding keyboard focus.
  const label = narrow ? `md:hidden md:group-has-[:focus-visible]:inline ${widensOnHover ? 'md:group-hover:inline' : ''}` : '';

  return (
    <div className="group flex h-full flex-col bg-slate-900 text-slate-300">
      <div className="flex h-16 shrink-0 items-center gap-2 px-4 text-white">
        <Icon name="logo" className="size-7 text-sky-400" />
        <span className={`text-lg font-semibold tracking-tight ${label}`}>{PRODUCT_NAME}</span>
      </div>
      <nav aria-label="Main" className="flex-1 space-y-1 overflow-y-auto px-2 py-4">
        {items.map((route) => {
          const active = isActive(location, route.path);
          return (
            <Link
              key={route.path}
              href={route.path}
              onClick={onNavigate}
              aria-current={active ? 'page' : undefined}
              title={narrow ? route.sidebar!.label : undefined}
              className={`flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium transition-colors ${
                active ? 'bg-slate-800 text-white' : 'hover:bg-slate-800/60 hover:text-white'
              }`}
            >
              <Icon name={route.sidebar!.icon} />
              <span className={`whitespace-nowrap ${label}`}>{route.sidebar!.label}</span>
            </Link>
          );
        })}
      </nav>
      <div className="shrink-0 border-t border-slate-800 px-3 py-3 text-xs text-slate-400">
        {user && (
          <p data-testid="sidebar-time-zone" className={`mb-2 truncate px-1 ${label}`} title="Times are shown in your business's time zone (a practitioner's own zone on their visits where it differs)">
            Time zone: {timeZone}
          </p>
        )}
        <button
          type="button"
          onClick={() => sidebar.send({ type: 'TOGGLE_UNFOLDABLE' })}
          className="hidden w-full items-center gap-3 rounded-md px-2 py-1.5 hover:bg-slate-800 hover:text-white md:flex"
          aria-label={narrow ? 'Widen sidebar' : 'Narrow sidebar'}
          aria-pressed={narrow}
        >
          <Icon name={narrow ? 'unfold' : 'fold'} className="size-4" />
          <span className={label}>{narrow ? 'Widen' : 'Narrow'}</span>
        </button>
      </div>
    </div>
  );
}
