import { useEffect, useId, useState, type InputHTMLAttributes, type ReactNode } from 'react';
import { fieldProblemsOf } from '../api/errors';
import { Button } from './Button';

export function TextField({ label, hint, error, ...input }: { label: string; hint?: string; error?: string | null } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700 dark:text-slate-200">
        {label}
      </label>
      <input
        id={id}
        aria-describedby={describedBy}
        aria-invalid={error ? true : undefined}
        className={`mt-1 block w-full rounded-md border bg-white px-3 py-2 text-sm text-slate-900 shadow-sm placeholder:text-slate-400 focus:ring-2 focus:outline-none disabled:opacity-60 dark:bg-slate-900 dark:text-slate-100 ${error ? 'border-rose-400 focus:border-rose-500 focus:ring-rose-500/30 dark:border-rose-700' : 'border-slate-300 focus:border-sky-500 focus:ring-sky-500/30 dark:border-slate-700'}`}
        {...input}
      />
      {error && (
        <p id={errorId} className="mt-1 text-xs font-medium text-rose-700 dark:text-rose-300">
          {error}
        </p>
      )}
      {hint && (
        <p id={hintId} className="mt-1 text-xs text-slate-500 dark:text-slate-400">
          {hint}
        </p>
      )}
    </div>
  );
}

export function SubmitButton({ busy, children, busyLabel }: { busy: boolean; children: ReactNode; busyLabel?: string }) {
  return (
    <Button type="submit" busy={busy} className="w-full sm:w-auto">
      {busy && busyLabel ? busyLabel : children}
    </Button>
  );
}

export function ErrorNote({ children }: { children: ReactNode }) {
  return (
    <div role="alert" className="rounded-md border border-rose-200 bg-rose-50 px-3 py-2 text-sm text-rose-800 dark:border-rose-900 dark:bg-rose-950 dark:text-rose-200">
      {children}
    </div>
  );
}

export function SuccessNote({ children }: { children: ReactNode }) {
  return (
    <div role="status" className="rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-800 dark:border-emerald-900 dark:bg-emerald-950 dark:text-emerald-200">
      {children}
    </div>
  );
}

/** A field's problem, under the field: point the field's aria-describedby at `id`. */
export function FieldMessage({ id, children }: { id?: string; children: ReactNode }) {
  return (
    <p id={id} role="alert" className="mt-1 text-sm text-rose-700 dark:text-rose-300">
      {children}
    </p>
  );
}

/**
 * Once the form shows its problems, moves the focus to the first field marked invalid, scrolling it into view. A
 * server's answer may render a few frames after its callback (the query client batches its updates): it looks again
 * for a few frames until a field is marked.
 */
export function focusFirstProblem(form: HTMLFormElement | null): void {
  let frames = 0;
  // Stops once the form has left the page (closed, or a test's document torn down).
  const attempt = () => {
    if (!form?.isConnected) return;
    const field = form.querySelector<HTMLElement>('[aria-invalid="true"]');
    if (field) field.focus();
    else if (++frames < 10) setTimeout(attempt, 16);
  };
  setTimeout(attempt, 0);
}

/** While there are unsaved changes, leaving or reloading the page asks first (the browser's own question). */
export function useLeaveWarning(unsaved: boolean): void {
  useEffect(() => {
    if (!unsaved) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [unsaved]);
}

/**
 * A form's problems, each under its field: the form's own (`ours`, found before sending) first, then the lines of the
 * server's 422 (`error`) that name a field the form shows (`fieldOf` answers the form's field for a line's path, or
 * null), without the field's name. `other` holds the server's remaining lines (or the fallback) for one note at the top.
 * `problem(field)` renders the message; `fieldProps(field, hintId?)` marks the field invalid and points it at it
 * (TextField does both itself with `error={problemOf(field)}`).
 */
export function useFieldProblems<F extends string>({ error, fieldOf, fallback, ours, values }: {
  error: unknown;
  fieldOf: (path: string) => F | null | undefined;
  fallback: string;
  ours?: ReadonlyMap<F, string>;
  /** The fields' values: a field's problem is no longer shown once its value changes (until the next check). */
  values?: Partial<Record<F, unknown>>;
}) {
  const ids = useId();
  // The values when the problems were found; a new error or other problems of ours take them again.
  const oursKey = JSON.stringify([...(ours ?? [])]);
  const [found, setFound] = useState({ error, oursKey, values: JSON.stringify(values ?? {}) });
  if (found.error !== error || found.oursKey !== oursKey) setFound({ error, oursKey, values: JSON.stringify(values ?? {}) });
  const foundValues = JSON.parse(found.values) as Partial<Record<F, unknown>>;
  const changed = (field: F) => values !== undefined && field in values && JSON.stringify(values[field]) !== JSON.stringify(foundValues[field]);
  const theirs = fieldProblemsOf(error, (path) => fieldOf(path) != null, fallback);
  const problemOf = (field: F): string | undefined =>
    changed(field) ? undefined : ours?.get(field) ?? theirs.fields.find((problem) => fieldOf(problem.field) === field)?.text;
  const problemId = (field: F) => `${ids}-${field.replace(/[^\w-]/g, '-')}-problem`;
  const fieldProps = (field: F, hintId?: string) => ({
    'aria-invalid': problemOf(field) ? (true as const) : undefined,
    'aria-describedby': [problemOf(field) ? problemId(field) : null, hintId].filter(Boolean).join(' ') || undefined,
  });
  const problem = (field: F) => {
    const text = problemOf(field);
    return text ? <FieldMessage id={problemId(field)}>{text}</FieldMessage> : null;
  };
  return { problemOf, fieldProps, problem, other: theirs.other };
}
