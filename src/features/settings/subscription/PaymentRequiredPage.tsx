// /payment-required: where start-up takes every user while the business needs a payment method (40003). Admins go
// on to Subscription info, which has the action to add one; everyone else is asked to tell their administrator.
import { Redirect } from 'wouter';
import { useAuthSelector, useServices } from '../../../app/ServicesContext';
import { Button } from '../../../ui/Button';
import { selectRole, selectUser } from '../../../machines/auth';
import type { RoutePageProps } from '../../../router/routeTypes';
import { Card, PageHeader } from '../../../ui/PageHeader';
import { PageSpinner } from '../../../ui/PageSpinner';

export const SUBSCRIPTION_PATH = '/settings/subscription';

export default function PaymentRequiredPage({ route }: RoutePageProps) {
  const { startUp } = useServices();
  const role = useAuthSelector(selectRole);
  const business = useAuthSelector(selectUser)?.business_account.name;
  if (role === null) return <PageSpinner label="Loading your account" />;
  if (role === 'ADMIN') return <Redirect to={SUBSCRIPTION_PATH} replace />;
  return (
    <>
      <PageHeader title={route.title} />
      <Card className="max-w-2xl">
        <h2 className="text-lg font-semibold">Ask your administrator to add a payment method</h2>
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">
          Rounds is paused for {business ?? 'your business'} until a payment method is added. An administrator of your
          business can add one in Settings → Subscription info. Your visits and clients are kept safe in the meantime.
        </p>
        <Button type="button" variant="secondary" className="mt-4" onClick={() => startUp.send({ type: 'RELOAD' })}>
          Check again
        </Button>
      </Card>
    </>
  );
}
