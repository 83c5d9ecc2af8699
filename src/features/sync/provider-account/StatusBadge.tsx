import type { ProviderAccountStatus } from '../../../api/types';

const STYLE: Record<ProviderAccountStatus, string> = {
  ACTIVE: 'bg-emerald-100 text-emerald-800 dark:bg-emerald-900 dark:text-emerald-100',
  INITIALIZING: 'bg-sky-100 text-sky-800 dark:bg-sky-900 dark:text-sky-100',
  DISCONNECTED: 'bg-slate-200 text-slate-700 dark:bg-slate-700 dark:text-slate-100',
  CONNECTION_ERROR: 'bg-rose-100 text-rose-800 dark:bg-rose-900 dark:text-rose-100',
};

export function StatusBadge({ status }: { status: ProviderAccountStatus }) {
  return (
    <span data-testid="provider-status" className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold ${STYLE[status]}`}>
      {status}
    </span>
  );
}

/** The key is never returned; only its last 4 characters are shown. */
export const maskedKey = (last4: string | null) => (last4 ? `••••${last4}` : '—');
