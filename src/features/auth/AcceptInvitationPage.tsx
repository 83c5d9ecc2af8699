// /accept-invitation?token=…: the page an invited user reaches from their email. It says at once whether the link
// still works (used, replaced by a newer one, expired: each in words, with the way forward); if it does, the user
// chooses a password and is logged in with it.
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Redirect, useSearchParams } from 'wouter';
import { useAuthSelector, useServices } from '../../app/ServicesContext';
import { acceptInvitation, checkInvitation, type Invitation } from '../../api/endpoints';
import { ApiError, messageOfError } from '../../api/errors';
import { selectAuthError, selectIsAuthenticated, selectIsLoggingIn } from '../../machines/auth';
import { ErrorNote, SubmitButton, SuccessNote, TextField, useFieldProblems } from '../../ui/forms';
import { PageSpinner } from '../../ui/PageSpinner';
import { TextLink } from '../../ui/TextLink';
import { AuthShell } from './AuthShell';
import { NewPasswordFields } from './NewPasswordFields';

const CHECK_ERROR = 'An error has occurred. Could not check your invitation.';
const ACCEPT_ERROR = 'An error has occurred. Could not set your password.';
const PROBLEM_TITLES: Record<string, string> = {
  INVITATION_USED: 'Invitation already accepted',
  INVITATION_REPLACED: 'A newer invitation was sent',
  INVITATION_EXPIRED: 'This invitation has expired',
  INVITATION_INVALID: 'This invitation link does not work',
};

const toLogin = (text: string) => (
  <TextLink href="/login" className="text-sm font-medium">
    {text}
  </TextLink>
);

export default function AcceptInvitationPage() {
  const { api } = useServices();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const invitation = useQuery({
    queryKey: ['invitation', token] as const,
    queryFn: () => checkInvitation(api, token),
    enabled: token !== '',
    retry: false,
    staleTime: Infinity,
  });

  if (!token) return <Problem title={PROBLEM_TITLES.INVITATION_INVALID} message="This link is missing its token: open the link from your invitation email again." />;
  if (invitation.isPending) {
    return (
      <AuthShell title="Your invitation">
        <PageSpinner label="Checking your invitation" />
      </AuthShell>
    );
  }
  if (invitation.isError) {
    const code = invitation.error instanceof ApiError ? invitation.error.code : undefined;
    return <Problem title={(code && PROBLEM_TITLES[code]) || 'Your invitation'} message={messageOfError(invitation.error, CHECK_ERROR)} />;
  }
  return <ChoosePasswordForm token={token} invitation={invitation.data} />;
}

function Problem({ title, message }: { title: string; message: string }) {
  return (
    <AuthShell title={title}>
      <div className="space-y-4">
        <ErrorNote>{message}</ErrorNote>
        {toLogin('Go to the login page')}
      </div>
    </AuthShell>
  );
}

function ChoosePasswordForm({ token, invitation }: { token: string; invitation: Invitation }) {
  const { api, auth } = useServices();
  const authenticated = useAuthSelector(selectIsAuthenticated);
  const loggingIn = useAuthSelector(selectIsLoggingIn);
  const loginError = useAuthSelector(selectAuthError);
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const accept = useMutation({
    mutationFn: (chosen: string) => acceptInvitation(api, token, chosen),
    onSuccess: (email, chosen) => {
      // The new user logs in with what they just chose; whoever was logged in on this browser makes way.
      if (auth.getSnapshot().matches('authenticated')) auth.send({ type: 'LOGOUT' });
      auth.send({ type: 'LOGIN', credentials: { email, password: chosen } });
    },
  });

  const { problemOf, other } = useFieldProblems({
    error: accept.error, fieldOf: (path) => (path === 'password' ? 'password' : null), fallback: ACCEPT_ERROR, values: { password },
  });

  if (accept.isSuccess && authenticated && !loggingIn) return <Redirect to="/dashboard" replace />;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const differs = password !== confirmation;
    setMismatch(differs);
    if (!differs) accept.mutate(password);
  };

  return (
    <AuthShell title={`Welcome to ${invitation.business_name}`} subtitle={`Hello ${invitation.first_name}, choose a password to finish setting up your account.`}>
      {accept.isSuccess ? (
        <div className="space-y-4">
          {loginError && !loggingIn ? (
            <>
              <SuccessNote>Your password is set.</SuccessNote>
              {toLogin('Log in with your new password')}
            </>
          ) : (
            <PageSpinner label="Logging you in" />
          )}
        </div>
      ) : (
        <form onSubmit={submit} className="space-y-4" aria-label="Choose your password">
          {mismatch && <ErrorNote>The two passwords do not match.</ErrorNote>}
          {other.map((line) => <ErrorNote key={line}>{line}</ErrorNote>)}
          <TextField label="Email" type="email" name="email" autoComplete="username" value={invitation.email} readOnly />
          <NewPasswordFields
            label="Password" password={password} confirmation={confirmation}
            onPasswordChange={setPassword} onConfirmationChange={setConfirmation} problem={problemOf('password')}
          />
          <div className="flex flex-col-reverse items-center gap-3 pt-2 sm:flex-row sm:justify-between">
            {toLogin('Already set? Log in')}
            <SubmitButton busy={accept.isPending}>Set password and log in</SubmitButton>
          </div>
        </form>
      )}
    </AuthShell>
  );
}
