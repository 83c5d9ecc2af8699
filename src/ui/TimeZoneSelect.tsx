// A searchable choice of IANA time zone (Headless UI Combobox over the browser's Intl.supportedValuesOf list): typing
// "bris" or "new york" narrows it; the value is always one of the list (or the current value, when the browser's list
// lacks it). A problem with the choice shows under it and describes the input.
import { useMemo, useState } from 'react';
import { Combobox, ComboboxButton, ComboboxInput, ComboboxOption, ComboboxOptions, Description, Field, Label } from '@headlessui/react';
import { Icon } from './Icon';

function supportedTimeZones(): string[] {
  try {
    return Intl.supportedValuesOf('timeZone');
  } catch {
    return ['UTC'];
  }
}

const simplify = (text: string) => text.toLowerCase().replace(/[\s_/-]+/g, ' ').trim();

/** At most this many zones are listed at once (the browser knows about 400): typing narrows them. */
const SHOWN_AT_MOST = 60;

export function TimeZoneSelect({ label, value, onChange, problem }: {
  label: string;
  value: string;
  onChange: (timeZone: string) => void;
  problem?: string;
}) {
  const zones = useMemo(() => {
    const list = supportedTimeZones();
    return value && !list.includes(value) ? [value, ...list] : list;
  }, [value]);
  const [query, setQuery] = useState('');
  const wanted = simplify(query);
  // Before typing: the zones of the current value's region (Australia/…) first.
  const region = value.split('/')[0];
  const matching = wanted
    ? zones.filter((zone) => simplify(zone).includes(wanted))
    : [...zones.filter((zone) => zone.split('/')[0] === region), ...zones.filter((zone) => zone.split('/')[0] !== region)];
  const shown = matching.slice(0, SHOWN_AT_MOST);
  return (
    // Headless UI's Field names the input's label and description (it sets aria-describedby itself).
    <Field>
      <Label className="block text-sm font-medium text-slate-700 dark:text-slate-200">{label}</Label>
      <Combobox value={value} onChange={(zone: string | null) => zone && onChange(zone)} onClose={() => setQuery('')}>
        <div className="relative mt-1">
          <ComboboxInput
            aria-invalid={problem ? true : undefined}
            displayValue={(zone: string) => zone}
            onChange={(event) => setQuery(event.target.value)}
            autoComplete="off"
            className={`block w-full rounded-md border bg-white py-2 pr-9 pl-3 text-sm shadow-sm focus:border-sky-500 focus:ring-2 focus:ring-sky-500/30 focus:outline-none dark:bg-slate-900 ${
              problem ? 'border-rose-500' : 'border-slate-300 dark:border-slate-700'
            }`}
          />
          <ComboboxButton aria-label={`Show every ${label.toLowerCase()}`} className="absolute inset-y-0 right-0 flex items-center px-2.5 text-slate-400">
            <Icon name="chevronDown" className="size-4" />
          </ComboboxButton>
        </div>
        <ComboboxOptions
          anchor="bottom start"
          className="z-50 max-h-64 w-(--input-width) overflow-y-auto rounded-md border border-slate-200 bg-white py-1 text-sm shadow-lg focus:outline-none dark:border-slate-700 dark:bg-slate-900"
        >
          {shown.length === 0 && <div className="px-3 py-2 text-slate-500 dark:text-slate-400">No time zone matches “{query}”</div>}
          {shown.map((zone) => (
            <ComboboxOption
              key={zone}
              value={zone}
              className="group flex cursor-pointer items-center gap-2 px-3 py-1.5 data-focus:bg-sky-50 dark:data-focus:bg-slate-800"
            >
              <Icon name="check" className="invisible size-4 text-sky-600 group-data-selected:visible" />
              <span>{zone.replaceAll('_', ' ')}</span>
            </ComboboxOption>
          ))}
          {matching.length > shown.length && (
            <div className="px-3 py-2 text-xs text-slate-500 dark:text-slate-400">{matching.length - shown.length} more: type a city or region to narrow the list</div>
          )}
        </ComboboxOptions>
      </Combobox>
      {problem && (
        <Description as="p" role="alert" className="mt-1 text-sm text-rose-700 dark:text-rose-300">
          {problem}
        </Description>
      )}
    </Field>
  );
}
