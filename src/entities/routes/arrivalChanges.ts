// Which clients a re-plan's Apply can tell their new arrival: the server's rule, imported as it is
// (server/src/lib/arrival-changes.ts), so the proposal lists the clients Apply tells.
import type { OptimizationProposal } from '../../api/optimizations';
import { isToldArrivalChange } from '../../../server/src/lib/arrival-changes';

export { ETA_REPLAN_MINUTES_DEFAULT, ETA_REPLAN_MINUTES_MAX, ETA_REPLAN_MINUTES_MIN } from '../../../server/src/lib/arrival-changes';

type Change = OptimizationProposal['changes'][number];

/** The proposal's changes whose clients are told; `bookedStart` gives a visit's booked start when it had no arrival time. */
export function changesToTell(
  changes: readonly Change[], bookedStart: (appointmentId: number) => string | undefined, minutes: number, now: number,
): Change[] {
  return changes.filter((change) => {
    const before = change.old_arrive_at ?? bookedStart(change.appointment_id);
    return before !== undefined && isToldArrivalChange({
      before, after: change.new_arrive_at, practitionerBefore: change.old_practitioner_id, practitionerAfter: change.new_practitioner_id,
    }, minutes, now);
  });
}
