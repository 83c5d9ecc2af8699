import { lazy, Suspense, useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { useAuthSelector, useServices } from '../app/ServicesContext';
import { selectUser } from '../machines/auth';
import { configQueries } from '../api/queries';
import { Icon } from '../ui/Icon';
import { HeaderSyncLinks } from '../features/sync';
import { isInAppPath } from '../ui/TextLink';

// The two menus are loaded after the first screen: with them came Headless UI and Floating UI (about 25 KB gzip of
// the initial JavaScript), which no first screen needs until a menu is opened.
const ThemeMenu = lazy(() => import('./ThemeMenu').then((module) => ({ default: module.ThemeMenu })));
const AvatarMenu = lazy(() => import('./AvatarMenu').then((module) => ({ default: module.AvatarMenu })));
/** Holds a menu button's place while its code loads, so the header does not move. */
const MenuButtonPlace = () => <span className="inline-block size-11" aria-hidden="true" />;

function useScrolled(): boolean {
  const [scrolled, setScrolled] = useState(() => typeof window !== 'undefined' && window.scrollY > 0);
  useEffect(() => {
    const onScroll = () => setScrolled(window.scrollY > 0);
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);
  return scrolled;
}

function useAppConfig() {
  const { api } = useServices();
  return useQuery(configQueries.current(api));
}

const iconLinkClass =
  'inline-flex size-11 items-center justify-center rounded-md text-slate-500 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-white';

export function Header({ onToggleSidebar }: { onToggleSidebar: () => void }) {
  const user = useAuthSelector(selectUser);
  const scrolled = useScrolled();
  const helpUrl = useAppConfig().data?.help_url;

  return (
    <header
      data-testid="app-header"
      data-scrolled={scrolled}
      className={`sticky top-0 z-20 flex h-16 items-center gap-2 border-b print:hidden border-slate-200 bg-white/95 px-3 backdrop-blur transition-shadow sm:px-6 dark:border-slate-800 dark:bg-slate-900/95 ${
        scrolled ? 'shadow-md shadow-slate-900/5 dark:shadow-black/30' : ''
      }`}
    >
      <button
        type="button"
        onClick={onToggleSidebar}
        aria-label="Toggle sidebar"
        className="inline-flex size-11 items-center justify-center rounded-md text-slate-500 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-white"
      >
        <Icon name="menu" className="size-6" />
      </button>
      <div className="flex-1" />
      {/* Imports and exports are the office's (the API refuses a practitioner's). */}
      {user?.role !== 'PRACTITIONER' && <HeaderSyncLinks />}
      <Suspense fallback={<MenuButtonPlace />}><ThemeMenu /></Suspense>
      {/* HELP_URL is the app's own user guide (/help) by default, or an operator's external help site. */}
      {helpUrl &&
        (isInAppPath(helpUrl) ? (
          <Link href={helpUrl} aria-label="Help" title="User guide" className={iconLinkClass}>
            <Icon name="help" />
          </Link>
        ) : (
          <a href={helpUrl} target="_blank" rel="noreferrer" aria-label="Help" title="Help (opens in a new tab)" className={iconLinkClass}>
            <Icon name="help" />
          </a>
        ))}
      {user && (
        <span data-testid="header-first-name" className="ml-2 hidden text-sm font-medium text-slate-700 sm:inline dark:text-slate-200">
          {user.first_name}
        </span>
      )}
      <div className="ml-1">
        <Suspense fallback={<MenuButtonPlace />}><AvatarMenu /></Suspense>
      </div>
    </header>
  );
}
