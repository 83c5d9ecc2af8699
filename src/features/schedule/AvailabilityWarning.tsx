import { Icon } from '../../ui/Icon';
import { OUTSIDE_AVAILABILITY_TEXT } from '../../entities/appointments/facts';

/** The warning icon; its text is both the tooltip and the accessible name. */
export function AvailabilityWarning({ withText = false }: { withText?: boolean }) {
  return (
    <span data-testid="availability-warning" title={OUTSIDE_AVAILABILITY_TEXT} className="inline-flex items-center gap-1 text-amber-600 dark:text-amber-400">
      <Icon name="warning" className="size-5" />
      {withText ? <span className="text-sm font-medium">{OUTSIDE_AVAILABILITY_TEXT}</span> : <span className="sr-only">{OUTSIDE_AVAILABILITY_TEXT}</span>}
    </span>
  );
}
