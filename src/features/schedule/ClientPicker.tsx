// The client of a new visit: a type-ahead on the clients list (best match first), as nearby search's origin field.
import { useState } from 'react';
import { Combobox, ComboboxInput, ComboboxOption, ComboboxOptions, Field, Label } from '@headlessui/react';
import { useQuery } from '@tanstack/react-query';
import { useServices } from '../../app/ServicesContext';
import { clientQueries } from '../../entities/clients/queries';
import { useDebouncedValue } from '../../ui/useDebouncedValue';

const TYPE_AHEAD_MS = 250;

export interface ChosenClient {
  id: number;
  full_name: string;
}

export function ClientPicker({ value, onChange, invalid }: { value: ChosenClient | null; onChange: (client: ChosenClient | null) => void; invalid?: boolean }) {
  const { api } = useServices();
  const [text, setText] = useState('');
  const typed = useDebouncedValue(text.trim(), TYPE_AHEAD_MS);
  const matches = useQuery({ ...clientQueries.list(api, { q: typed, per_page: 10, sort: 'match' }), enabled: typed.length >= 2 });
  const optionClass = 'block cursor-pointer px-3 py-2 text-left text-sm data-focus:bg-sky-50 dark:data-focus:bg-slate-800';
  const shown = typed === text.trim() ? matches.data?.clients ?? [] : [];
  return (
    <Field className="relative">
      <Label className="block text-sm font-medium text-slate-700 dark:text-slate-200">Client</Label>
      <Combobox<ChosenClient | null>
        value={value}
        by={(a, b) => a?.id === b?.id}
        onChange={(client) => {
          onChange(client);
          setText('');
        }}
        onClose={() => setText('')}
      >
        <ComboboxInput
          type="search"
          autoComplete="off"
          aria-invalid={invalid || undefined}
          placeholder="Type a client's name"
          className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm dark:border-slate-700 dark:bg-slate-900"
          displayValue={(client: ChosenClient | null) => client?.full_name ?? ''}
          onChange={(event) => setText(event.target.value)}
        />
        {text.trim().length >= 2 && (
          <ComboboxOptions
            aria-label="Matching clients"
            anchor="bottom start"
            className="z-50 w-(--input-width) overflow-hidden rounded-md border border-slate-200 bg-white shadow-lg empty:invisible dark:border-slate-700 dark:bg-slate-900"
          >
            {shown.map((client) => (
              <ComboboxOption key={client.id} value={{ id: client.id, full_name: client.full_name }} className={optionClass}>
                {client.full_name}
                {client.suburb ? <span className="text-slate-500 dark:text-slate-400"> · {client.suburb}</span> : null}
              </ComboboxOption>
            ))}
          </ComboboxOptions>
        )}
      </Combobox>
    </Field>
  );
}
