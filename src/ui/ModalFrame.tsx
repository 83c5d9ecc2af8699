import type { ReactNode } from 'react';
import { Dialog, DialogBackdrop, DialogPanel, DialogTitle } from '@headlessui/react';
import { Icon } from './Icon';
import { Button } from './Button';

const WIDTHS = { small: 'max-w-md', medium: 'max-w-3xl', large: 'max-w-4xl' } as const;

/** A Headless UI dialog with a title, a scrolling body and a footer holding Close (after `footer`). */
export function ModalFrame({ title, onClose, children, footer, testId, width = 'medium' }: {
  title: ReactNode;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  testId?: string;
  width?: keyof typeof WIDTHS;
}) {
  return (
    <Dialog open onClose={onClose} className="relative z-40">
      <DialogBackdrop className="fixed inset-0 bg-slate-900/50" />
      <div className="fixed inset-0 flex items-end justify-center p-0 sm:items-center sm:p-4">
        <DialogPanel
          data-testid={testId}
          className={`flex max-h-[100dvh] w-full ${WIDTHS[width]} flex-col rounded-t-xl bg-white shadow-2xl sm:max-h-[90vh] sm:rounded-xl dark:bg-slate-900`}
        >
          <div className="flex items-start justify-between gap-4 border-b border-slate-200 px-5 py-4 dark:border-slate-800">
            <DialogTitle className="text-lg font-semibold text-slate-900 dark:text-white">{title}</DialogTitle>
            <button type="button" aria-label="Close dialog" onClick={onClose} className="rounded p-1 text-slate-500 dark:text-slate-400 hover:bg-slate-100 dark:hover:bg-slate-800">
              <Icon name="close" className="size-5" />
            </button>
          </div>
          <div className="flex-1 space-y-6 overflow-y-auto px-5 py-4">{children}</div>
          <div className="flex justify-end gap-2 border-t border-slate-200 px-5 py-3 dark:border-slate-800">
            {footer}
            <Button variant="secondary" size="sm" onClick={onClose}>
              Close
            </Button>
          </div>
        </DialogPanel>
      </div>
    </Dialog>
  );
}

export function Section({ title, children, actions }: { title: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <section aria-label={title}>
      <div className="mb-2 flex items-center justify-between gap-2">
        <h3 className="text-sm font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400">{title}</h3>
        {actions}
      </div>
      {children}
    </section>
  );
}

/** A term and its value in a <dl>; `className` lays the pair out in the list's grid (a wrapper would break the list). */
export function Field({ label, children, className }: { label: string; children: ReactNode; className?: string }) {
  return (
    <div className={className}>
      <dt className="text-xs font-medium text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className="mt-0.5 text-sm text-slate-900 dark:text-slate-100">{children}</dd>
    </div>
  );
}
