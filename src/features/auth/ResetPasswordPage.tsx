import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useSearchParams } from 'wouter';
import { useServices } from '../../app/ServicesContext';
import { confirmPasswordReset, requestPasswordReset } from '../../api/endpoints';
import { messageOfError } from '../../api/errors';
import { ErrorNote, SubmitButton, SuccessNote, TextField } from '../../ui/forms';
import { AuthShell } from './AuthShell';
import { NewPasswordFields } from './NewPasswordFields';
import { TextLink } from '../../ui/TextLink';

const backToLogin = (
  <TextLink href="/login" className="text-sm font-medium">
    Back to log in
  </TextLink>
);

function RequestResetForm() {
  const { api } = useServices();
  const [email, setEmail] = useState('');
  const request = useMutation({ mutationFn: (address: string) => requestPasswordReset(api, address) });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    request.mutate(email.trim());
  };
  return (
    <AuthShell title="Reset your password" subtitle="We will email you a link to choose a new password.">
      {request.isSuccess ? (
        <div className="space-y-4">
          <SuccessNote>{request.data}</SuccessNote>
          {backToLogin}
        </div>
      ) : (
        <form onSubmit={submit} className="space-y-4" aria-label="Request a password reset">
          {request.isError && <ErrorNote>{messageOfError(request.error, 'An error has occurred. Could not request a password reset.')}</ErrorNote>}
          <TextField label="Email" type="email" autoComplete="email" required value={email} onChange={(event) => setEmail(event.target.value)} />
          <div className="flex flex-col-reverse items-center gap-3 pt-2 sm:flex-row sm:justify-between">
            {backToLogin}
            <SubmitButton busy={request.isPending}>Send reset link</SubmitButton>
          </div>
        </form>
      )}
    </AuthShell>
  );
}

function NewPasswordForm({ token }: { token: string }) {
  const { api } = useServices();
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const confirm = useMutation({ mutationFn: (newPassword: string) => confirmPasswordReset(api, token, newPassword) });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const differs = password !== confirmation;
    setMismatch(differs);
    if (!differs) confirm.mutate(password);
  };
  return (
    <AuthShell title="Choose a new password">
      {confirm.isSuccess ? (
        <div className="space-y-4">
          <SuccessNote>{confirm.data}</SuccessNote>
          <TextLink href="/login" className="text-sm font-medium">
            Log in with your new password
          </TextLink>
        </div>
      ) : (
        <form onSubmit={submit} className="space-y-4" aria-label="Set a new password">
          {mismatch && <ErrorNote>The two passwords do not match.</ErrorNote>}
          {confirm.isError && <ErrorNote>{messageOfError(confirm.error, 'An error has occurred. Could not set the new password.')}</ErrorNote>}
          <NewPasswordFields
            label="New password" password={password} confirmation={confirmation}
            onPasswordChange={setPassword} onConfirmationChange={setConfirmation}
          />
          <div className="flex flex-col-reverse items-center gap-3 pt-2 sm:flex-row sm:justify-between">
            {backToLogin}
            <SubmitButton busy={confirm.isPending}>Set new password</SubmitButton>
          </div>
        </form>
      )}
    </AuthShell>
  );
}

export default function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  return token ? <NewPasswordForm token={token} /> : <RequestResetForm />;
}
