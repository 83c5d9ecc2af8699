// /client/reminders/unsubscribe?token=…: no login. Opening the link from a reminder email turns that client's
// appointment reminders off and says so; a broken link gets a plain explanation.
import { useEffect, useRef } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useSearch } from 'wouter';
import { useServices } from '../../app/ServicesContext';
import { ApiError } from '../../api/errors';
import type { RoutePageProps } from '../../router/routeTypes';
import { PageSpinner } from '../../ui/PageSpinner';
import { PublicShell } from '../../ui/PublicShell';
import { unsubscribeFromReminders } from './api';

type Problem = 'missing' | 'invalid' | 'rate-limited' | 'failed';

const PROBLEM_TEXT: Record<Problem, { title: string; body: string }> = {
  missing: { title: 'This link is incomplete', body: 'Please open the link from your reminder email again, making sure the whole address is used.' },
  invalid: { title: 'This link is not valid', body: 'Please open the link from your most recent reminder email, or ask your care provider to stop the reminders.' },
  'rate-limited': { title: 'Too many attempts', body: 'Please wait a minute and try again.' },
  failed: { title: 'Something went wrong', body: 'We could not stop your reminders. Please try again in a moment, or ask your care provider.' },
};

function problemOf(error: unknown): Problem {
  if (error instanceof ApiError) {
    if (error.status === 422 || error.status === 404) return 'invalid';
    if (error.status === 429) return 'rate-limited';
  }
  return 'failed';
}

function ProblemPanel({ problem }: { problem: Problem }) {
  return (
    <div data-testid="unsubscribe-problem" data-problem={problem}>
      <h1 className="text-xl font-semibold">{PROBLEM_TEXT[problem].title}</h1>
      <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">{PROBLEM_TEXT[problem].body}</p>
    </div>
  );
}

export default function UnsubscribePage(_: RoutePageProps) {
  const token = new URLSearchParams(useSearch()).get('token')?.trim() ?? '';
  return <PublicShell>{token === '' ? <ProblemPanel problem="missing" /> : <Unsubscribe token={token} />}</PublicShell>;
}

function Unsubscribe({ token }: { token: string }) {
  const { api } = useServices();
  const unsubscribe = useMutation({ mutationFn: () => unsubscribeFromReminders(api, token) });
  const asked = useRef(false);
  const { mutate } = unsubscribe;
  useEffect(() => {
    if (asked.current) return;
    asked.current = true;
    mutate();
  }, [mutate]);

  if (unsubscribe.isError) return <ProblemPanel problem={problemOf(unsubscribe.error)} />;
  if (!unsubscribe.isSuccess) return <PageSpinner label="Stopping your reminders" />;
  const business = unsubscribe.data.business_name;
  return (
    <div role="status" data-testid="unsubscribed">
      <h1 className="text-xl font-semibold">You won&rsquo;t get reminders any more</h1>
      <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">
        {business} will no longer send you appointment reminders. Your visits are not changed. If you want the reminders again, please
        ask {business}. You can close this page.
      </p>
    </div>
  );
}
