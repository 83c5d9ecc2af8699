import { useFlashSelector, useServices } from '../app/ServicesContext';
import { selectFlashMessages, type FlashType } from '../machines/flashMessages';
import { Icon } from '../ui/Icon';

const STYLE: Record<FlashType, string> = {
  success: 'border-emerald-200 bg-emerald-50 text-emerald-900 dark:border-emerald-800 dark:bg-emerald-950 dark:text-emerald-100',
  info: 'border-sky-200 bg-sky-50 text-sky-900 dark:border-sky-800 dark:bg-sky-950 dark:text-sky-100',
  warning: 'border-amber-200 bg-amber-50 text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100',
  danger: 'border-rose-200 bg-rose-50 text-rose-900 dark:border-rose-800 dark:bg-rose-950 dark:text-rose-100',
};

/** Flash messages, top right. Problems are announced assertively (alert), the rest politely (status). */
export function Toasts() {
  const { flash } = useServices();
  const messages = useFlashSelector(selectFlashMessages);
  return (
    <section
      aria-label="Notifications"
      className="pointer-events-none fixed top-4 right-4 z-50 flex w-[calc(100%-2rem)] max-w-sm flex-col gap-2 print:hidden"
    >
      {messages.map((message) => (
        <div
          key={message.id}
          role={message.type === 'danger' || message.type === 'warning' ? 'alert' : 'status'}
          data-testid="toast"
          data-type={message.type}
          className={`pointer-events-auto flex items-start gap-3 rounded-lg border p-3 text-sm shadow-lg ${STYLE[message.type]}`}
        >
          <Icon name={message.type} className="mt-0.5 size-5" />
          <p className="flex-1">{message.text}</p>
          <button
            type="button"
            aria-label="Dismiss"
            onClick={() => flash.send({ type: 'DISMISS', id: message.id })}
            className="rounded p-0.5 opacity-70 hover:opacity-100"
          >
            <Icon name="close" className="size-4" />
          </button>
        </div>
      ))}
      {messages.length > 1 && (
        <button
          type="button"
          onClick={() => flash.send({ type: 'CLEAR' })}
          className="pointer-events-auto self-end rounded-md bg-white/90 px-2 py-1 text-xs font-medium text-slate-600 shadow hover:text-slate-900 dark:bg-slate-800/90 dark:text-slate-300"
        >
          Clear all
        </button>
      )}
    </section>
  );
}
