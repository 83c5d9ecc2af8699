// The date range picker with presets (NORMAL mode) and the one-day picker (FAST mode), on react-day-picker.
import type { CSSProperties } from 'react';
import { Popover, PopoverButton, PopoverPanel } from '@headlessui/react';
import { DayPicker, type DateRange as DayPickerRange } from 'react-day-picker';
import 'react-day-picker/style.css';
import { Temporal } from 'temporal-polyfill';
import { formatCalendarDate, jsDateFromPlainDate, plainDateFromJsDate, toRequestDate } from '../../lib/dates';
import { PRESETS, presetRange, type DateRange } from './dateRange';

const toJs = (value: string | null) => (value ? jsDateFromPlainDate(Temporal.PlainDate.from(value)) : undefined);
const fromJs = (value: Date | undefined) => (value ? toRequestDate(plainDateFromJsDate(value)) : null);

export function describeRange(range: DateRange): string {
  if (!range.start) return 'Select dates';
  if (!range.end || range.end === range.start) return formatCalendarDate(range.start) + (range.end ? '' : ' – …');
  return `${formatCalendarDate(range.start)} – ${formatCalendarDate(range.end)}`;
}

// The calendar in the app's accent colour, weeks starting on Monday as in Australia.
const calendarStyle = { '--rdp-accent-color': '#0284c7', '--rdp-accent-background-color': '#e0f2fe' } as CSSProperties;

const fieldButton =
  'mt-1 flex min-h-10 w-full items-center rounded-md border border-slate-300 bg-white px-3 py-2 text-left text-sm shadow-sm focus:border-sky-500 focus:ring-2 focus:ring-sky-500/30 focus:outline-none dark:border-slate-700 dark:bg-slate-900';
const chip =
  'rounded-full border border-slate-300 px-3 py-1 text-xs font-medium text-slate-700 hover:border-sky-400 hover:bg-sky-50 dark:border-slate-600 dark:text-slate-200 dark:hover:bg-slate-800';

export function DateRangePicker({ value, onChange, today, problem = null }: {
  value: DateRange;
  onChange: (range: DateRange) => void;
  today: Temporal.PlainDate;
  /** Why the chosen range was refused, shown under the field. */
  problem?: string | null;
}) {
  const selected: DayPickerRange | undefined = value.start ? { from: toJs(value.start), to: toJs(value.end) } : undefined;
  return (
    <div>
      <span id="sync-date-range-label" className="block text-sm font-medium text-slate-700 dark:text-slate-200">
        Date range
      </span>
      <div className="mt-1 flex flex-wrap gap-1.5" role="group" aria-label="Date range presets">
        {PRESETS.map((preset) => (
          <button key={preset.id} type="button" className={chip} onClick={() => onChange(presetRange(preset.id, today))}>
            {preset.label}
          </button>
        ))}
      </div>
      <div className="flex items-center gap-2">
        <Popover className="relative flex-1">
          <PopoverButton
            className={`${fieldButton} ${problem ? 'border-rose-500 dark:border-rose-500' : ''}`}
            aria-labelledby="sync-date-range-label sync-date-range-value"
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? 'sync-date-range-problem' : undefined}
          >
            <span id="sync-date-range-value" data-testid="date-range-value" className={value.start ? '' : 'text-slate-500'}>
              {describeRange(value)}
            </span>
          </PopoverButton>
          <PopoverPanel anchor="bottom start" className="z-50 rounded-lg border border-slate-200 bg-white p-3 shadow-xl dark:border-slate-700 dark:bg-slate-900">
            <DayPicker
              mode="range"
              numberOfMonths={2}
              weekStartsOn={1}
              style={calendarStyle}
              defaultMonth={toJs(value.start) ?? jsDateFromPlainDate(today)}
              selected={selected}
              onSelect={(range) => onChange({ start: fromJs(range?.from), end: fromJs(range?.to) })}
            />
          </PopoverPanel>
        </Popover>
        {value.start && (
          <button type="button" onClick={() => onChange({ start: null, end: null })} className="mt-1 text-sm text-slate-500 underline hover:text-slate-800 dark:hover:text-slate-200">
            Clear dates
          </button>
        )}
      </div>
      {problem && (
        <p id="sync-date-range-problem" role="alert" className="mt-1 text-sm text-rose-700 dark:text-rose-300">
          {problem}
        </p>
      )}
    </div>
  );
}

export function SingleDatePicker({ value, onChange, today }: { value: string | null; onChange: (date: string | null) => void; today: Temporal.PlainDate }) {
  return (
    <div>
      <span id="sync-date-label" className="block text-sm font-medium text-slate-700 dark:text-slate-200">
        Date
      </span>
      <div className="flex items-center gap-2">
        <Popover className="relative flex-1">
          <PopoverButton className={fieldButton} aria-labelledby="sync-date-label sync-date-value">
            <span id="sync-date-value" data-testid="date-value" className={value ? '' : 'text-slate-500'}>
              {value ? formatCalendarDate(value) : 'Select a date'}
            </span>
          </PopoverButton>
          <PopoverPanel anchor="bottom start" className="z-50 rounded-lg border border-slate-200 bg-white p-3 shadow-xl dark:border-slate-700 dark:bg-slate-900">
            {({ close }) => (
              <DayPicker
                mode="single"
                weekStartsOn={1}
                style={calendarStyle}
                defaultMonth={toJs(value) ?? jsDateFromPlainDate(today)}
                selected={toJs(value)}
                onSelect={(day) => {
                  onChange(fromJs(day));
                  close();
                }}
              />
            )}
          </PopoverPanel>
        </Popover>
        <button type="button" className={`${chip} mt-1`} onClick={() => onChange(toRequestDate(today))}>
          Today
        </button>
        <button type="button" className={`${chip} mt-1`} onClick={() => onChange(toRequestDate(today.add({ days: 1 })))}>
          Tomorrow
        </button>
        {value && (
          <button type="button" onClick={() => onChange(null)} className="mt-1 text-sm text-slate-500 underline">
            Clear date
          </button>
        )}
      </div>
    </div>
  );
}
