import type { ReactNode } from 'react';
import { PRODUCT_NAME } from '../../app/product';
import { Icon } from '../../ui/Icon';

/** The centred card the outside-layout pages (login, reset, login-as) sit in. */
export function AuthShell({ title, subtitle, children }: { title: string; subtitle?: string; children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col items-center justify-center bg-gradient-to-br from-slate-100 via-white to-sky-50 px-4 py-12 text-slate-900 dark:from-slate-950 dark:via-slate-900 dark:to-slate-950 dark:text-slate-100">
      <div className="mb-6 flex items-center gap-2">
        <Icon name="logo" className="size-9 text-sky-600 dark:text-sky-400" />
        <span className="text-2xl font-semibold tracking-tight">{PRODUCT_NAME}</span>
      </div>
      <div className="w-full max-w-sm rounded-2xl border border-slate-200 bg-white p-8 shadow-xl shadow-slate-900/5 dark:border-slate-800 dark:bg-slate-900">
        <h1 className="text-xl font-semibold tracking-tight">{title}</h1>
        {subtitle && <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{subtitle}</p>}
        <div className="mt-6">{children}</div>
      </div>
      <p className="mt-6 text-xs text-slate-500 dark:text-slate-500">Home-care scheduling and route planning</p>
    </div>
  );
}
