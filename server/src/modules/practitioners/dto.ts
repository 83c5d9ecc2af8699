// Practitioner rows as the contract's Practitioner.
import type { Schemas } from '../../http/contract';
import type { PractitionerWithColor } from './repository';

export const toPractitionerDto = (p: PractitionerWithColor): Schemas['Practitioner'] => ({
  id: p.id,
  full_name: `${p.first_name} ${p.last_name}`.trim(),
  first_name: p.first_name,
  last_name: p.last_name,
  active: p.active,
  profession: p.profession,
  time_zone: p.time_zone,
  color: p.shown_color,
  color_chosen: p.color !== null,
});
