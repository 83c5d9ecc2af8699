// A multi-select (Headless UI Listbox, multiple): placeholder when nothing is chosen, the chosen names as
// tags for up to 3, a counter above 3 (MAX_TAGS).
import { Field, Label, Listbox, ListboxButton, ListboxOption, ListboxOptions } from '@headlessui/react';
import { Icon } from './Icon';

const MAX_TAGS = 3;

export interface Option {
  id: number;
  name: string;
}

/** The button's content: nothing chosen → placeholder, up to 3 → their names, more → "N selected". */
export function selectionSummary(selected: readonly Option[]): { kind: 'placeholder' } | { kind: 'tags'; names: string[] } | { kind: 'count'; text: string } {
  if (selected.length === 0) return { kind: 'placeholder' };
  if (selected.length <= MAX_TAGS) return { kind: 'tags', names: selected.map((option) => option.name) };
  return { kind: 'count', text: `${selected.length} selected` };
}

export function MultiSelect({ label, options, value, onChange, placeholder, loading = false, failed = false, disabled = false, testId }: {
  label: string;
  options: readonly Option[];
  value: readonly number[];
  onChange: (ids: number[]) => void;
  placeholder: string;
  loading?: boolean;
  failed?: boolean;
  disabled?: boolean;
  testId?: string;
}) {
  // Ids no longer offered (an inactive practitioner in the saved filters) are neither shown nor sent.
  const selected = options.filter((option) => value.includes(option.id));
  const summary = selectionSummary(selected);
  const emptyText = loading ? 'Loading…' : failed ? 'Could not load the list' : 'Nothing to choose from';
  return (
    <Field disabled={disabled} data-testid={testId}>
      <Label className="block text-sm font-medium text-slate-700 dark:text-slate-200">{label}</Label>
      <Listbox value={selected.map((option) => option.id)} onChange={(ids: number[]) => onChange(ids)} multiple>
        <ListboxButton
          data-testid={`multiselect-${label}`}
          className="mt-1 flex min-h-10 w-full items-center gap-2 rounded-md border border-slate-300 bg-white px-3 py-1.5 text-left text-sm shadow-sm focus:border-sky-500 focus:ring-2 focus:ring-sky-500/30 focus:outline-none data-disabled:opacity-60 dark:border-slate-700 dark:bg-slate-900"
        >
          <span className="flex flex-1 flex-wrap gap-1">
            {summary.kind === 'placeholder' && <span className="text-slate-500 dark:text-slate-400">{placeholder}</span>}
            {summary.kind === 'tags' &&
              summary.names.map((name) => (
                <span key={name} data-testid="multiselect-tag" className="rounded bg-sky-100 px-2 py-0.5 text-xs font-medium text-sky-900 dark:bg-sky-900 dark:text-sky-100">
                  {name}
                </span>
              ))}
            {summary.kind === 'count' && <span data-testid="multiselect-count">{summary.text}</span>}
          </span>
          <Icon name="chevronDown" className="size-4 text-slate-400" />
        </ListboxButton>
        <ListboxOptions
          anchor="bottom start"
          className="z-50 max-h-64 w-(--button-width) overflow-y-auto rounded-md border border-slate-200 bg-white py-1 text-sm shadow-lg focus:outline-none dark:border-slate-700 dark:bg-slate-900"
        >
          {options.length === 0 && <div className="px-3 py-2 text-slate-500 dark:text-slate-400">{emptyText}</div>}
          {options.map((option) => (
            <ListboxOption
              key={option.id}
              value={option.id}
              className="group flex cursor-pointer items-center gap-2 px-3 py-1.5 data-focus:bg-sky-50 dark:data-focus:bg-slate-800"
            >
              <Icon name="check" className="invisible size-4 text-sky-600 group-data-selected:visible" />
              <span>{option.name}</span>
            </ListboxOption>
          ))}
        </ListboxOptions>
      </Listbox>
    </Field>
  );
}
