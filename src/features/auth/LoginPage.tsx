import { useState, type FormEvent } from 'react';
import { Redirect, useSearchParams } from 'wouter';
import { useAuthSelector, useServices } from '../../app/ServicesContext';
import { selectAuthError, selectIsAuthenticated, selectIsLoggingIn, selectRole } from '../../machines/auth';
import { landingAfterLogin } from '../../routes/access';
import { ErrorNote, SubmitButton, TextField } from '../../ui/forms';
import { AuthShell } from './AuthShell';
import { TextLink } from '../../ui/TextLink';

export default function LoginPage() {
  const { auth } = useServices();
  const authenticated = useAuthSelector(selectIsAuthenticated);
  const loggingIn = useAuthSelector(selectIsLoggingIn);
  const error = useAuthSelector(selectAuthError);
  const role = useAuthSelector(selectRole);
  const [params] = useSearchParams();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');

  if (authenticated) return <Redirect to={landingAfterLogin(params.get('next'), role)} replace />;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    auth.send({ type: 'LOGIN', credentials: { email: email.trim(), password } });
  };

  return (
    <AuthShell title="Log in" subtitle="Welcome back. Log in to plan today's visits.">
      <form onSubmit={submit} className="space-y-4" aria-label="Log in" noValidate={false}>
        {error && !loggingIn && <ErrorNote>{error}</ErrorNote>}
        <TextField
          label="Email"
          type="email"
          name="email"
          autoComplete="username"
          required
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <TextField
          label="Password"
          type="password"
          name="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
        <div className="flex flex-col-reverse items-center gap-3 pt-2 sm:flex-row sm:justify-between">
          <TextLink href="/reset-password" className="text-sm font-medium">
            Forgot your password?
          </TextLink>
          <SubmitButton busy={loggingIn} busyLabel="Logging in…">
            Log in
          </SubmitButton>
        </div>
      </form>
    </AuthShell>
  );
}
