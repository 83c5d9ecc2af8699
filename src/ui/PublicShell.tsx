// The frame of the pages clients open from an email, without a login (availability, reminders' unsubscribe).
import type { ReactNode } from 'react';
import { PRODUCT_NAME } from '../app/product';
import { Icon } from './Icon';

export function PublicShell({ children }: { children: ReactNode }) {
  return (
    <div className="min-h-screen bg-slate-50 px-4 py-8 text-slate-900 sm:py-16 dark:bg-slate-950 dark:text-slate-100">
      <main className="mx-auto w-full max-w-2xl">
        <p className="mb-6 flex items-center gap-2 text-sm font-semibold text-sky-700 dark:text-sky-400">
          <Icon name="logo" className="size-5" /> {PRODUCT_NAME}
        </p>
        <div className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900">{children}</div>
      </main>
    </div>
  );
}
