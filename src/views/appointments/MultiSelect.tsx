// A multi-select (Headless UI Listbox): placeholder 'All' when nothing is chosen, the chosen names as tags
// for up to three, and a counter above three (spec section 9).
import { Field, Label, Listbox, ListboxButton, ListboxOption, ListboxOptions } from '@headlessui/react';
import { Icon } from '../common/Icon';

export const MAX_TAGS_SHOWN = 3;

export interface MultiSelectOption {
  id: number;
  label: string;
}

export function selectionSummary(selected: readonly MultiSelectOption[], placeholder: string): { kind: 'placeholder' | 'tags' | 'counter'; text: string[] } {
  if (selected.length === 0) return { kind: 'placeholder', text: [placeholder] };
  if (selected.length <= MAX_TAGS_SHOWN) return { kind: 'tags', text: selected.map((option) => option.label) };
  return { kind: 'counter', text: [`${selected.length} selected`] };
}

export function MultiSelect({ label, options, value, onChange, placeholder = 'All', testId }: {
  label: string;
  options: readonly MultiSelectOption[];
  value: readonly number[];
  onChange: (ids: number[]) => void;
  placeholder?: string;
  testId?: string;
}) {
  const selected = options.filter((option) => value.includes(option.id));
  const summary = selectionSummary(selected, placeholder);
  return (
    <Field className="min-w-48" data-testid={testId}>
      <Label className="block text-xs font-medium text-slate-600 dark:text-slate-300">{label}</Label>
      <Listbox value={[...value]} onChange={(ids: number[]) => onChange(ids)} multiple>
        <ListboxButton className="mt-1 flex min-h-9 w-full items-center justify-between gap-2 rounded-md border border-slate-300 bg-white px-2 py-1 text-left text-sm dark:border-slate-700 dark:bg-slate-900">
          <span className="flex flex-wrap gap-1" data-summary={summary.kind}>
            {summary.kind === 'tags' ? (
              summary.text.map((text) => (
                <span key={text} className="rounded bg-sky-100 px-1.5 py-0.5 text-xs font-medium text-sky-800 dark:bg-sky-900 dark:text-sky-100">
                  {text}
                </span>
              ))
            ) : (
              <span className={summary.kind === 'placeholder' ? 'text-slate-500' : 'font-medium'}>{summary.text[0]}</span>
            )}
          </span>
          <Icon name="chevronDown" className="size-4 text-slate-400" />
        </ListboxButton>
        <ListboxOptions
          anchor="bottom start"
          className="z-50 max-h-72 w-[var(--button-width)] min-w-56 overflow-auto rounded-md border border-slate-200 bg-white py-1 text-sm shadow-lg [--anchor-gap:4px] focus:outline-none dark:border-slate-700 dark:bg-slate-900"
        >
          {options.length === 0 && <div className="px-3 py-2 text-slate-500">Nothing to choose from.</div>}
          {options.map((option) => (
            <ListboxOption
              key={option.id}
              value={option.id}
              className="group flex cursor-pointer items-center gap-2 px-3 py-1.5 data-[focus]:bg-sky-50 dark:data-[focus]:bg-slate-800"
            >
              <Icon name="check" className="invisible size-4 text-sky-600 group-data-[selected]:visible" />
              {option.label}
            </ListboxOption>
          ))}
        </ListboxOptions>
      </Listbox>
    </Field>
  );
}
