// Practitioner rows as the contract's Practitioner (pickers, lanes) and PractitionerSettings (the settings page).
import type { Schemas } from '../../http/contract';
import type { PractitionerWithColor } from './repository';
import { breakOf, effectiveQualifications, fullName, normaliseWorkingHours, resolvePlace, routingReadiness, type PlaceSources } from './working-data';

export const toPractitionerDto = (p: PractitionerWithColor): Required<Schemas['Practitioner']> => ({
  id: p.id,
  full_name: fullName(p),
  first_name: p.first_name,
  last_name: p.last_name,
  active: p.active,
  profession: p.profession,
  time_zone: p.time_zone,
  color: p.shown_color,
  color_chosen: p.color !== null,
  qualified_appointment_type_ids: effectiveQualifications(p),
});

export function toPractitionerSettingsDto(p: PractitionerWithColor, places: PlaceSources): Schemas['PractitionerSettings'] {
  const { routable, warnings } = routingReadiness(p, places);
  const hasHome = p.home_address !== null || p.home_lat !== null || p.home_lng !== null;
  return {
    ...toPractitionerDto(p),
    start_place: resolvePlace(p, 'start', places),
    end_place: resolvePlace(p, 'end', places),
    home: hasHome ? { address: p.home_address, lat: p.home_lat, lng: p.home_lng, precision: p.home_geo_precision, source: p.home_geo_source ?? null } : null,
    working_hours: normaliseWorkingHours(p.working_hours),
    break: breakOf(p),
    skill_appointment_type_ids: p.skill_appointment_type_ids,
    pms_appointment_type_ids: p.pms_appointment_type_ids,
    max_visits: p.max_visits,
    max_travel_minutes: p.max_travel_minutes,
    routable,
    warnings,
  };
}
