// Tells an admin when the PMS refuses the stored key (status CONNECTION_ERROR) and what to do about it.
import { Link } from 'wouter';
import { useAuthSelector, useStartUpSelector } from '../../../app/ServicesContext';
import { selectIsAdmin } from '../../../machines/auth';
import { selectProviderAccount } from '../../../machines/startUp';
import { Icon } from '../../../ui/Icon';

export function ConnectionErrorBanner() {
  const isAdmin = useAuthSelector(selectIsAdmin);
  const account = useStartUpSelector(selectProviderAccount);
  if (!isAdmin || account?.status !== 'CONNECTION_ERROR') return null;
  return (
    <div role="alert" data-testid="connection-error-banner" className="mb-6 flex gap-3 rounded-lg border border-rose-200 bg-rose-50 px-4 py-3 text-sm text-rose-900 dark:border-rose-900 dark:bg-rose-950 dark:text-rose-100">
      <Icon name="warning" className="mt-0.5 size-5" />
      <p>
        Rounds can no longer reach your practice management system{account.last_error ? ` (${account.last_error})` : ''}. Imports and exports are paused
        until you{' '}
        <Link href="/settings/provider-account/add" className="font-semibold underline">
          reconnect it with a valid API key
        </Link>
        .
      </p>
    </div>
  );
}
