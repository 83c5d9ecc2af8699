// Reference data the pickers and modals need: locations, practitioners, appointment types and tags.
import { and, asc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import { callerOf, practitionerScope } from '../../auth/access';
import { appointmentTypes, businessLocations, practitioners, tags } from '../../db/schema';
import { bodyOf, paramsOf, type Handlers, type Schemas } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { notFound } from '../../http/errors';

export type PractitionerRow = typeof practitioners.$inferSelect;
export type AppointmentTypeRow = typeof appointmentTypes.$inferSelect;
export type BusinessLocationRow = typeof businessLocations.$inferSelect;
export type TagRow = typeof tags.$inferSelect;

/**
 * A practitioner row with the colour it is shown in (lanes, map): the admin's choice, else one derived from the
 * practitioner's rank in the business. The rule is the database function practitioner_color() (migration 0042), which
 * the appointments' practitioners (appointments/repository.ts) read too.
 */
const practitionerWithColor = { ...getTableColumns(practitioners), shown_color: sql<string>`practitioner_color(${practitioners.id})` };

export const toPractitionerDto = (p: PractitionerRow & { shown_color: string }): Schemas['Practitioner'] => ({
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

export const toAppointmentTypeDto = (t: AppointmentTypeRow): Schemas['AppointmentType'] => ({
  id: t.id, name: t.name, duration: t.duration, color: t.color,
});

export const toBusinessLocationDto = (l: BusinessLocationRow): Schemas['BusinessLocation'] => ({
  id: l.id, name: l.name, address_1: l.address_1, city: l.city, state: l.state, post_code: l.post_code, lat: l.lat, lng: l.lng,
});

export const toTagDto = (t: Pick<TagRow, 'id' | 'name' | 'color'>): Schemas['Tag'] => ({ id: t.id, name: t.name, color: t.color || '#000000' });

export function referenceHandlers({ db }: AppContext): Handlers {
  return {
    listAllBusinessLocations: async (request) => {
      const { businessAccountId } = callerOf(request);
      const rows = await db.select().from(businessLocations)
        .where(eq(businessLocations.business_account_id, businessAccountId)).orderBy(asc(businessLocations.name));
      return { business_locations: rows.map(toBusinessLocationDto) };
    },
    listAllPractitioners: async (request) => {
      const auth = callerOf(request);
      const scope = practitionerScope(auth);
      const rows = await db.select(practitionerWithColor).from(practitioners).where(and(
        eq(practitioners.business_account_id, auth.businessAccountId),
        scope ? inArray(practitioners.id, scope.length ? scope : [0]) : undefined,
      )).orderBy(asc(practitioners.first_name), asc(practitioners.last_name));
      return { practitioners: rows.map(toPractitionerDto) };
    },
    updatePractitioner: async (request) => {
      const { businessAccountId } = callerOf(request);
      const { color } = bodyOf(request, 'updatePractitioner');
      const id = paramsOf(request, 'updatePractitioner').id;
      const updated = await db.update(practitioners).set({ color: color?.toLowerCase() ?? null, updated_at: new Date() })
        .where(and(eq(practitioners.id, id), eq(practitioners.business_account_id, businessAccountId)))
        .returning({ id: practitioners.id });
      if (updated.length === 0) throw notFound('Practitioner');
      const [row] = await db.select(practitionerWithColor).from(practitioners).where(eq(practitioners.id, id));
      return { practitioner: toPractitionerDto(row) };
    },
    listAllAppointmentTypes: async (request) => {
      const rows = await db.select().from(appointmentTypes)
        .where(eq(appointmentTypes.business_account_id, callerOf(request).businessAccountId)).orderBy(asc(appointmentTypes.name));
      return { appointment_types: rows.map(toAppointmentTypeDto) };
    },
    listAllTags: async (request) => {
      const rows = await db.select().from(tags)
        .where(eq(tags.business_account_id, callerOf(request).businessAccountId)).orderBy(asc(tags.name));
      return { tags: rows.map(toTagDto) };
    },
  };
}
