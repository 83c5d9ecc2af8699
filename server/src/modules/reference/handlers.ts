// Reference data the pickers and modals need: locations, practitioners, appointment types, tags,
// sync settings and the provider account.
import { and, asc, eq, inArray } from 'drizzle-orm';
import { callerOf, practitionerScope } from '../../auth/access';
import { appointmentTypes, businessLocations, practitioners, providerAccounts, syncSettings, tags } from '../../db/schema';
import type { Handlers, Schemas } from '../../http/contract';
import type { AppContext } from '../../http/context';

export type PractitionerRow = typeof practitioners.$inferSelect;
export type AppointmentTypeRow = typeof appointmentTypes.$inferSelect;
export type BusinessLocationRow = typeof businessLocations.$inferSelect;
export type TagRow = typeof tags.$inferSelect;

export const toPractitionerDto = (p: PractitionerRow): Schemas['Practitioner'] => ({
  id: p.id,
  full_name: `${p.first_name} ${p.last_name}`.trim(),
  first_name: p.first_name,
  last_name: p.last_name,
  active: p.active,
  profession: p.profession,
  time_zone: p.time_zone,
});

export const toAppointmentTypeDto = (t: AppointmentTypeRow): Schemas['AppointmentType'] => ({
  id: t.id, name: t.name, duration: t.duration, color: t.color,
});

export const toBusinessLocationDto = (l: BusinessLocationRow): Schemas['BusinessLocation'] => ({
  id: l.id, name: l.name, address_1: l.address_1, city: l.city, state: l.state, post_code: l.post_code, lat: l.lat, lng: l.lng,
});

export const toTagDto = (t: Pick<TagRow, 'id' | 'name' | 'color'>): Schemas['Tag'] => ({ id: t.id, name: t.name, color: t.color || '#000000' });

export const DEFAULT_SYNC_SETTINGS: Schemas['SyncSettings'] = {
  enable_auto_import: false,
  enable_auto_export: false,
  ahead_days: 7,
  filters: { practitioner_ids: [], appointment_type_ids: [], business_location_ids: [] },
};

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
      const rows = await db.select().from(practitioners).where(and(
        eq(practitioners.business_account_id, auth.businessAccountId),
        scope ? inArray(practitioners.id, scope.length ? scope : [0]) : undefined,
      )).orderBy(asc(practitioners.first_name), asc(practitioners.last_name));
      return { practitioners: rows.map(toPractitionerDto) };
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
    getSyncSettings: async (request) => {
      const [row] = await db.select().from(syncSettings).where(eq(syncSettings.business_account_id, callerOf(request).businessAccountId));
      if (!row) return { sync_settings: DEFAULT_SYNC_SETTINGS };
      const { enable_auto_import, enable_auto_export, ahead_days, filters } = row;
      return { sync_settings: { enable_auto_import, enable_auto_export, ahead_days, filters } };
    },
    getCurrentProviderAccount: async (request) => {
      const [row] = await db.select().from(providerAccounts)
        .where(eq(providerAccounts.business_account_id, callerOf(request).businessAccountId));
      return {
        provider_account: row ? {
          id: row.id,
          provider: row.provider,
          status: row.status,
          api_key_last4: row.api_key_last4,
          last_error: row.last_error,
          connected_at: row.connected_at?.toISOString() ?? null,
        } : null,
      };
    },
  };
}
