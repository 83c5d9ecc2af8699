// A small business with one user of each role, reference data and a few clients and appointments.
import { eq } from 'drizzle-orm';
import { businessLocations, appointmentTypes, clients, customLocations, practitioners, appointments, routes, tags } from '../../../server/src/db/schema';
import { createBusinessAccount, createUser } from '../../../server/src/modules/business-account';
import { jobs } from '../../../server/src/db/schema-jobs';
import { optimizationRuns } from '../../../server/src/db/schema-optimizations';
import { practitionerLeave } from '../../../server/src/db/schema-leave';
import { carePlanAllocations, carePlans, clientAbsences, openVisits, publicHolidays } from '../../../server/src/db/schema-care';
import type { TestApp } from './app';

export const PASSWORD = 'correct horse battery';

export interface BusinessFixture {
  businessAccountId: number;
  tokens: { admin: string; staff: string; practitioner: string };
  emails: { admin: string; staff: string; practitioner: string };
  practitionerIds: number[];
  /** The practitioner the PRACTITIONER user is associated with (practitionerIds[0]). */
  ownPractitionerId: number;
  appointmentTypeIds: number[];
  businessLocationIds: number[];
  /** A depot of this business (no practitioner uses it). */
  customLocationIds: number[];
  clientIds: number[];
  tagIds: number[];
  /** appointmentIds[i] belongs to practitionerIds[i % 2] */
  appointmentIds: number[];
  /** A finished import and export of this business (rows only; no PMS involved). */
  importIds: number[];
  exportIds: number[];
  /** A cancelled optimisation run of this business (a row only). */
  optimizationIds: number[];
  /** An applied route of practitionerIds[0] on Wednesday 2026-11-25 (a row only, no visits on it). */
  routeIds: number[];
  /** A day of leave of the inactive practitioner (practitionerIds[2]), Monday 2031-01-06. */
  leaveIds: number[];
  /** Care (rows only): Cora's care plan (Mon/Wed/Fri 07:30–09:00 from 2031-01-06), one of its open visits, an absence of Dale, a public holiday, a done allocation. */
  carePlanIds: number[];
  openVisitIds: number[];
  clientAbsenceIds: number[];
  publicHolidayIds: number[];
  allocationIds: number[];
  /** The users: admin, staff, practitioner. */
  userIds: { admin: number; staff: number; practitioner: number };
}

export async function createBusinessFixture(testApp: TestApp, label: string): Promise<BusinessFixture> {
  const { db } = testApp.ctx;
  const emails = { admin: `admin@${label}.test`, staff: `staff@${label}.test`, practitioner: `practitioner@${label}.test` };
  const { business, admin } = await createBusinessAccount(db, {
    name: `${label} Care`, admin: { email: emails.admin, password: PASSWORD, first_name: 'Ada', last_name: label },
  });
  const businessAccountId = business.id;
  const practitionerRows = await db.insert(practitioners).values([
    { business_account_id: businessAccountId, first_name: 'Pat', last_name: `${label}-One`, profession: 'Registered Nurse' },
    { business_account_id: businessAccountId, first_name: 'Quinn', last_name: `${label}-Two`, profession: 'Physiotherapist' },
    { business_account_id: businessAccountId, first_name: 'Rory', last_name: `${label}-Inactive`, active: false },
  ]).returning();
  const typeRows = await db.insert(appointmentTypes).values([
    { business_account_id: businessAccountId, name: 'Nursing visit', duration: 45, color: '#dc2626' },
    { business_account_id: businessAccountId, name: 'Physiotherapy', duration: 60 },
  ]).returning();
  // Their qualifications as an import reads them from Cliniko: Pat and Quinn each deliver both types (tests narrow
  // them in Rounds); Rory's were never read (unknown).
  const bothTypes = typeRows.map((row) => row.id).sort((a, b) => a - b);
  for (const row of practitionerRows.slice(0, 2)) {
    await db.update(practitioners).set({ pms_appointment_type_ids: bothTypes }).where(eq(practitioners.id, row.id));
    row.pms_appointment_type_ids = bothTypes;
  }
  const locationRows = await db.insert(businessLocations).values([
    { business_account_id: businessAccountId, name: `${label} office`, city: 'Brisbane City', lat: -27.4698, lng: 153.0251, geo_precision: 'suburb', geo_source: 'gazetteer' },
  ]).returning();
  const customLocationRows = await db.insert(customLocations).values([
    { business_account_id: businessAccountId, name: `${label} depot`, address: '1 Depot Lane, Bowen Hills QLD 4006', lat: -27.4445, lng: 153.0375 },
  ]).returning();
  const clientRows = await db.insert(clients).values([
    { business_account_id: businessAccountId, first_name: 'Cora', last_name: `${label}-Client`, address_1: '12 Merthyr Road', city: 'New Farm', state: 'QLD', post_code: '4005', lat: -27.467, lng: 153.047, geo_precision: 'address', geo_source: 'pms', time_zone: 'Australia/Brisbane', availability: [{ dow: 1, hours: ['09:00-12:00'] }] },
    { business_account_id: businessAccountId, first_name: 'Dale', last_name: `${label}-Client`, time_zone: 'Australia/Brisbane' },
  ]).returning();
  const tagRows = await db.insert(tags).values([{ business_account_id: businessAccountId, name: 'High needs', color: '#ef4444' }]).returning();
  const start = new Date('2026-11-23T23:00:00Z'); // Tuesday 09:00 in Brisbane
  const appointmentRows = await db.insert(appointments).values([0, 1, 2, 3].map((index) => ({
    business_account_id: businessAccountId,
    client_id: clientRows[index % 2].id,
    practitioner_id: practitionerRows[index % 2].id,
    appointment_type_id: typeRows[0].id,
    business_location_id: locationRows[0].id,
    starts_at: new Date(start.getTime() + index * 3600_000),
    ends_at: new Date(start.getTime() + index * 3600_000 + 45 * 60_000),
    arrive_at: new Date(start.getTime() + index * 3600_000),
    address_1: '12 Merthyr Road', city: 'New Farm', lat: -27.467, lng: 153.047,
  }))).returning();
  const noFilters = { practitioner_ids: [], appointment_type_ids: [], business_location_ids: [] };
  const jobRows = await db.insert(jobs).values((['IMPORT', 'EXPORT'] as const).map((kind) => ({
    business_account_id: businessAccountId, kind, status: 'COMPLETE' as const, start_date: '2026-11-24', end_date: '2026-11-24',
    filters: noFilters, created_by_name: `Ada ${label}`, finished_at: new Date(),
    result: kind === 'IMPORT' ? { appointments_created: 0, appointments_updated: 0, appointments_cancelled: 0 } : null,
  }))).returning();
  const [optimizationRow] = await db.insert(jobs).values({
    business_account_id: businessAccountId, kind: 'OPTIMIZE', status: 'CANCELLED', filters: noFilters, created_by_name: `Ada ${label}`, finished_at: new Date(),
  }).returning();
  await db.insert(optimizationRuns).values({
    job_id: optimizationRow.id, business_account_id: businessAccountId, first_date: '2026-11-24', last_date: '2026-11-24',
    mode: 'keep_practitioners', practitioner_ids: [practitionerRows[0].id],
  });
  const [routeRow] = await db.insert(routes).values({
    business_account_id: businessAccountId, practitioner_id: practitionerRows[0].id, day: '2026-11-25', stops: [],
    metrics: { travel_seconds: 0, travel_metres: 0, idle_seconds: 0, overtime_seconds: 0, late_visits: 0 }, applied_by_name: `Ada ${label}`,
  }).returning();
  const [leaveRow] = await db.insert(practitionerLeave).values({
    business_account_id: businessAccountId, practitioner_id: practitionerRows[2].id, starts_at: new Date('2031-01-05T14:00:00Z'),
    ends_at: new Date('2031-01-06T14:00:00Z'), reason: 'Annual leave', created_by_name: `Ada ${label}`,
  }).returning();
  const [planRow] = await db.insert(carePlans).values({
    business_account_id: businessAccountId, client_id: clientRows[0].id, appointment_type_id: typeRows[0].id, weekdays: [1, 3, 5],
    window_start: 450, window_end: 540, duration_minutes: 45, starts_on: '2031-01-06',
  }).returning();
  const [openVisitRow] = await db.insert(openVisits).values({
    business_account_id: businessAccountId, client_id: clientRows[0].id, appointment_type_id: typeRows[0].id, care_plan_id: planRow.id,
    date: '2031-01-06', window_start: 450, window_end: 540, duration_minutes: 45, reason: `New in Cora ${label}-Client's care plan`,
  }).returning();
  const [absenceRow] = await db.insert(clientAbsences).values({
    business_account_id: businessAccountId, client_id: clientRows[1].id, starts_on: '2031-02-01', ends_on: '2031-02-03', reason: 'away',
  }).returning();
  const [holidayRow] = await db.insert(publicHolidays).values({ business_account_id: businessAccountId, date: '2031-01-01', name: 'New Year’s Day' }).returning();
  const [allocationRow] = await db.insert(carePlanAllocations).values({
    business_account_id: businessAccountId, status: 'DONE', start_date: '2031-01-06', end_date: '2031-01-12',
    result: { visits: [], figures: { visits: 0, placed: 0, unplaced: 0, added_travel_seconds: 0, hard_breaks: 0, carers_by_client: [] } },
  }).returning();
  const staff = await createUser(db, { businessAccountId, email: emails.staff, password: PASSWORD, first_name: 'Sid', role: 'REGULAR_USER' });
  const practitionerUser = await createUser(db, {
    businessAccountId, email: emails.practitioner, password: PASSWORD, first_name: 'Pat', role: 'PRACTITIONER',
    associated_practitioner_ids: [practitionerRows[0].id],
  });
  const login = async (email: string) => {
    const response = await testApp.request('POST', '/api/auth/login', { body: { email, password: PASSWORD } });
    if (response.status !== 200) throw new Error(`fixture login failed for ${email}: ${JSON.stringify(response.body)}`);
    return response.body.token as string;
  };
  return {
    businessAccountId,
    emails,
    tokens: { admin: await login(emails.admin), staff: await login(emails.staff), practitioner: await login(emails.practitioner) },
    practitionerIds: practitionerRows.map((row) => row.id),
    ownPractitionerId: practitionerRows[0].id,
    appointmentTypeIds: typeRows.map((row) => row.id),
    businessLocationIds: locationRows.map((row) => row.id),
    customLocationIds: customLocationRows.map((row) => row.id),
    clientIds: clientRows.map((row) => row.id),
    tagIds: tagRows.map((row) => row.id),
    appointmentIds: appointmentRows.map((row) => row.id),
    importIds: [jobRows[0].id],
    exportIds: [jobRows[1].id],
    optimizationIds: [optimizationRow.id],
    routeIds: [routeRow.id],
    leaveIds: [leaveRow.id],
    carePlanIds: [planRow.id],
    openVisitIds: [openVisitRow.id],
    clientAbsenceIds: [absenceRow.id],
    publicHolidayIds: [holidayRow.id],
    allocationIds: [allocationRow.id],
    userIds: { admin: admin.id, staff: staff.id, practitioner: practitionerUser.id },
  };
}
