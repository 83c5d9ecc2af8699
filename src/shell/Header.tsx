import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { useAuthSelector, useServices } from '../app/ServicesContext';
import { selectUser } from '../machines/auth';
import { configQueries } from '../api/queries';
import { Icon } from '../ui/Icon';
import { ThemeMenu } from './ThemeMenu';
import { AvatarMenu } from './AvatarMenu';
import { HeaderSyncLinks } from '../features/sync';
import { isInAppPath } from '../ui/TextLink';

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
  'rounded-md p-2 text-slate-500 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-white';

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
        className="rounded-md p-2 text-slate-500 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-white"
      >
        <Icon name="menu" className="size-6" />
      </button>
      <div className="flex-1" />
      {/* Imports and exports are the office's (the API refuses a practitioner's). */}
      {user?.role !== 'PRACTITIONER' && <HeaderSyncLinks />}
      <ThemeMenu />
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
        <AvatarMenu />
      </div>
    </header>
  );
}
