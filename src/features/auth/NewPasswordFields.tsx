// Choosing a password (a reset link, an invitation): the password with the server's rule as its hint, and the same
// again to catch a typo. The page says when the two differ.
import { PASSWORD_RULE } from '../../entities/users/password';
import { TextField } from '../../ui/forms';

export function NewPasswordFields({ label, password, confirmation, onPasswordChange, onConfirmationChange, problem }: {
  /** 'Password', 'New password'; the second field is 'Confirm …' of it. */
  label: string;
  password: string;
  confirmation: string;
  onPasswordChange: (value: string) => void;
  onConfirmationChange: (value: string) => void;
  /** What the server said of the password, under it. */
  problem?: string;
}) {
  return (
    <>
      <TextField
        label={label} type="password" autoComplete="new-password" required minLength={10} hint={PASSWORD_RULE} error={problem}
        value={password} onChange={(event) => onPasswordChange(event.target.value)}
      />
      <TextField
        label={`Confirm ${label.toLowerCase()}`} type="password" autoComplete="new-password" required
        value={confirmation} onChange={(event) => onConfirmationChange(event.target.value)}
      />
    </>
  );
}
