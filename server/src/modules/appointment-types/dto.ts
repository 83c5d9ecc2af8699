// Appointment type rows as the contract's AppointmentType.
import type { Schemas } from '../../http/contract';
import type { AppointmentTypeRow } from './repository';

export const toAppointmentTypeDto = (t: AppointmentTypeRow): Schemas['AppointmentType'] => ({
  id: t.id, name: t.name, duration: t.duration, color: t.color,
  tolerance_minutes: t.tolerance_minutes, same_type_gap_minutes: t.same_type_gap_minutes, needs_two_practitioners: t.needs_two_practitioners,
  move_price: t.move_price,
});
