import { useEffect, useState } from 'react';
import { Redirect, useSearchParams } from 'wouter';
import { useAuthSelector, useServices } from '../../app/ServicesContext';
import { selectAuthError, selectIsAuthenticated, selectIsLoggingIn } from '../../machines/auth';
import { ErrorNote } from '../../ui/forms';
import { PageSpinner } from '../../ui/PageSpinner';
import { AuthShell } from './AuthShell';
import { TextLink } from '../../ui/TextLink';

/** Exchanges the one-time token of an operator's login-as link for a session. */
export default function LoginAsPage() {
  const { auth } = useServices();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const authenticated = useAuthSelector(selectIsAuthenticated);
  const exchanging = useAuthSelector(selectIsLoggingIn);
  const error = useAuthSelector(selectAuthError);
  // Only a session that this page's exchange produced counts as success.
  const [requested, setRequested] = useState(false);

  useEffect(() => {
    if (!token) return;
    // The link is for a specific user: whoever is logged in on this browser makes way.
    if (auth.getSnapshot().matches('authenticated')) auth.send({ type: 'LOGOUT' });
    auth.send({ type: 'LOGIN_AS', token });
    setRequested(true);
  }, [auth, token]);

  if (requested && authenticated && !exchanging) return <Redirect to="/dashboard" replace />;

  return (
    <AuthShell title="Logging you in">
      {!token ? (
        <ErrorNote>This login link is missing its token.</ErrorNote>
      ) : error && !exchanging ? (
        <ErrorNote>{error}</ErrorNote>
      ) : (
        <PageSpinner label="Checking your login link" />
      )}
      <p className="mt-6 text-sm">
        <TextLink href="/login" className="font-medium">
          Go to the login page
        </TextLink>
      </p>
    </AuthShell>
  );
}
