// A report's own choice in its filter bar (a kind, an author, a grouping): a labelled select, kept in the address by
// the report.
import { useId } from 'react';

export function ReportSelect<Value extends string>({ label, value, options, onChange }: {
  label: string;
  value: Value;
  options: readonly { value: Value; label: string }[];
  onChange: (value: Value) => void;
}) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="block text-xs font-medium text-slate-600 dark:text-slate-300">{label}</label>
      <select
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value as Value)}
        className="mt-1 max-w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-900"
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>{option.label}</option>
        ))}
      </select>
    </div>
  );
}
