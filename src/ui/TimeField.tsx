// A time of day typed as 24-hour "HH:mm", the same in every browser: not type="time", which shows the browser locale's
// clock ("07:00 AM" in en-AU and en-US). What people type ("9:35", "9.35", "0935") becomes "09:35" when they leave the
// field; the arrow keys step it like a time input's.
import type { InputHTMLAttributes } from 'react';
import { normaliseTimeOfDay, stepTimeOfDay } from '../lib/dates';

export function TimeField({ value, onChange, stepMinutes = 5, className = '', ...input }: {
  value: string;
  onChange: (value: string) => void;
  stepMinutes?: number;
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'type'>) {
  return (
    <input
      type="text"
      inputMode="numeric"
      autoComplete="off"
      spellCheck={false}
      maxLength={5}
      placeholder="HH:mm"
      {...input}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      onBlur={(event) => {
        const normalised = normaliseTimeOfDay(value);
        if (normalised && normalised !== value) onChange(normalised);
        input.onBlur?.(event);
      }}
      onKeyDown={(event) => {
        if (event.key === 'ArrowUp' || event.key === 'ArrowDown') {
          const stepped = stepTimeOfDay(value, event.key === 'ArrowUp' ? stepMinutes : -stepMinutes);
          if (stepped) {
            event.preventDefault();
            onChange(stepped);
          }
        }
        input.onKeyDown?.(event);
      }}
      className={`tabular-nums ${className}`}
    />
  );
}
