// 'Import appointments' / 'Export appointments' (spec section 2): a large dialog in NORMAL mode, a small
// one in FAST mode, with the form, the warning, 'View history' (for those who may open it) and Close.
import { useCallback, useState } from 'react';
import { Link } from 'wouter';
import { Dialog, DialogBackdrop, DialogPanel, DialogTitle } from '@headlessui/react';
import { useAuthSelector } from '../../app/ServicesContext';
import { selectIsAuthenticated, selectRole } from '../../machines/auth';
import { isNotSetUpCode } from '../../machines/startUp';
import { canSee } from '../../routes/access';
import { findRoute } from '../../routes/routeTable';
import { Icon } from '../common/Icon';
import type { JobKind } from './api';
import type { SyncMode } from './dateRange';
import { SyncJobPanel } from './SyncJobPanel';

export const MODAL_TITLES: Record<JobKind, string> = { import: 'Import appointments', export: 'Export appointments' };
const HISTORY_PATHS: Record<JobKind, string> = { import: '/imports', export: '/exports' };

export function SyncModal({ kind, mode: initialMode, date, onClose }: { kind: JobKind; mode: SyncMode; date?: string; onClose: () => void }) {
  const authenticated = useAuthSelector(selectIsAuthenticated);
  const role = useAuthSelector(selectRole);
  const [mode, setMode] = useState<SyncMode>(initialMode);
  const historyRoute = findRoute(HISTORY_PATHS[kind]);
  const showHistory = role !== 'PRACTITIONER' && historyRoute !== undefined && canSee(historyRoute, { authenticated, role });
  // Start-up shows the notice and, when setup is incomplete, goes to account setup: the modal steps aside.
  const onAccountProblem = useCallback((code: string) => {
    if (isNotSetUpCode(code)) onClose();
  }, [onClose]);

  return (
    <Dialog open onClose={onClose} className="relative z-40">
      <DialogBackdrop className="fixed inset-0 bg-slate-900/50" />
      <div className="fixed inset-0 flex items-end justify-center p-0 sm:items-center sm:p-4">
        <DialogPanel
          data-testid={`${kind}-modal`}
          data-mode={mode}
          className={`flex max-h-[100dvh] w-full flex-col rounded-t-xl bg-white shadow-2xl sm:max-h-[90vh] sm:rounded-xl dark:bg-slate-900 ${mode === 'NORMAL' ? 'max-w-4xl' : 'max-w-md'}`}
        >
          <div className="flex items-start justify-between gap-4 border-b border-slate-200 px-5 py-4 dark:border-slate-800">
            <DialogTitle className="text-lg font-semibold text-slate-900 dark:text-white">{MODAL_TITLES[kind]}</DialogTitle>
            <button type="button" aria-label="Close dialog" onClick={onClose} className="rounded p-1 text-slate-500 hover:bg-slate-100 dark:hover:bg-slate-800">
              <Icon name="close" className="size-5" />
            </button>
          </div>
          <div className="flex-1 overflow-y-auto px-5 py-4">
            <SyncJobPanel kind={kind} mode={mode} date={date} onModeChange={setMode} onAccountProblem={onAccountProblem} />
          </div>
          <div className="flex items-center gap-2 border-t border-slate-200 px-5 py-3 dark:border-slate-800">
            {showHistory && (
              <Link href={HISTORY_PATHS[kind]} onClick={onClose} className="text-sm font-medium text-sky-700 hover:underline dark:text-sky-300">
                View history
              </Link>
            )}
            <div className="flex-1" />
            <button type="button" onClick={onClose} className="rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium hover:bg-slate-50 dark:border-slate-600 dark:hover:bg-slate-800">
              Close
            </button>
          </div>
        </DialogPanel>
      </div>
    </Dialog>
  );
}
