import { useState, type FormEvent } from 'react';
import { Redirect, useSearchParams } from 'wouter';
import { useAuthSelector, useServices } from '../../app/ServicesContext';
import { selectAuthError, selectBusinessChoices, selectIsAuthenticated, selectIsLoggingIn, selectRole } from '../../machines/auth';
import { landingAfterLogin } from '../../router/access';
import { ErrorNote, SubmitButton, TextField } from '../../ui/forms';
import { AuthShell } from './AuthShell';
import { TextLink } from '../../ui/TextLink';

export default function LoginPage() {
  const { auth } = useServices();
  const authenticated = useAuthSelector(selectIsAuthenticated);
  const loggingIn = useAuthSelector(selectIsLoggingIn);
  const error = useAuthSelector(selectAuthError);
  const role = useAuthSelector(selectRole);
  const choices = useAuthSelector(selectBusinessChoices);
  const [params] = useSearchParams();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [sent, setSent] = useState<{ email: string; password: string } | null>(null);
  const [businessId, setBusinessId] = useState<number | null>(null);
  // The businesses are offered for the email and password that opened them: changing either asks again.
  const offered = choices && sent?.email === email.trim() && sent.password === password ? choices : undefined;
  const chosen = offered?.some((business) => business.id === businessId) ? businessId : null;

  if (authenticated) return <Redirect to={landingAfterLogin(params.get('next'), role)} replace />;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const credentials = { email: email.trim(), password };
    setSent(credentials);
    auth.send({ type: 'LOGIN', credentials: chosen === null ? credentials : { ...credentials, business_account_id: chosen } });
  };

  return (
    <AuthShell title="Log in" subtitle="Welcome back. Log in to see today's visits.">
      <form onSubmit={submit} className="space-y-4" aria-label="Log in" noValidate={false}>
        {error && !loggingIn && !choices && <ErrorNote>{error}</ErrorNote>}
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
        {offered && (
          <fieldset>
            <legend className="text-sm font-medium text-slate-700 dark:text-slate-200">
              Your email and password open accounts at several care providers. Which one do you want to log in to?
            </legend>
            <div className="mt-2 space-y-2">
              {offered.map((business, index) => (
                <label key={business.id} className="flex items-center gap-2 rounded-md border border-slate-200 px-3 py-2 text-sm dark:border-slate-700">
                  <input
                    type="radio"
                    name="business"
                    value={business.id}
                    required
                    autoFocus={index === 0}
                    checked={chosen === business.id}
                    onChange={() => setBusinessId(business.id)}
                  />
                  {business.name}
                </label>
              ))}
            </div>
          </fieldset>
        )}
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
