// The mark of a double-handed (two-carer) visit wherever a visit is drawn (the day's lanes, a proposal's lanes, the
// map): the two-people icon and "with <the other practitioner>", "Two-carer visit" for screen readers.
import { Icon } from './Icon';
import type { VisitPartner } from '../entities/appointments/api';
import { withPartnerText } from '../entities/appointments/facts';

export function TwoCarerMark({ partner, className = '' }: { partner: VisitPartner; className?: string }) {
  return (
    <span data-testid="two-carer" className={`flex min-w-0 items-center gap-0.5 ${className}`}>
      <Icon name="clients" className="size-3" />
      <span className="sr-only">Two-carer visit </span>
      <span className="truncate">{withPartnerText(partner)}</span>
    </span>
  );
}
