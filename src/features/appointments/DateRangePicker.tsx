// The appointments page's date range: a react-day-picker range calendar in a popover, plus day steps.
import { Popover, PopoverButton, PopoverPanel } from '@headlessui/react';
import { DayPicker, type DateRange } from 'react-day-picker';
import 'react-day-picker/style.css';
import { Temporal } from 'temporal-polyfill';
import { formatDay, jsDateFromPlainDate, plainDateFromJsDate } from '../../lib/dates';
import { Icon } from '../../ui/Icon';

export interface DayRange {
  start: Temporal.PlainDate;
  end: Temporal.PlainDate;
}

export const MAX_RANGE_DAYS = 62;

export function describeRange(range: DayRange): string {
  return Temporal.PlainDate.compare(range.start, range.end) === 0 ? formatDay(range.start) : `${formatDay(range.start)} – ${formatDay(range.end)}`;
}

export function DateRangePicker({ value, onChange, today }: { value: DayRange; onChange: (range: DayRange) => void; today: Temporal.PlainDate }) {
  const length = value.start.until(value.end).days;
  const shift = (days: number) => onChange({ start: value.start.add({ days }), end: value.end.add({ days }) });
  const buttonClass = 'rounded-md border border-slate-300 bg-white px-2.5 py-1.5 text-sm hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:hover:bg-slate-800';

  return (
    <div className="flex flex-wrap items-end gap-2">
      <div>
        <span className="block text-xs font-medium text-slate-600 dark:text-slate-300">Dates</span>
        <Popover className="relative mt-1">
          <PopoverButton data-testid="date-range-button" className={`${buttonClass} inline-flex items-center gap-2 font-medium`}>
            <Icon name="appointments" className="size-4 text-slate-500" />
            {describeRange(value)}
          </PopoverButton>
          <PopoverPanel anchor="bottom start" className="z-50 rounded-lg border border-slate-200 bg-white p-3 shadow-xl dark:border-slate-700 dark:bg-slate-900">
            {({ close }) => (
              <DayPicker
                mode="range"
                weekStartsOn={1}
                defaultMonth={jsDateFromPlainDate(value.start)}
                selected={{ from: jsDateFromPlainDate(value.start), to: jsDateFromPlainDate(value.end) }}
                onSelect={(range: DateRange | undefined) => {
                  if (!range?.from) return;
                  const start = plainDateFromJsDate(range.from);
                  let end = range.to ? plainDateFromJsDate(range.to) : start;
                  if (start.until(end).days >= MAX_RANGE_DAYS) end = start.add({ days: MAX_RANGE_DAYS - 1 });
                  onChange({ start, end });
                  if (range.to && range.to.getTime() !== range.from.getTime()) close();
                }}
              />
            )}
          </PopoverPanel>
        </Popover>
      </div>
      <button type="button" className={buttonClass} aria-label="Previous period" onClick={() => shift(-(length + 1))}>
        ‹
      </button>
      <button type="button" className={buttonClass} onClick={() => onChange({ start: today, end: today })}>
        Today
      </button>
      <button type="button" className={buttonClass} aria-label="Next period" onClick={() => shift(length + 1)}>
        ›
      </button>
    </div>
  );
}
