// Every operation of the contract, called by every role, without a token, and across tenants.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../server/src/app';
import { pmsWrites } from '../../server/src/db/schema-bookings';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';
import { sampleFor } from './support/samples';

type Operation = { operationId: string; security?: unknown[]; 'x-roles'?: string[]; requestBody?: { content: Record<string, { schema: any }> } };
const contract = loadContract() as unknown as { paths: Record<string, Record<string, Operation>>; components: Record<string, Record<string, any>> };
const resolve = (ref: string) => ref.replace('#/components/', '').split('/').reduce((node: any, key) => node[key], contract.components);
const operations = Object.entries(contract.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, operation]) => ({ path, method: method.toUpperCase(), operation })));
const isPublic = (operation: Operation) => Array.isArray(operation.security) && operation.security.length === 0;

/** Which fixture ids a path's {id} refers to; a new resource family must be added here. */
function idsFor(path: string, business: BusinessFixture): number[] | null {
  const family = path.split('/')[1];
  const table: Record<string, number[]> = {
    clients: business.clientIds,
    appointments: business.appointmentIds,
    tags: business.tagIds,
    appointment_types: business.appointmentTypeIds,
    practitioners: business.practitionerIds,
    business_locations: business.businessLocationIds,
    custom_locations: business.customLocationIds,
    imports: business.importIds,
    exports: business.exportIds,
    optimizations: business.optimizationIds,
    routes: business.routeIds,
    practitioner_leave: business.leaveIds,
    open_visits: business.openVisitIds,
    care_plans: business.carePlanIds,
    care_plan_allocations: business.allocationIds,
    client_absences: business.clientAbsenceIds,
    public_holidays: business.publicHolidayIds,
    users: [business.userIds.staff],
    visits: business.appointmentIds,
    pms_writes: pmsWriteIds.get(business.businessAccountId) ?? [],
  };
  return table[family] ?? null;
}

let t: TestApp;
let acme: BusinessFixture;
let zenith: BusinessFixture;
/** A write to the PMS of each business's first visit (a booking given up: it shows nowhere else). */
const pmsWriteIds = new Map<number, number[]>();

beforeAll(async () => {
  t = await startTestApp();
  acme = await createBusinessFixture(t, 'acme');
  zenith = await createBusinessFixture(t, 'zenith');
  for (const business of [acme, zenith]) {
    const [write] = await t.ctx.db.insert(pmsWrites).values({
      business_account_id: business.businessAccountId, appointment_id: business.appointmentIds[0], kind: 'create', state: 'discarded', reference: `R-test-${business.businessAccountId}`,
    }).returning();
    pmsWriteIds.set(business.businessAccountId, [write.id]);
  }
}, 120_000);
afterAll(() => t.close());

function requestFor(path: string, operation: Operation, id: number) {
  const url = `/api${path.replace('{id}', String(id))}`;
  const schema = operation.requestBody?.content['application/json']?.schema;
  return { url, body: schema ? sampleFor(schema, resolve) : undefined };
}

describe('authentication', () => {
  it.each(operations.filter(({ operation }) => !isPublic(operation)))('$method $path refuses a caller without a token', async ({ method, path, operation }) => {
    const { url, body } = requestFor(path, operation, acme.clientIds[0]);
    const response = await t.request(method, url, { body });
    expect(response.status).toBe(401);
    expect(response.body.message).toBeTruthy();
  });
});

describe('roles', () => {
  const restricted = operations.filter(({ operation }) => operation['x-roles']);
  it.each(restricted)('$method $path refuses roles outside x-roles with 403', async ({ method, path, operation }) => {
    const allowed = operation['x-roles']!;
    for (const role of ['ADMIN', 'REGULAR_USER', 'PRACTITIONER'] as const) {
      if (allowed.includes(role)) continue;
      const token = { ADMIN: acme.tokens.admin, REGULAR_USER: acme.tokens.staff, PRACTITIONER: acme.tokens.practitioner }[role];
      const { url, body } = requestFor(path, operation, (idsFor(path, acme) ?? [1])[0]);
      const response = await t.request(method, url, { token, body });
      expect(response.status, `${role} → ${method} ${url}`).toBe(403);
      expect(response.body.message).toMatch(/role does not allow/);
    }
  });
});

describe('tenancy', () => {
  const withId = operations.filter(({ path, operation }) => path.includes('{id}') && !isPublic(operation));
  it.each(withId)('$method $path answers 404 for another business’s record', async ({ method, path, operation }) => {
    const ids = idsFor(path, acme);
    expect(ids, `add the resource family of ${path} to idsFor() in tests/api/permissions.test.ts`).not.toBeNull();
    const { url, body } = requestFor(path, operation, ids![0]);
    const response = await t.request(method, url, { token: zenith.tokens.admin, body });
    expect(response.status, `${method} ${url}: ${JSON.stringify(response.body)}`).toBe(404);
  });

  const lists = operations.filter(({ method, path, operation }) => method === 'GET' && !path.includes('{') && !isPublic(operation));
  it.each(lists)('GET $path shows nothing of another business', async ({ path }) => {
    for (const token of Object.values(zenith.tokens)) {
      const response = await t.request('GET', `/api${path}`, { token });
      if (response.status === 422) continue; // needs query parameters: covered by the module's own tests
      expect(JSON.stringify(response.body)).not.toMatch(/acme/i);
    }
  });
});

describe('practitioner scope', () => {
  it('lists only the associated practitioners', async () => {
    const response = await t.request('GET', '/api/practitioners/all', { token: acme.tokens.practitioner });
    expect(response.body.practitioners.map((p: { id: number }) => p.id)).toEqual([acme.ownPractitionerId]);
    const staff = await t.request('GET', '/api/practitioners/all', { token: acme.tokens.staff });
    expect(staff.body.practitioners).toHaveLength(3);
  });
});
