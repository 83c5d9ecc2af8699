import type { ReactNode } from 'react';

export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="mb-6">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900 dark:text-white">{title}</h1>
      {children && <div className="mt-1 text-sm text-slate-600 dark:text-slate-400">{children}</div>}
    </div>
  );
}

export function Card({ children, className = '' }: { children: ReactNode; className?: string }) {
  // A caller's own padding replaces the default: both in one class list, Tailwind's order (not ours) would pick.
  const padding = /(^|\s)p[xy]?-/.test(className) ? '' : 'p-6';
  return (
    <div className={`rounded-xl border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900 ${padding} ${className}`}>
      {children}
    </div>
  );
}
