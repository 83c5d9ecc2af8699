// /client/update-availability?token=…: no login. The client sees their first name, the care provider asking (and how
// to reach it) and the same availability editor staff use; an expired, used or broken link gets a plain explanation.
import { useMutation, useQuery } from '@tanstack/react-query';
import { useSearch } from 'wouter';
import { useServices } from '../../app/ServicesContext';
import { savePublicAvailability } from '../../api/availability';
import { ApiError, messageOfError } from '../../api/errors';
import type { RoutePageProps } from '../../router/routeTypes';
import { AVAILABILITY_ERROR_MESSAGE, AVAILABILITY_UPDATED_MESSAGE, type AvailabilityEntry } from '../../machines/availabilityEditor';
import { AvailabilityEditor } from '../../ui/AvailabilityEditor';
import { PageSpinner } from '../../ui/PageSpinner';
import { PublicShell } from '../../ui/PublicShell';
import { publicAvailabilityQueries } from './queries';

const LINK_MISSING_TITLE = 'This link is incomplete';
const LINK_EXPIRED_TITLE = 'This link has expired or has already been used';
const LINK_INVALID_TITLE = 'This link is not valid';
const TOO_MANY_ATTEMPTS_TITLE = 'Too many attempts';

type Problem = 'missing' | 'expired' | 'invalid' | 'rate-limited' | 'failed';

function problemOf(error: unknown): Problem {
  if (error instanceof ApiError) {
    if (error.status === 410) return 'expired';
    if (error.status === 422 || error.status === 404) return 'invalid';
    if (error.status === 429) return 'rate-limited';
  }
  return 'failed';
}

const PROBLEM_TEXT: Record<Problem, { title: string; body: string }> = {
  missing: { title: LINK_MISSING_TITLE, body: 'Please open the link from your email again, making sure the whole address is used.' },
  expired: { title: LINK_EXPIRED_TITLE, body: 'For your security each link works for a limited time and only once. Please contact your care provider and ask for a new link.' },
  invalid: { title: LINK_INVALID_TITLE, body: 'Please open the link from your email again, or contact your care provider for a new one.' },
  'rate-limited': { title: TOO_MANY_ATTEMPTS_TITLE, body: 'Please wait a minute and try again.' },
  failed: { title: 'Something went wrong', body: 'We could not load your availability. Please try again in a moment.' },
};

type Business = { name: string; email: string | null; phone: string | null };

/** Who asks and how to reach them, so the client knows the page is their care provider's. */
function BusinessContact({ business }: { business: Business }) {
  if (!business.email && !business.phone) return null;
  return (
    <p className="text-sm text-slate-600 dark:text-slate-300" data-testid="public-availability-contact">
      Questions? Contact {business.name}
      {business.phone && <>{' '}on <a className="text-sky-700 underline dark:text-sky-400" href={`tel:${business.phone.replace(/\s+/g, '')}`}>{business.phone}</a></>}
      {business.phone && business.email && ' or'}
      {business.email && <>{' '}at <a className="text-sky-700 underline dark:text-sky-400" href={`mailto:${business.email}`}>{business.email}</a></>}.
    </p>
  );
}

function ProblemPanel({ problem }: { problem: Problem }) {
  const text = PROBLEM_TEXT[problem];
  return (
    <div data-testid="public-availability-problem" data-problem={problem}>
      <h1 className="text-xl font-semibold">{text.title}</h1>
      <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">{text.body}</p>
    </div>
  );
}

export default function UpdateAvailabilityPage(_: RoutePageProps) {
  const token = new URLSearchParams(useSearch()).get('token')?.trim() ?? '';
  if (token === '') {
    return (
      <PublicShell>
        <ProblemPanel problem="missing" />
      </PublicShell>
    );
  }
  return (
    <PublicShell>
      <PublicAvailabilityForm token={token} />
    </PublicShell>
  );
}

function PublicAvailabilityForm({ token }: { token: string }) {
  const { api } = useServices();
  const details = useQuery({ ...publicAvailabilityQueries.byToken(api, token), retry: false, staleTime: Infinity });
  // The page, not a toast, says how saving went: thank you, the link has expired, or what went wrong.
  const save = useMutation({ mutationFn: (availability: AvailabilityEntry[]) => savePublicAvailability(api, token, availability) });

  if (details.isPending) return <PageSpinner label="Loading your availability" />;
  if (details.isError) return <ProblemPanel problem={problemOf(details.error)} />;
  if (save.isError && problemOf(save.error) === 'expired') return <ProblemPanel problem="expired" />;

  const firstName = details.data.client.first_name;
  const { business } = details.data;
  if (save.isSuccess) {
    return (
      <div role="status" data-testid="public-availability-saved" className="space-y-2">
        <h1 className="text-xl font-semibold">Thank you, {firstName}</h1>
        <p className="text-sm text-slate-600 dark:text-slate-300">{AVAILABILITY_UPDATED_MESSAGE} {business.name} will plan your visits around it. You can close this page.</p>
        <BusinessContact business={business} />
      </div>
    );
  }

  return (
    <div className="space-y-5">
      <div>
        <h1 className="text-xl font-semibold">Hi {firstName}</h1>
        <p className="mt-1 text-sm font-medium">{business.name} asks when you are available for home visits.</p>
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">
          Tell us when you are usually available for home visits. Turn on custom availability, then choose the days and, if a day is not
          all day, the times that suit you. Leave it off if any time suits.
        </p>
      </div>
      {save.isError && (
        <p role="alert" className="rounded-md border border-rose-200 bg-rose-50 px-3 py-2 text-sm text-rose-800 dark:border-rose-900 dark:bg-rose-950 dark:text-rose-200">
          {messageOfError(save.error, AVAILABILITY_ERROR_MESSAGE)}
        </p>
      )}
      <AvailabilityEditor availability={details.data.availability} saveTo={{ token }} save={save} saveLabel="Save my availability" />
      <BusinessContact business={business} />
    </div>
  );
}
