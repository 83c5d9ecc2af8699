// The demo care provider "Brisbane Demo Care", created on an empty database when SEED_DEMO is on. With the PMS
// sandbox running (START_SANDBOX), its data comes through a real import: the provider account is connected to the
// sandbox and the first import runs before the server announces ready. Without it, seedDemo() writes generated data
// directly (also used by tests and benchmarks that need data without a PMS).
import { and, asc, count, eq, isNotNull, sql } from 'drizzle-orm';
import { Temporal } from 'temporal-polyfill';
import type { Db } from '../db/client';
import {
  appointments, appointmentTypes, businessAccounts, businessLocations, clients, customLocations, practitioners, providerAccounts, resourceMaps,
  type WorkingHours,
} from '../db/schema';
import { jobs } from '../db/schema-jobs';
import { enqueueJob } from '../jobs/queue';
import { drainJobs } from '../jobs/worker';
import { jobHandlers } from '../modules/job-handlers';
import type { AppContext } from '../http/context';
import { createBusinessAccount, createUser } from '../modules/business-account';
import { BRISBANE_SUBURBS, pointOnStreet } from '../geo/brisbane-gazetteer';
import { DEMO_LOCATIONS, generateAppointments, generateClients, generatePractitioners } from './generate';
import { APPOINTMENT_TYPES, SAMPLE_TIME_ZONE, SeededRandom } from '../sample-data';
import { walkDemoDay } from './live-day';
import { seedPublicHolidays } from './public-holidays';

export const DEMO_BUSINESS_NAME = 'Brisbane Demo Care';
export const DEMO_PASSWORD = 'rounds-demo';
export const DEMO_USERS = {
  admin: 'admin@demo.test',
  staff: 'staff@demo.test',
  practitioner: 'practitioner@demo.test',
} as const;

export async function seedDemoIfEmpty(ctx: AppContext, options: { pmsApiKey?: string } = {}): Promise<boolean> {
  const [{ value }] = await ctx.db.select({ value: count() }).from(businessAccounts);
  if (value > 0) return false;
  if (options.pmsApiKey) {
    const started = Date.now();
    const result = await seedDemoFromPms(ctx, options.pmsApiKey);
    ctx.log.info({ import: result, ms: Date.now() - started }, 'demo data imported from the practice management system');
  } else {
    await seedDemo(ctx.db);
  }
  // Today's earlier visits through their steps, so the live desk has a day to show (one visit left overdue).
  const [demo] = await ctx.db.select({ id: businessAccounts.id }).from(businessAccounts).where(eq(businessAccounts.name, DEMO_BUSINESS_NAME));
  const day = await walkDemoDay(ctx, demo.id);
  ctx.log.info(day, "demo: today's earlier visits walked through their steps");
  // Even this public password stays out of the log, so that a search of the log for passwords finds none.
  ctx.log.info(`demo care provider "${DEMO_BUSINESS_NAME}" created: log in as ${DEMO_USERS.admin} with the demo password (see the README)`);
  return true;
}

/**
 * Creates the demo business and its users, connects its provider account with `apiKey` (config.clinikoBaseUrl
 * points at the sandbox) and runs the setup and the first import (today-7 .. today+21) in this process.
 */
export async function seedDemoFromPms(ctx: AppContext, apiKey: string) {
  const { db } = ctx;
  const { business, admin } = await createBusinessAccount(db, {
    name: DEMO_BUSINESS_NAME,
    timeZone: SAMPLE_TIME_ZONE,
    admin: { email: DEMO_USERS.admin, password: DEMO_PASSWORD, first_name: 'Alex', last_name: 'Morgan' },
  });
  const businessAccountId = business.id;
  await createUser(db, { businessAccountId, email: DEMO_USERS.staff, password: DEMO_PASSWORD, first_name: 'Sam', last_name: 'Taylor', role: 'REGULAR_USER' });
  await db.insert(providerAccounts).values({
    business_account_id: businessAccountId, status: 'INITIALIZING', connected_at: new Date(),
    api_key_encrypted: ctx.secrets.seal(apiKey), api_key_last4: apiKey.slice(-4),
  });
  const today = Temporal.Now.plainDateISO(SAMPLE_TIME_ZONE);
  const author = { createdByUserId: admin.id, createdByName: 'Alex Morgan' };
  await enqueueJob(db, { businessAccountId, kind: 'PROVIDER_SETUP', ...author });
  const firstImport = await enqueueJob(db, {
    businessAccountId, kind: 'IMPORT', startDate: today.subtract({ days: 7 }).toString(), endDate: today.add({ days: 21 }).toString(), ...author,
  });
  await drainJobs(ctx, jobHandlers, { retryDelayMs: 0 });
  const [job] = await db.select().from(jobs).where(eq(jobs.id, firstImport.id));
  if (job.status !== 'COMPLETE') throw new Error(`The demo's first import did not complete (${job.status}): ${job.error_message}`);

  // The practitioner user is one of the imported active practitioners.
  const [practitioner] = await db.select({ id: practitioners.id, first_name: practitioners.first_name, last_name: practitioners.last_name })
    .from(practitioners)
    .innerJoin(resourceMaps, and(eq(resourceMaps.resource_type, 'Practitioner'), eq(resourceMaps.resource_id, practitioners.id)))
    .where(and(eq(practitioners.business_account_id, businessAccountId), eq(practitioners.active, true)))
    .orderBy(asc(resourceMaps.external_id)).limit(1);
  await createUser(db, {
    businessAccountId, email: DEMO_USERS.practitioner, password: DEMO_PASSWORD, first_name: practitioner.first_name,
    last_name: practitioner.last_name, role: 'PRACTITIONER', associated_practitioner_ids: [practitioner.id],
  });
  await giveDemoWorkingData(db, businessAccountId);
  await seedPublicHolidays(db, businessAccountId);
  return job.result;
}

const WEEKDAYS_ONLY = (hours: WorkingHours, saturday: WorkingHours | null): (WorkingHours | null)[] => [hours, hours, hours, hours, hours, saturday, null];

/**
 * What a coordinator would have set up before optimising (Rounds keeps it; the PMS has none of it): every practitioner
 * starts and ends at home, a home near the clients they visit when they have none yet (a gazetteer street of the
 * suburb closest to their visits, so inside Brisbane); Monday to Friday 07:00–17:30 (the demo's visits run from 07:30
 * or 08:00 to 17:00), every third one also Saturday morning; one ends the day at a staff car park (a custom location).
 * And the rules of home care a provider would give its types (ADR 0020): domestic assistance may move two hours either
 * side of its booking, and a client's medication checks are at least four hours apart.
 */
async function giveDemoWorkingData(db: Db, businessAccountId: number): Promise<void> {
  const centres = new Map((await db.select({
    id: appointments.practitioner_id, lat: sql<number>`avg(${appointments.lat})::float8`, lng: sql<number>`avg(${appointments.lng})::float8`,
  }).from(appointments)
    .where(and(eq(appointments.business_account_id, businessAccountId), isNotNull(appointments.lat), isNotNull(appointments.lng)))
    .groupBy(appointments.practitioner_id)).map((row) => [row.id, row]));
  const staff = await db.select({ id: practitioners.id, home_lat: practitioners.home_lat }).from(practitioners)
    .where(eq(practitioners.business_account_id, businessAccountId)).orderBy(asc(practitioners.id));
  const [carPark] = await db.insert(customLocations).values({
    business_account_id: businessAccountId, name: 'Staff car park', address: '20 Mayne Road, Bowen Hills QLD 4006', lat: -27.4432, lng: 153.0361,
  }).returning({ id: customLocations.id });
  for (const [index, practitioner] of staff.entries()) {
    let home = {};
    if (practitioner.home_lat === null) {
      const centre = centres.get(practitioner.id) ?? BRISBANE_SUBURBS[index % BRISBANE_SUBURBS.length];
      const suburb = BRISBANE_SUBURBS.reduce((best, candidate) =>
        Math.hypot(candidate.lat - centre.lat, candidate.lng - centre.lng) < Math.hypot(best.lat - centre.lat, best.lng - centre.lng) ? candidate : best);
      const street = suburb.streets[index % suburb.streets.length];
      const number = 3 + ((index * 37) % 150);
      const point = pointOnStreet(street, number);
      home = {
        home_address: `${number} ${street.name}, ${suburb.name} QLD ${suburb.postCode}`,
        home_lat: Math.round(point.lat * 1e6) / 1e6, home_lng: Math.round(point.lng * 1e6) / 1e6,
        // A point on the synthetic street list, said as such (like the generated practitioners' homes below).
        home_geo_precision: 'street' as const, home_geo_source: 'sandbox' as const,
      };
    }
    await db.update(practitioners).set({
      ...home,
      start_place_kind: 'home',
      ...(index === 1 ? { end_place_kind: 'custom_location' as const, end_custom_location_id: carPark.id } : {}),
      working_hours: WEEKDAYS_ONLY({ start: '07:00', end: '17:30' }, index % 3 === 0 ? { start: '08:00', end: '12:00' } : null),
    }).where(eq(practitioners.id, practitioner.id));
  }
  const typeRules = [{ name: 'Domestic assistance', tolerance_minutes: 120 }, { name: 'Medication check', same_type_gap_minutes: 240 }];
  for (const { name, ...rules } of typeRules) {
    await db.update(appointmentTypes).set(rules).where(and(eq(appointmentTypes.business_account_id, businessAccountId), eq(appointmentTypes.name, name)));
  }
}

export async function seedDemo(db: Db, options: { clients?: number; practitioners?: number; days?: number; seed?: number } = {}) {
  const random = new SeededRandom(options.seed ?? 20261121);
  const { business } = await createBusinessAccount(db, {
    name: DEMO_BUSINESS_NAME,
    timeZone: SAMPLE_TIME_ZONE,
    admin: { email: DEMO_USERS.admin, password: DEMO_PASSWORD, first_name: 'Alex', last_name: 'Morgan' },
  });
  const businessAccountId = business.id;
  await db.insert(providerAccounts).values({ business_account_id: businessAccountId, status: 'ACTIVE', connected_at: new Date() });

  const locationRows = await db.insert(businessLocations).values(DEMO_LOCATIONS.map(({ name, suburb }) => {
    const place = BRISBANE_SUBURBS.find((candidate) => candidate.name === suburb) ?? BRISBANE_SUBURBS[0];
    return {
      business_account_id: businessAccountId, name, city: place.name, state: 'QLD', post_code: place.postCode, country: 'Australia',
      lat: place.lat, lng: place.lng, geo_precision: 'suburb' as const, geo_source: 'sandbox' as const,
    };
  })).returning({ id: businessLocations.id });

  const typeRows = await db.insert(appointmentTypes).values(APPOINTMENT_TYPES.map(({ name, duration, color }) => ({ business_account_id: businessAccountId, name, duration, color })))
    .returning({ id: appointmentTypes.id });

  const generatedPractitioners = generatePractitioners(random, options.practitioners ?? 12);
  const practitionerRows = await db.insert(practitioners).values(generatedPractitioners.map((p) => ({
    business_account_id: businessAccountId, first_name: p.first_name, last_name: p.last_name, profession: p.profession,
    active: p.active, email: p.email, time_zone: SAMPLE_TIME_ZONE,
    home_address: `${p.home.address_1}, ${p.home.city} QLD ${p.home.post_code}`, home_lat: p.home.lat, home_lng: p.home.lng,
    // Generated on the synthetic street list (../geo/brisbane-gazetteer.ts), like the clients below.
    home_geo_precision: 'street' as const, home_geo_source: 'sandbox' as const,
  }))).returning({ id: practitioners.id });

  const generatedClients = generateClients(random, options.clients ?? 300);
  const clientIds: number[] = [];
  for (let start = 0; start < generatedClients.length; start += 1000) {
    const rows = await db.insert(clients).values(generatedClients.slice(start, start + 1000).map((c) => ({
      business_account_id: businessAccountId, first_name: c.first_name, last_name: c.last_name, dob: c.dob, email: c.email,
      phone_numbers: [{ number: c.phone, phone_type: 'Mobile' }], time_zone: SAMPLE_TIME_ZONE, availability: c.availability,
      ...(c.address ? { ...c.address, geo_precision: 'street' as const, geo_source: 'sandbox' as const } : {}),
    }))).returning({ id: clients.id });
    clientIds.push(...rows.map((row) => row.id));
  }

  const today = Temporal.Now.plainDateISO(SAMPLE_TIME_ZONE);
  const generatedAppointments = generateAppointments(random, {
    practitioners: generatedPractitioners, clientCount: clientIds.length, firstDay: today, days: options.days ?? 14,
  });
  for (let start = 0; start < generatedAppointments.length; start += 1000) {
    await db.insert(appointments).values(generatedAppointments.slice(start, start + 1000).map((a) => {
      const client = generatedClients[a.clientIndex];
      return {
        business_account_id: businessAccountId,
        client_id: clientIds[a.clientIndex],
        practitioner_id: practitionerRows[a.practitionerIndex].id,
        appointment_type_id: typeRows[a.typeIndex].id,
        business_location_id: locationRows[a.locationIndex].id,
        starts_at: a.starts_at,
        ends_at: a.ends_at,
        arrive_at: a.starts_at,
        notes: a.notes,
        ...(client.address ?? {}),
      };
    }));
  }

  const firstActive = practitionerRows[generatedPractitioners.findIndex((p) => p.active)];
  await createUser(db, { businessAccountId, email: DEMO_USERS.staff, password: DEMO_PASSWORD, first_name: 'Sam', last_name: 'Taylor', role: 'REGULAR_USER' });
  await createUser(db, {
    businessAccountId, email: DEMO_USERS.practitioner, password: DEMO_PASSWORD,
    first_name: generatedPractitioners[practitionerRows.indexOf(firstActive)].first_name,
    last_name: generatedPractitioners[practitionerRows.indexOf(firstActive)].last_name,
    role: 'PRACTITIONER', associated_practitioner_ids: [firstActive.id],
  });
  await giveDemoWorkingData(db, businessAccountId);
  await seedPublicHolidays(db, businessAccountId);
  const [demo] = await db.select().from(businessAccounts).where(eq(businessAccounts.id, businessAccountId));
  return demo;
}
