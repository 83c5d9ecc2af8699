import { lazy, Suspense, useEffect, useState, type MouseEvent, type ReactNode } from 'react';
import { useServices, useSidebarSelector } from '../app/ServicesContext';
import { selectSidebarUnfoldable, selectSidebarVisible, selectSidebarWidensOnHover } from '../machines/sidebar';
import { Header } from './Header';
import { Sidebar } from './Sidebar';
import { Toasts } from './Toasts';
import { BusinessDefaultsProvider } from '../app/BusinessDefaultsProvider';
import { ConnectionErrorBanner } from '../features/sync';

// Client and appointment detail modals, opened from any page or by the global event.
const ModalHost = lazy(() => import('./ModalHost'));

const MAIN_CONTENT_ID = 'main-content';

/** Moves focus to the page's content, past the sidebar and the header. */
function skipToContent(event: MouseEvent<HTMLAnchorElement>) {
  event.preventDefault();
  document.getElementById(MAIN_CONTENT_ID)?.focus();
}

const DESKTOP_QUERY = '(min-width: 768px)';

function isDesktop(): boolean {
  return typeof window.matchMedia !== 'function' || window.matchMedia(DESKTOP_QUERY).matches;
}

/**
 * Toasts, sidebar, header and content. On a desktop the persisted sidebar state applies; on a
 * phone the sidebar is a drawer that starts closed and closes after navigating.
 */
export function MainLayout({ children }: { children: ReactNode }) {
  const { sidebar } = useServices();
  const visible = useSidebarSelector(selectSidebarVisible);
  const narrow = useSidebarSelector(selectSidebarUnfoldable);
  const widensOnHover = useSidebarSelector(selectSidebarWidensOnHover);
  const [drawerOpen, setDrawerOpen] = useState(false);

  useEffect(() => {
    if (!drawerOpen) return undefined;
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setDrawerOpen(false);
    };
    window.addEventListener('keydown', closeOnEscape);
    return () => window.removeEventListener('keydown', closeOnEscape);
  }, [drawerOpen]);

  const toggleSidebar = () => {
    if (isDesktop()) sidebar.send({ type: 'TOGGLE_VISIBLE' });
    else setDrawerOpen((open) => !open);
  };

  // The narrow rail widens under the pointer (not the pointer that just narrowed it) and for keyboard focus;
  // a mouse click leaves no visible focus, so it does not hold the rail open.
  const desktopWidth = narrow ? `md:w-16 md:has-[:focus-visible]:w-64 ${widensOnHover ? 'md:hover:w-64' : ''}` : 'md:w-64';
  const contentOffset = visible ? (narrow ? 'md:pl-16' : 'md:pl-64') : '';

  return (
    <BusinessDefaultsProvider>
      <div className="min-h-screen bg-slate-50 text-slate-900 dark:bg-slate-950 dark:text-slate-100">
        <a
          href={`#${MAIN_CONTENT_ID}`}
          onClick={skipToContent}
          className="sr-only focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-50 focus:rounded-md focus:bg-white focus:px-4 focus:py-2 focus:text-sm focus:font-semibold focus:text-sky-700 focus:shadow-lg focus:ring-2 focus:ring-sky-600 dark:focus:bg-slate-900 dark:focus:text-sky-300"
        >
          Skip to content
        </a>
        <Toasts />
        <Suspense fallback={null}>
          <ModalHost />
        </Suspense>
        <aside
          aria-label="Sidebar"
          data-testid="sidebar"
          data-visible={visible}
          data-unfoldable={narrow}
          onMouseLeave={() => sidebar.send({ type: 'POINTER_LEFT' })}
          className={`fixed inset-y-0 left-0 z-30 hidden overflow-hidden shadow-xl transition-[width] duration-200 print:hidden ${
            visible ? 'md:block' : ''
          } ${desktopWidth}`}
        >
          <Sidebar />
        </aside>
        {drawerOpen && (
          <div className="fixed inset-0 z-40 md:hidden">
            <button
              type="button"
              aria-label="Close sidebar"
              className="absolute inset-0 bg-slate-900/50"
              onClick={() => setDrawerOpen(false)}
            />
            <aside aria-label="Sidebar drawer" className="absolute inset-y-0 left-0 w-64 shadow-xl">
              <Sidebar onNavigate={() => setDrawerOpen(false)} />
            </aside>
          </div>
        )}
        {/* Printed, a page is its content alone: no sidebar, header or toasts. */}
        <div className={`flex min-h-screen flex-col transition-[padding] duration-200 print:pl-0! ${contentOffset}`}>
          <Header onToggleSidebar={toggleSidebar} />
          <main id={MAIN_CONTENT_ID} tabIndex={-1} className="mx-auto w-full max-w-7xl flex-1 px-4 py-6 outline-none sm:px-6 lg:px-8">
            <ConnectionErrorBanner />
            {children}
          </main>
        </div>
      </div>
    </BusinessDefaultsProvider>
  );
}
