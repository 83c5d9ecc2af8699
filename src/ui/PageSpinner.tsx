// What every wait for data shows: a page-sized spinner (PageSpinner) or a line of text (LoadingText) with what is
// loading. A wait that lasts LOADING_TIME_OUT_MS says it is taking longer than it should and offers Try again, so
// a request held on the server never leaves a page or dialog on "Loading…" with nothing to do (issue 34).
import { useEffect, useState } from 'react';
import { useQueryClient, type Query } from '@tanstack/react-query';
import { Button } from './Button';
import { Spinner } from './Spinner';

export { Spinner };

export const LOADING_TIME_OUT_MS = 15_000;

interface LoadingProps {
  /** What is loading, e.g. "Loading sync settings" (the ellipsis is added). */
  label: string;
}

const waitingForItsFirstAnswer = (query: Query) => query.state.status === 'pending';

/**
 * True once the wait has lasted LOADING_TIME_OUT_MS. `retry` starts it over and asks again every query on screen
 * still waiting for its first answer: their requests are dropped (a refetch alone would join the request still
 * waiting) and sent afresh. A wait that is not a query's (the account at start-up, a page's code) reloads the page.
 */
function useLoadingTimeOut(): { timedOut: boolean; retry: () => void } {
  const queryClient = useQueryClient();
  const [attempt, setAttempt] = useState(0);
  const [timedOutAttempt, setTimedOutAttempt] = useState(-1);
  useEffect(() => {
    const timer = setTimeout(() => setTimedOutAttempt(attempt), LOADING_TIME_OUT_MS);
    return () => clearTimeout(timer);
  }, [attempt]);
  const retry = () => {
    setAttempt((current) => current + 1);
    const filters = { type: 'active', predicate: waitingForItsFirstAnswer } as const;
    if (queryClient.isFetching(filters) === 0) {
      window.location.reload();
      return;
    }
    void queryClient.cancelQueries(filters).then(() => queryClient.refetchQueries(filters));
  };
  return { timedOut: timedOutAttempt === attempt, retry };
}

function TakingTooLong({ retry }: { retry: () => void }) {
  return (
    <>
      <span>This is taking longer than it should.</span>
      <Button variant="secondary" size="sm" onClick={retry}>Try again</Button>
    </>
  );
}

export function PageSpinner({ label }: LoadingProps) {
  const { timedOut, retry } = useLoadingTimeOut();
  return (
    <div role="status" className="flex flex-wrap items-center justify-center gap-3 py-24 text-slate-500 dark:text-slate-400">
      {timedOut ? <TakingTooLong retry={retry} /> : <><Spinner /><span>{label}…</span></>}
    </div>
  );
}

/** The wait as a line of text, where a page-sized spinner would not fit (a table's body, a section of a dialog). */
export function LoadingText({ label, className = 'text-sm' }: LoadingProps & { className?: string }) {
  const { timedOut, retry } = useLoadingTimeOut();
  return (
    <p role="status" className={`flex flex-wrap items-center gap-3 text-slate-500 dark:text-slate-400 ${className}`}>
      {timedOut ? <TakingTooLong retry={retry} /> : `${label}…`}
    </p>
  );
}
