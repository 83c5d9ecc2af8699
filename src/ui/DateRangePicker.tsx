// Date pickers on react-day-picker in a Headless UI popover: a range of days (with optional presets, steps and
// longest range) and a single day. Days are Temporal.PlainDate; weeks start on the business's week start (Account settings; Monday unless changed).
import { useId, type CSSProperties, type ReactElement, type ReactNode } from 'react';
import { Popover, PopoverButton, PopoverPanel } from '@headlessui/react';
import { DayPicker, type DateRange as CalendarRange } from 'react-day-picker';
import 'react-day-picker/style.css';
import { Temporal } from 'temporal-polyfill';
import { formatDay, formatDayRange, jsDateFromPlainDate, plainDateFromJsDate } from '../lib/dates';
import { Icon } from './Icon';
import { useBusinessDefaults, type WeekStart } from '../app/businessDefaults';
import { TextLink } from './TextLink';

export interface DayRange {
  start: Temporal.PlainDate;
  end: Temporal.PlainDate;
}

/** A range being chosen in a form: no days yet, or a first day without a last. */
export interface OpenDayRange {
  start: Temporal.PlainDate | null;
  end: Temporal.PlainDate | null;
}

/** A button above the field that chooses a whole range at once, e.g. "Next 7 days". */
export interface DateRangePreset {
  label: string;
  /** `weekStart`: the business's first day of the week (0 = Sunday), for presets that are weeks. */
  range: (today: Temporal.PlainDate, weekStart: WeekStart) => DayRange;
}

export function describeRange(range: OpenDayRange): string {
  if (!range.start) return 'Select dates';
  if (!range.end) return `${formatDay(range.start)} – …`;
  return formatDayRange(range.start, range.end);
}

interface CommonProps {
  label: string;
  today: Temporal.PlainDate;
  presets?: readonly DateRangePreset[];
  /** Months the calendar shows side by side. */
  months?: number;
  /** A toolbar button sized to its text, with a calendar icon, instead of a full-width form field. */
  compact?: boolean;
  /** Why the chosen range was refused, shown under the field. */
  problem?: string | null;
}

/** The picker always holds a whole range: a first click chooses that one day, a second its last day and closes the calendar. */
interface WholeRangeProps {
  clearable?: false;
  value: DayRange;
  onChange: (range: DayRange) => void;
  /** The longest range: a later last day is brought back to it. */
  maxDays?: number;
  /** ‹ Today › buttons beside the field: the range of the same length before or after, or today alone. */
  steps?: boolean;
}

/** The range is a form's draft: it may be cleared or half chosen (the form says what is missing), and the calendar stays open while the user adjusts it. */
interface OpenRangeProps {
  clearable: true;
  value: OpenDayRange;
  onChange: (range: OpenDayRange) => void;
}

const labelClass = {
  field: 'block text-sm font-medium text-slate-700 dark:text-slate-200',
  compact: 'block text-xs font-medium text-slate-600 dark:text-slate-300',
};
const fieldButton =
  'flex min-h-10 w-full items-center rounded-md border border-slate-300 bg-white px-3 py-2 text-left text-sm shadow-sm focus:border-sky-500 focus:ring-2 focus:ring-sky-500/30 focus:outline-none dark:border-slate-700 dark:bg-slate-900';
// 44 px high on a phone, where a thumb taps it (the steps' arrows 44 px wide too).
const toolbarButton =
  'max-md:min-h-11 rounded-md border border-slate-300 bg-white px-2.5 py-1.5 text-sm hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:hover:bg-slate-800';
const chip =
  'rounded-full border border-slate-300 px-3 py-1 text-xs font-medium text-slate-700 hover:border-sky-400 hover:bg-sky-50 aria-pressed:border-sky-500 aria-pressed:bg-sky-50 aria-pressed:text-sky-800 dark:border-slate-600 dark:text-slate-200 dark:hover:bg-slate-800 dark:aria-pressed:bg-sky-950 dark:aria-pressed:text-sky-200';

// The calendar in the app's accent colour.
const calendarStyle = { '--rdp-accent-color': '#0284c7', '--rdp-accent-background-color': '#e0f2fe' } as CSSProperties;

function CalendarPopover({ button, className, children }: { button: ReactNode; className: string; children: (close: () => void) => ReactElement }) {
  return (
    <Popover className={className}>
      {button}
      <PopoverPanel anchor="bottom start" className="z-50 rounded-lg border border-slate-200 bg-white p-3 shadow-xl dark:border-slate-700 dark:bg-slate-900">
        {({ close }) => children(close)}
      </PopoverPanel>
    </Popover>
  );
}

const toJs = (day: Temporal.PlainDate | null) => (day ? jsDateFromPlainDate(day) : undefined);
const fromJs = (day: Date | undefined) => (day ? plainDateFromJsDate(day) : null);

export function DateRangePicker(props: CommonProps & (WholeRangeProps | OpenRangeProps)) {
  const { label, today, presets, months = 1, compact = false, problem = null } = props;
  const id = useId();
  const [labelId, valueId, problemId] = [`${id}-label`, `${id}-value`, `${id}-problem`];
  const { start, end } = props.value;
  const { weekStart } = useBusinessDefaults();
  const selected: CalendarRange | undefined = start ? { from: toJs(start), to: toJs(end) } : undefined;

  const choose = (range: CalendarRange | undefined, close: () => void) => {
    if (props.clearable) {
      props.onChange({ start: fromJs(range?.from), end: fromJs(range?.to) });
      return;
    }
    if (!range?.from) return;
    const first = plainDateFromJsDate(range.from);
    let last = range.to ? plainDateFromJsDate(range.to) : first;
    if (props.maxDays && first.until(last).days >= props.maxDays) last = first.add({ days: props.maxDays - 1 });
    props.onChange({ start: first, end: last });
    if (range.to && range.to.getTime() !== range.from.getTime()) close();
  };

  const trigger = (
    <PopoverButton
      data-testid="date-range-button"
      className={
        compact
          ? `${toolbarButton} inline-flex items-center gap-2 font-medium`
          : `${fieldButton} ${problem ? 'border-rose-500 dark:border-rose-500' : ''}`
      }
      aria-labelledby={`${labelId} ${valueId}`}
      aria-invalid={problem ? true : undefined}
      aria-describedby={problem ? problemId : undefined}
    >
      {compact && <Icon name="appointments" className="size-4 text-slate-500 dark:text-slate-400" />}
      <span id={valueId} data-testid="date-range-value" className={start ? undefined : 'text-slate-500 dark:text-slate-400'}>
        {describeRange(props.value)}
      </span>
    </PopoverButton>
  );

  return (
    <div>
      <span id={labelId} className={labelClass[compact ? 'compact' : 'field']}>
        {label}
      </span>
      {presets && (
        <div className="mt-1 flex flex-wrap gap-1.5" role="group" aria-label={`${label} presets`}>
          {presets.map((preset) => {
            const range = preset.range(today, weekStart);
            const chosen = start !== null && end !== null && range.start.equals(start) && range.end.equals(end);
            return (
              <button key={preset.label} type="button" aria-pressed={chosen} className={chip} onClick={() => props.onChange(range)}>
                {preset.label}
              </button>
            );
          })}
        </div>
      )}
      <div className={`mt-1 flex gap-2 ${compact ? 'flex-wrap items-end' : 'items-center'}`}>
        <CalendarPopover button={trigger} className={compact ? 'relative' : 'relative flex-1'}>
          {(close) => (
            <DayPicker
              mode="range"
              numberOfMonths={months}
              weekStartsOn={weekStart}
              style={calendarStyle}
              defaultMonth={toJs(start) ?? jsDateFromPlainDate(today)}
              // The business's today, not the browser's (they differ across time zones and around midnight).
              today={jsDateFromPlainDate(today)}
              selected={selected}
              onSelect={(range) => choose(range, close)}
            />
          )}
        </CalendarPopover>
        {!props.clearable && props.steps && <RangeSteps value={props.value} onChange={props.onChange} today={today} />}
        {props.clearable && start && (
          <TextLink variant="muted" onClick={() => props.onChange({ start: null, end: null })} className="text-sm">
            Clear dates
          </TextLink>
        )}
      </div>
      {problem && (
        <p id={problemId} role="alert" className="mt-1 text-sm text-rose-700 dark:text-rose-300">
          {problem}
        </p>
      )}
    </div>
  );
}

function RangeSteps({ value, onChange, today }: { value: DayRange; onChange: (range: DayRange) => void; today: Temporal.PlainDate }) {
  const days = value.start.until(value.end).days + 1;
  const shift = (by: number) => onChange({ start: value.start.add({ days: by }), end: value.end.add({ days: by }) });
  return (
    <>
      <button type="button" className={`${toolbarButton} max-md:min-w-11`} aria-label="Previous period" onClick={() => shift(-days)}>
        ‹
      </button>
      <button type="button" className={toolbarButton} onClick={() => onChange({ start: today, end: today })}>
        Today
      </button>
      <button type="button" className={`${toolbarButton} max-md:min-w-11`} aria-label="Next period" onClick={() => shift(days)}>
        ›
      </button>
    </>
  );
}

/** One day, with Today and Tomorrow beside the field; a form's day may be cleared (the form says what is missing). */
export function SingleDatePicker({ label, value, onChange, today, clearable = true, earliest, hint }: {
  label: string;
  value: Temporal.PlainDate | null;
  onChange: (day: Temporal.PlainDate | null) => void;
  today: Temporal.PlainDate;
  /** Days before it cannot be picked in the calendar. */
  earliest?: Temporal.PlainDate;
  /** Shown under the field (why some days cannot be picked). */
  hint?: string;
  /** False where a day is always chosen (a page's filter): no "Clear date". */
  clearable?: boolean;
}) {
  const { weekStart } = useBusinessDefaults();
  const id = useId();
  const [labelId, valueId] = [`${id}-label`, `${id}-value`];
  return (
    <div>
      <span id={labelId} className={labelClass.field}>
        {label}
      </span>
      <div className="mt-1 flex items-center gap-2">
        <CalendarPopover
          className="relative flex-1"
          button={
            <PopoverButton className={fieldButton} aria-labelledby={`${labelId} ${valueId}`}>
              <span id={valueId} data-testid="date-value" className={value ? undefined : 'text-slate-500 dark:text-slate-400'}>
                {value ? formatDay(value) : 'Select a date'}
              </span>
            </PopoverButton>
          }
        >
          {(close) => (
            <DayPicker
              mode="single"
              weekStartsOn={weekStart}
              style={calendarStyle}
              defaultMonth={toJs(value) ?? jsDateFromPlainDate(today)}
              // The business's today, not the browser's (they differ across time zones and around midnight).
              today={jsDateFromPlainDate(today)}
              selected={toJs(value)}
              disabled={earliest ? { before: jsDateFromPlainDate(earliest) } : undefined}
              onSelect={(day) => {
                onChange(fromJs(day));
                close();
              }}
            />
          )}
        </CalendarPopover>
        <button type="button" className={chip} onClick={() => onChange(today)}>
          Today
        </button>
        <button type="button" className={chip} onClick={() => onChange(today.add({ days: 1 }))}>
          Tomorrow
        </button>
        {clearable && value && (
          <TextLink variant="muted" onClick={() => onChange(null)} className="text-sm">
            Clear date
          </TextLink>
        )}
      </div>
      {hint && <p className="mt-1 text-xs text-slate-500 dark:text-slate-400" data-testid="date-hint">{hint}</p>}
    </div>
  );
}
