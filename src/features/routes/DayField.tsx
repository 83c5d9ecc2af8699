// The day to optimise: dd MMM yyyy on a button opening a calendar (react-day-picker, as the appointments page's range),
// with a step to the previous and the next day. A native date input would show the browser locale's format.
// (When a shared single-date picker lands in src/ui, this gives way to it.)
import { useId } from 'react';
import { Popover, PopoverButton, PopoverPanel } from '@headlessui/react';
import { DayPicker } from 'react-day-picker';
import 'react-day-picker/style.css';
import { Temporal } from 'temporal-polyfill';
import { formatDay, jsDateFromPlainDate, plainDateFromJsDate } from '../../lib/dates';
import { Icon } from '../../ui/Icon';

const buttonClass =
  'rounded-md border border-slate-300 bg-white px-2.5 py-1.5 text-sm hover:bg-slate-50 disabled:opacity-60 dark:border-slate-700 dark:bg-slate-900 dark:hover:bg-slate-800';

export function DayField({ label, value, onChange, disabled = false }: {
  label: string;
  /** yyyy-MM-dd */
  value: string;
  onChange: (day: string) => void;
  disabled?: boolean;
}) {
  const id = useId();
  const day = Temporal.PlainDate.from(value);
  const step = (days: number) => onChange(day.add({ days }).toString());
  return (
    <div>
      <span id={`${id}-label`} className="block text-sm font-medium text-slate-700 dark:text-slate-200">{label}</span>
      <div className="mt-1 flex flex-wrap items-center gap-2">
        <Popover className="relative">
          <PopoverButton
            disabled={disabled}
            aria-labelledby={`${id}-label ${id}-value`}
            data-testid="optimise-day"
            className={`${buttonClass} inline-flex items-center gap-2 font-medium`}
          >
            <Icon name="appointments" className="size-4 text-slate-500" />
            <span id={`${id}-value`}>{formatDay(day)}</span>
          </PopoverButton>
          <PopoverPanel anchor="bottom start" className="z-50 rounded-lg border border-slate-200 bg-white p-3 shadow-xl dark:border-slate-700 dark:bg-slate-900">
            {({ close }) => (
              <DayPicker
                mode="single"
                required
                weekStartsOn={1}
                defaultMonth={jsDateFromPlainDate(day)}
                selected={jsDateFromPlainDate(day)}
                onSelect={(picked: Date | undefined) => {
                  if (!picked) return;
                  onChange(plainDateFromJsDate(picked).toString());
                  close();
                }}
              />
            )}
          </PopoverPanel>
        </Popover>
        <button type="button" disabled={disabled} className={buttonClass} aria-label="Previous day" onClick={() => step(-1)}>‹</button>
        <button type="button" disabled={disabled} className={buttonClass} aria-label="Next day" onClick={() => step(1)}>›</button>
      </div>
    </div>
  );
}
