// A list page's filters on a phone: behind a "Filters" button that counts the active ones, so the first rows are on
// the first screen; from the md breakpoint up the button is gone and the filters sit in the page's filter bar.
// Renders the button and the panel side by side: place it inside the bar's `flex flex-wrap` row; on a phone the
// opened panel takes a row of its own at the end of the bar.
import { useId, useState, type ReactNode } from 'react';
import { Icon } from './Icon';

export function CollapsibleFilters({ activeCount, panelClassName = '', children }: {
  /** How many filters narrow the list now; shown on the button when any do. */
  activeCount: number;
  /** The panel's layout from md up (e.g. `md:flex-1 md:flex-row md:items-end`). */
  panelClassName?: string;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  return (
    <>
      <button
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((value) => !value)}
        className="inline-flex items-center gap-1.5 rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium hover:bg-slate-50 max-md:min-h-11 md:hidden dark:border-slate-700 dark:bg-slate-900 dark:hover:bg-slate-800"
      >
        Filters
        {activeCount > 0 && (
          <span data-testid="active-filter-count" className="rounded-full bg-sky-700 px-1.5 text-xs text-white" aria-label={`${activeCount} active`}>
            {activeCount}
          </span>
        )}
        <Icon name="chevronDown" className={`size-4 text-slate-400 ${open ? 'rotate-180' : ''}`} />
      </button>
      <div id={panelId} data-testid="filters-panel" className={`${open ? 'flex' : 'hidden'} order-last w-full flex-col gap-3 md:order-none md:flex md:w-auto ${panelClassName}`}>
        {children}
      </div>
    </>
  );
}
