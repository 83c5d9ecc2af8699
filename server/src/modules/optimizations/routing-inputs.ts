// What the optimiser needs to know about each practitioner on one day — start and end place, that weekday's working
// hours, break, skills, limits — read straight from the practitioners' own columns (migration 0050).
// The practitioner working-data API (branch routesdata) brings its own resolver of a practitioner's routing data for
// a day; `resolveRoutingInputs` is the one function to swap for it, and nothing else here reads those columns.
import { sql } from 'drizzle-orm';
import { Temporal } from 'temporal-polyfill';
import { queryRows, type DbOrTx } from '../../db/client';
import type { Place, PlaceKind, WorkingHours } from '../../db/schema';

export interface PractitionerRoutingInputs {
  practitionerId: number;
  name: string;
  active: boolean;
  timeZone: string;
  /** '#rrggbb' the practitioner is shown in (practitioner_color(), migration 0042). */
  color: string;
  /** null: no start place, or one without a map position (the practitioner cannot be routed). */
  startPlace: Place | null;
  /** The end place; the start place when none is set. */
  endPlace: Place | null;
  /** The day's working hours on the practitioner's clock ('HH:MM'); null = off that weekday. */
  hours: WorkingHours | null;
  /** 'HH:MM' on the practitioner's clock; null = no break. */
  break: { earliest: string; latest: string; minutes: number } | null;
  /** The appointment types they deliver; null = every type. */
  skillAppointmentTypeIds: number[] | null;
  maxVisits: number | null;
  maxTravelMinutes: number | null;
}

interface Row {
  id: number;
  name: string;
  active: boolean;
  time_zone: string;
  color: string;
  working_hours: (WorkingHours | null)[];
  break_earliest: string | null;
  break_latest: string | null;
  break_minutes: number | null;
  skill_appointment_type_ids: number[] | null;
  max_visits: number | null;
  max_travel_minutes: number | null;
  start_kind: PlaceKind | null;
  end_kind: PlaceKind | null;
  home_address: string | null;
  home_lat: number | null;
  home_lng: number | null;
  start_business: Place | null;
  start_custom: Place | null;
  end_business: Place | null;
  end_custom: Place | null;
}

const place = (kind: 'business_location' | 'custom_location', alias: string) => sql.raw(`CASE WHEN ${alias}.id IS NULL THEN NULL
  ELSE json_build_object('kind', '${kind}', 'id', ${alias}.id, 'name', ${alias}.name, 'lat', ${alias}.lat, 'lng', ${alias}.lng) END`);

/** Whichever place `kind` names, or null when it is unset or has no map position. */
function placeOf(row: Row, kind: PlaceKind | null, business: Place | null, custom: Place | null): Place | null {
  const found: Place | null = kind === 'home'
    ? { kind: 'home', id: null, name: row.home_address?.trim() || 'Home', lat: row.home_lat as number, lng: row.home_lng as number }
    : kind === 'business_location' ? business : kind === 'custom_location' ? custom : null;
  if (!found || typeof found.lat !== 'number' || typeof found.lng !== 'number') return null;
  return { ...found, lat: Number(found.lat), lng: Number(found.lng) };
}

const hhmm = (time: string | null) => (time ? time.slice(0, 5) : null);

/**
 * The routing inputs of the business's practitioners `practitionerIds` on `date` (yyyy-MM-dd), in the order asked.
 * Ids that are not the business's are left out.
 */
export async function resolveRoutingInputs(
  db: DbOrTx, businessAccountId: number, practitionerIds: readonly number[], date: string,
): Promise<PractitionerRoutingInputs[]> {
  if (practitionerIds.length === 0) return [];
  const rows = await queryRows<Row>(db, sql`
    SELECT p.id, btrim(p.first_name || ' ' || p.last_name) AS name, p.active, p.time_zone, practitioner_color(p.id) AS color,
           p.working_hours, p.break_earliest::text AS break_earliest, p.break_latest::text AS break_latest, p.break_minutes,
           p.skill_appointment_type_ids, p.max_visits, p.max_travel_minutes,
           p.start_place_kind AS start_kind, p.end_place_kind AS end_kind, p.home_address, p.home_lat, p.home_lng,
           ${place('business_location', 'sb')} AS start_business, ${place('custom_location', 'sc')} AS start_custom,
           ${place('business_location', 'eb')} AS end_business, ${place('custom_location', 'ec')} AS end_custom
    FROM practitioners p
    LEFT JOIN business_locations sb ON sb.id = p.start_business_location_id AND sb.business_account_id = p.business_account_id
    LEFT JOIN custom_locations sc ON sc.id = p.start_custom_location_id AND sc.business_account_id = p.business_account_id
    LEFT JOIN business_locations eb ON eb.id = p.end_business_location_id AND eb.business_account_id = p.business_account_id
    LEFT JOIN custom_locations ec ON ec.id = p.end_custom_location_id AND ec.business_account_id = p.business_account_id
    WHERE p.business_account_id = ${businessAccountId} AND p.id IN ${[...practitionerIds]}`);
  // Working hours are listed Monday first; a calendar date is the same weekday on every clock.
  const weekday = Temporal.PlainDate.from(date).dayOfWeek - 1;
  const byId = new Map(rows.map((row) => {
    const startPlace = placeOf(row, row.start_kind, row.start_business, row.start_custom);
    const endPlace = row.end_kind === null ? startPlace : placeOf(row, row.end_kind, row.end_business, row.end_custom);
    const hours = Array.isArray(row.working_hours) ? row.working_hours[weekday] ?? null : null;
    const inputs: PractitionerRoutingInputs = {
      practitionerId: row.id,
      name: row.name,
      active: row.active,
      timeZone: row.time_zone,
      color: row.color,
      startPlace,
      endPlace,
      hours,
      break: row.break_earliest && row.break_latest && row.break_minutes
        ? { earliest: hhmm(row.break_earliest)!, latest: hhmm(row.break_latest)!, minutes: row.break_minutes }
        : null,
      skillAppointmentTypeIds: row.skill_appointment_type_ids,
      maxVisits: row.max_visits,
      maxTravelMinutes: row.max_travel_minutes,
    };
    return [row.id, inputs] as const;
  }));
  return practitionerIds.flatMap((id) => byId.get(id) ?? []);
}
