import type { ReactNode } from 'react';
import { Dialog, DialogBackdrop, DialogPanel, DialogTitle, Description } from '@headlessui/react';
import { Button } from './Button';

/** A yes/no question before an action that cannot be taken back; `children` adds to the message (a warning). */
export function ConfirmDialog({ open, title, message, confirmLabel, cancelLabel = 'Cancel', onConfirm, onCancel, danger = false, children }: {
  open: boolean;
  title: string;
  message: string;
  children?: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  onConfirm: () => void;
  onCancel: () => void;
  danger?: boolean;
}) {
  return (
    <Dialog open={open} onClose={onCancel} role="alertdialog" className="relative z-50">
      <DialogBackdrop className="fixed inset-0 bg-slate-900/40" />
      <div className="fixed inset-0 flex items-center justify-center p-4">
        <DialogPanel className="w-full max-w-md rounded-xl bg-white p-5 shadow-2xl dark:bg-slate-900">
          <DialogTitle className="text-base font-semibold">{title}</DialogTitle>
          <Description className="mt-2 text-sm text-slate-600 dark:text-slate-300">{message}</Description>
          {children}
          <div className="mt-5 flex justify-end gap-2">
            <Button variant="secondary" size="sm" onClick={onCancel}>
              {cancelLabel}
            </Button>
            <Button size="sm" danger={danger} onClick={onConfirm}>
              {confirmLabel}
            </Button>
          </div>
        </DialogPanel>
      </div>
    </Dialog>
  );
}
