// The Optimise dialog's note on the chosen practitioners whose qualifications are unknown (no appointment types from
// Cliniko and none chosen in Rounds): the run gives them no visit that is not already theirs.
import type { Practitioner } from '../../../entities/appointments/api';

export function UnknownQualifications({ practitioners, chosen }: { practitioners: readonly Practitioner[]; chosen: readonly number[] }) {
  const unknown = practitioners.filter((practitioner) => chosen.includes(practitioner.id) && practitioner.qualified_appointment_type_ids === null);
  if (unknown.length === 0) return null;
  return (
    <p className="mt-1 text-xs text-amber-800 dark:text-amber-200" data-testid="optimise-unknown-qualifications">
      No known qualifications: {unknown.map((practitioner) => practitioner.full_name).join(', ')}. No visit that is not already theirs is
      given to {unknown.length === 1 ? 'them' : 'any of them'}; their appointment types come from Cliniko with the next import.
    </p>
  );
}
