// Contract fuzzer: every operation of openapi/openapi.yaml, called over real HTTP with generated valid requests and
// mutated invalid ones, as each role and with no token. Each answer must be one the contract allows (never a 5xx it
// does not list), a 4xx must say why in `message`, and nothing of the other business may appear in an answer or
// change in the database. `npm run fuzz -- --seed N --count M` runs it long; tests/api/fuzz.test.ts runs it short.
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { inArray, sql } from 'drizzle-orm';
import { parse as parseYaml } from 'yaml';
import { contractPath } from '../../server/src/app';
import { appointmentTypes, clients, practitioners, providerAccounts, tags } from '../../server/src/db/schema';
import { startTestApp, type TestApp } from '../api/support/app';
import { assertMatchesContract } from '../api/support/contract';
import { createBusinessFixture, PASSWORD, type BusinessFixture } from '../api/support/fixtures';
import { caseRandom, nastyValue, placesIn, poolFor, SchemaGenerator, setAt, swapIds, type IdPools, type Schema } from './generate';

export const ROLES = ['ADMIN', 'REGULAR_USER', 'PRACTITIONER', 'NONE'] as const;
export type FuzzRole = typeof ROLES[number];

/** The other business's name appears in its rows; an answer that contains it has leaked. */
const OTHER_LABEL = 'othercorp';

/** Calls that can end or change the sessions the fuzzer uses: after one succeeds, the users are put back. */
const SESSION_CHANGING = new Set([
  'logout', 'updateCurrentUser', 'updateBusinessUser', 'deactivateUser', 'reactivateUser', 'confirmPasswordReset',
  'acceptInvitation', 'exchangeLoginAs',
]);

interface Operation {
  operationId: string; method: string; path: string; security?: unknown[]; 'x-roles'?: string[];
  parameters?: Schema[]; requestBody?: { required?: boolean; content: Record<string, { schema: Schema }> };
  responses: Record<string, unknown>;
}

export interface FuzzRequest {
  seed: number; index: number; operationId: string; role: FuzzRole; mutation: string;
  method: string; url: string; headers: Record<string, string>; body?: string;
}

export interface FuzzFailure { request: FuzzRequest; status: number; response: string; problem: string }

export interface FuzzResult {
  sent: number; failures: FuzzFailure[]; statuses: Record<string, number>; seconds: number;
  /** Times the fuzzer's own users were put back after a call that changed or ended their sessions. */
  sessionRestores: number;
  /** Operations that never answered 2xx in the run (their valid requests never got through). */
  neverSucceeded: string[];
}

export function loadOperations(): { contract: Schema; operations: Operation[] } {
  const contract = parseYaml(readFileSync(contractPath, 'utf8')) as Schema;
  const operations = Object.entries<Record<string, Operation>>(contract.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ ...operation, method: method.toUpperCase(), path })));
  return { contract, operations };
}

export interface FuzzWorld {
  baseUrl: string;
  testApp: TestApp;
  own: BusinessFixture;
  other: BusinessFixture;
  ownPools: IdPools;
  otherPools: IdPools;
  tokens: Record<FuzzRole, string | undefined>;
  /** The fuzzer's own users' emails (their password is the fixture's). */
  emails: string[];
  /** Puts the fuzzer's own three users back as they were and logs in again where a session ended. */
  restoreSessions(): Promise<void>;
  /** Every row of the other business, table by table. */
  snapshotOther(): Promise<Record<string, string>>;
  /** The tokens of every link emailed to the fuzzer's own business or users so far. */
  emailedTokens(): Promise<string[]>;
  /** Rows of one business that point at a row of another (a `*_id`/`*_ids` column whose row has another tenant). */
  crossTenantReferences(): Promise<string[]>;
  close(): Promise<void>;
}

function pools(fixture: BusinessFixture): IdPools {
  return {
    users: Object.values(fixture.userIds), practitioners: fixture.practitionerIds, appointment_types: fixture.appointmentTypeIds,
    business_locations: fixture.businessLocationIds, custom_locations: fixture.customLocationIds, clients: fixture.clientIds,
    tags: fixture.tagIds, appointments: fixture.appointmentIds, imports: fixture.importIds, exports: fixture.exportIds,
    optimizations: fixture.optimizationIds, routes: fixture.routeIds,
  };
}

/**
 * What the fixture leaves out but many calls need before they can succeed: a connected PMS (imports, exports),
 * practitioners with working hours and a start place (optimisation, insertion), clients with an email.
 */
async function equipForEveryCall(testApp: TestApp, fixture: BusinessFixture, label: string): Promise<void> {
  const { db } = testApp.ctx;
  await db.insert(providerAccounts).values({ business_account_id: fixture.businessAccountId, status: 'ACTIVE', connected_at: new Date() });
  const day = { start: '07:00', end: '19:00' };
  await db.update(practitioners).set({
    start_place_kind: 'business_location', start_business_location_id: fixture.businessLocationIds[0],
    working_hours: [day, day, day, day, day, day, day], email: 'nurse@example.test',
  }).where(inArray(practitioners.id, fixture.practitionerIds));
  await db.update(clients).set({ email: 'client@example.test' }).where(inArray(clients.id, fixture.clientIds));
  if (label === OTHER_LABEL) {
    // Every kind of row of the other business carries its name, so an answer that shows one is caught.
    await db.update(tags).set({ name: `High needs ${label}` }).where(inArray(tags.id, fixture.tagIds));
    await db.update(appointmentTypes).set({ name: sql`name || ${` ${label}`}` }).where(inArray(appointmentTypes.id, fixture.appointmentTypeIds));
    await db.update(clients).set({ email: `client@${label}.test` }).where(inArray(clients.id, fixture.clientIds));
    await db.update(practitioners).set({ email: `nurse@${label}.test` }).where(inArray(practitioners.id, fixture.practitionerIds));
  }
}

/** The real app on a fresh database, listening on a free port, with two businesses. */
export async function startFuzzWorld(): Promise<FuzzWorld> {
  // The PMS is a closed port: connecting answers the contract's 502 at once instead of calling the internet.
  const testApp = await startTestApp({ requestsPerMinute: 1_000_000, clinikoBaseUrl: 'http://127.0.0.1:9' });
  const own = await createBusinessFixture(testApp, 'fuzzhome');
  const other = await createBusinessFixture(testApp, OTHER_LABEL);
  await equipForEveryCall(testApp, own, 'fuzzhome');
  await equipForEveryCall(testApp, other, OTHER_LABEL);
  await testApp.app.listen({ port: 0, host: '127.0.0.1' });
  const baseUrl = `http://127.0.0.1:${(testApp.app.server.address() as AddressInfo).port}`;
  const { db } = testApp.ctx;
  const rows = async (query: string) => ((await db.execute(sql.raw(query))) as unknown as { rows: Record<string, unknown>[] }).rows;
  const ownUserIds = Object.values(own.userIds);
  const originalUsers = await rows(`SELECT * FROM users WHERE id IN (${ownUserIds.join(',')})`);
  const tokens: Record<FuzzRole, string | undefined> = {
    ADMIN: own.tokens.admin, REGULAR_USER: own.tokens.staff, PRACTITIONER: own.tokens.practitioner, NONE: undefined,
  };
  const emails: Record<string, string> = { ADMIN: own.emails.admin, REGULAR_USER: own.emails.staff, PRACTITIONER: own.emails.practitioner };

  return {
    baseUrl, testApp, own, other, ownPools: pools(own), otherPools: pools(other), tokens, emails: Object.values(own.emails),
    async restoreSessions() {
      for (const user of originalUsers) {
        await db.execute(sql`UPDATE users SET email = ${user.email as string}, password_hash = ${user.password_hash as string},
          role = ${user.role as string}, active = true, first_name = ${user.first_name as string},
          associated_practitioner_ids = ${`{${(user.associated_practitioner_ids as number[]).join(',')}}`}::int[]
          WHERE id = ${user.id as number}`);
      }
      await db.execute(sql`DELETE FROM login_throttles`);
      for (const role of ['ADMIN', 'REGULAR_USER', 'PRACTITIONER'] as const) {
        const check = await fetch(`${baseUrl}/api/auth/user`, { headers: { authorization: `Bearer ${tokens[role]}` } });
        if (check.status === 200) continue;
        const login = await fetch(`${baseUrl}/api/auth/login`, {
          method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: emails[role], password: PASSWORD }),
        });
        if (login.status !== 200) throw new Error(`the fuzzer could not log ${role} in again: ${login.status} ${await login.text()}`);
        tokens[role] = ((await login.json()) as { token: string }).token;
      }
    },
    async snapshotOther() {
      const id = other.businessAccountId;
      const tables = (await rows(`SELECT DISTINCT table_name FROM information_schema.columns
        WHERE table_schema = 'public' AND column_name = 'business_account_id' ORDER BY table_name`)).map((row) => row.table_name as string);
      const snapshot: Record<string, string> = {};
      for (const table of tables) snapshot[table] = JSON.stringify(await rows(`SELECT * FROM "${table}" WHERE business_account_id = ${id} ORDER BY 1`));
      snapshot.business_accounts = JSON.stringify(await rows(`SELECT * FROM business_accounts WHERE id = ${id}`));
      const userIds = Object.values(other.userIds).join(',');
      snapshot.sessions = JSON.stringify(await rows(`SELECT * FROM sessions WHERE user_id IN (${userIds}) ORDER BY id`));
      snapshot.one_time_tokens = JSON.stringify(await rows(`SELECT * FROM one_time_tokens WHERE user_id IN (${userIds}) ORDER BY id`));
      return snapshot;
    },
    async emailedTokens() {
      const addresses = Object.values(own.emails).map((email) => `'${email}'`).join(',');
      const emails = await rows(`SELECT text_body FROM outbox_emails
        WHERE business_account_id = ${own.businessAccountId} OR to_address IN (${addresses}) ORDER BY id`);
      return [...new Set(emails.flatMap((email) => [...(email.text_body as string).matchAll(/[?&]token=([^\s&"<>]+)/g)].map((match) => decodeURIComponent(match[1]))))];
    },
    async crossTenantReferences() {
      const columns = await rows(`SELECT c.table_name, c.column_name, c.data_type FROM information_schema.columns c
        WHERE c.table_schema = 'public' AND (c.column_name LIKE '%\\_id' OR c.column_name LIKE '%\\_ids') AND c.column_name <> 'business_account_id'
          -- our own rows' ids (not an outside system's, such as stripe_subscription_id)
          AND c.data_type IN ('integer', 'bigint', 'ARRAY')
          AND c.table_name IN (SELECT table_name FROM information_schema.columns WHERE table_schema = 'public' AND column_name = 'business_account_id')`);
      const tenantTables = new Set((await rows(`SELECT table_name FROM information_schema.columns
        WHERE table_schema = 'public' AND column_name = 'business_account_id'`)).map((row) => row.table_name as string));
      const found: string[] = [];
      for (const column of columns) {
        const words = (column.column_name as string).replace(/_ids?$/, '').split('_');
        // start_business_location_id → business_locations; associated_practitioner_ids → practitioners
        const target = words.map((_, index) => `${words.slice(index).join('_')}s`).find((name) => tenantTables.has(name));
        if (!target) continue;
        const join = column.data_type === 'ARRAY' ? `x.id = ANY(t."${column.column_name}")` : `x.id = t."${column.column_name}"`;
        const [{ count }] = await rows(`SELECT count(*)::int AS count FROM "${column.table_name}" t JOIN "${target}" x ON ${join}
          WHERE x.business_account_id <> t.business_account_id`);
        if (Number(count) > 0) found.push(`${column.table_name}.${column.column_name} → ${target}: ${count} rows point at another business's row`);
      }
      return found;
    },
    close: () => testApp.close(),
  };
}

const BAD_PATH_IDS = ['0', '-1', '2147483648', '99999999999999999999', 'abc', '1.5', '1e3', '0x10', '%F0%9F%92%A5', '1%00', '%20', 'null', '[]'];
const BAD_CONTENT_TYPES = ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', 'application/json; charset=latin1', 'application/jsonx', ''];
const MALFORMED_JSON = ['{', '[1,', '{"a":}', 'nul', '{"a":1}}', "{'a':1}", '\u0000', '{"a":"\\ud800"}', '"unterminated', '{"__proto__":{"polluted":1}}', '1'.repeat(5000)];

/** A valid range has both ends (when the call takes both) and starts before it ends. */
function orderPairs(query: [string, string][], parameterNames: string[]): void {
  for (const [name, partner] of [['start_date', 'end_date'], ['end_date', 'start_date']]) {
    const given = query.find(([key]) => key === name);
    if (given && parameterNames.includes(partner) && !query.some(([key]) => key === partner)) query.push([partner, given[1]]);
  }
  const start = query.find(([key]) => key === 'start_date');
  const end = query.find(([key]) => key === 'end_date');
  if (start && end && start[1] > end[1]) [start[1], end[1]] = [end[1], start[1]];
}

/** Builds case `index` of run `seed`: a valid request, or one with a single thing wrong. */
export function buildCase(seed: number, index: number, count: number, operations: Operation[], generator: SchemaGenerator, world: Pick<FuzzWorld, 'ownPools' | 'otherPools' | 'tokens' | 'emails'>): FuzzRequest {
  const random = caseRandom(seed, index);
  const operation = random.pick(operations);
  const role = random.pick(ROLES);
  let mutate = random.chance(0.65);
  // Deleting the few fixture rows early would leave most later requests with nothing to find: deletes run last, and
  // before that only with a mutation that cannot delete a row of the business (an extra query parameter could).
  const deleteEarly = operation.method === 'DELETE' && index < count * 0.8;
  if (deleteEarly) mutate = true;

  const pathParams: Record<string, string> = {};
  const query: [string, string][] = [];
  for (const parameterRef of operation.parameters ?? []) {
    const parameter = generator.resolve(parameterRef);
    const value = generator.valid(parameter.schema, random, parameter.name, operation.path);
    if (parameter.in === 'path') pathParams[parameter.name] = String(value);
    else if (parameter.in === 'query' && (parameter.required || random.chance(0.5))) {
      if (Array.isArray(value)) for (const item of value) query.push([parameter.name, String(item)]);
      else query.push([parameter.name, String(value)]);
    }
  }
  orderPairs(query, (operation.parameters ?? []).map((parameter) => generator.resolve(parameter).name as string));
  const bodySchema = operation.requestBody?.content['application/json']?.schema;
  let body: unknown = bodySchema && (operation.requestBody?.required || random.chance(0.8)) ? generator.valid(bodySchema, random, '', operation.path) : undefined;
  // Random credentials never log in: half the valid logins use a real user's.
  if (operation.operationId === 'login' && !mutate && random.chance(0.5)) body = { email: random.pick(world.emails), password: PASSWORD };
  const headers: Record<string, string> = {};
  let rawBody: string | undefined;
  let contentType: string | undefined = body === undefined ? undefined : 'application/json';
  let token = world.tokens[role];
  let mutation = 'valid';

  if (mutate) {
    const kinds: [string, number][] = [
      ['body-value', body !== undefined ? 6 : 0], ['body-missing-field', body !== undefined ? 2 : 0], ['body-extra-field', body !== undefined ? 2 : 0],
      ['body-not-object', body !== undefined ? 1 : 0], ['no-body', operation.requestBody ? 1 : 0], ['other-business-ids', 4],
      ['path-id', Object.keys(pathParams).length ? 3 : 0], ['query-value', 3], ['query-extra', 1], ['query-repeated', query.length ? 1 : 0],
      ['malformed-json', ['POST', 'PUT', 'PATCH'].includes(operation.method) ? 2 : 0], ['content-type', ['POST', 'PUT', 'PATCH'].includes(operation.method) ? 2 : 0],
      ['bad-token', 1],
    ];
    const cannotDelete = Object.keys(pathParams).length ? ['other-business-ids', 'path-id', 'bad-token'] : ['bad-token'];
    if (deleteEarly) for (const entry of kinds) if (!cannotDelete.includes(entry[0])) entry[1] = 0;
    const total = kinds.reduce((sum, [, weight]) => sum + weight, 0);
    let roll = random.next() * total;
    const kind = kinds.find(([, weight]) => (roll -= weight) < 0)![0];
    mutation = kind;
    switch (kind) {
      case 'body-value': {
        const place = random.pick(placesIn(body));
        body = setAt(body, place, nastyValue(random));
        mutation = `body-value at ${place.join('.') || '(root)'}`;
        break;
      }
      case 'body-missing-field': {
        const places = placesIn(body).filter((place) => place.length > 0);
        if (places.length) {
          const place = random.pick(places);
          body = setAt(body, place, undefined, true);
          mutation = `body-missing ${place.join('.')}`;
        }
        break;
      }
      case 'body-extra-field': {
        const objects = placesIn(body).filter((place) => { const node = place.reduce((value: any, key) => value?.[key], body); return node && typeof node === 'object' && !Array.isArray(node); });
        const place = objects.length ? random.pick(objects) : [];
        body = setAt(body, [...place, random.pick(['extra', 'business_account_id', 'id', 'role', '__proto__', 'constructor'])], nastyValue(random));
        mutation = `body-extra in ${place.join('.') || '(root)'}`;
        break;
      }
      case 'body-not-object': body = random.pick([[], [body], null, 'text', 42, true]); break;
      case 'no-body': body = undefined; contentType = random.chance(0.5) ? 'application/json' : undefined; break;
      case 'other-business-ids': {
        for (const key of Object.keys(pathParams)) pathParams[key] = String(swapIds(Number(pathParams[key]), world.ownPools, world.otherPools, key, operation.path));
        for (const entry of query) entry[1] = String(swapIds(Number(entry[1]), world.ownPools, world.otherPools, entry[0], operation.path));
        body = swapIds(body, world.ownPools, world.otherPools, '', operation.path);
        break;
      }
      case 'path-id': {
        const key = random.pick(Object.keys(pathParams));
        pathParams[key] = random.pick(BAD_PATH_IDS);
        break;
      }
      case 'query-value': {
        const parameters = (operation.parameters ?? []).map((parameter) => generator.resolve(parameter)).filter((parameter) => parameter.in === 'query');
        if (parameters.length) {
          const name = random.pick(parameters).name as string;
          const nasty = nastyValue(random);
          const value = typeof nasty === 'string' ? nasty : JSON.stringify(nasty) ?? '';
          const existing = query.findIndex(([key]) => key === name);
          if (existing >= 0) query[existing][1] = value; else query.push([name, value]);
          mutation = `query-value ${name}`;
        } else query.push(['unexpected', String(nastyValue(random))]);
        break;
      }
      case 'query-extra': query.push([random.pick(['business_account_id', 'extra', 'page[size]', '__proto__']), String(random.int(-5, 100000))]); break;
      case 'query-repeated': { const [key, value] = random.pick(query); query.push([key, value]); break; }
      case 'malformed-json': rawBody = random.pick(MALFORMED_JSON); contentType = 'application/json'; body = undefined; break;
      case 'content-type': {
        contentType = random.pick(BAD_CONTENT_TYPES);
        rawBody = contentType.startsWith('application/json') ? JSON.stringify(body ?? {}) : random.pick(['a=1&b=2', '<x/>', 'hello', JSON.stringify(body ?? {})]);
        body = undefined;
        mutation = `content-type ${contentType || '(empty)'}`;
        break;
      }
      case 'bad-token': token = random.pick(['garbage', `${world.tokens.ADMIN ?? ''}x`, '', 'null', 'x'.repeat(5000)]); headers.authorization = random.pick(['Bearer ', 'Basic ', 'bearer ', '']) + token; token = undefined; break;
    }
  }

  let url = `/api${operation.path.replace(/\{(\w+)\}/g, (_, name: string) => pathParams[name] ?? '1')}`;
  if (query.length) url += `?${query.map(([key, value]) => `${encodeQuery(key)}=${encodeQuery(value)}`).join('&')}`;
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) rawBody = JSON.stringify(body);
  if (contentType !== undefined && rawBody !== undefined) headers['content-type'] = contentType;
  else if (contentType !== undefined && mutation === 'no-body') headers['content-type'] = contentType;
  return { seed, index, operationId: operation.operationId, role, mutation, method: operation.method, url, headers, body: rawBody };
}

/** Percent-encodes, sending a lone surrogate as the invalid UTF-8 it would be (a client bug the server must survive). */
function encodeQuery(value: string): string {
  return [...value].map((character) => {
    try { return encodeURIComponent(character); } catch { return '%ED%A0%80'; }
  }).join('');
}

/** What a failing request looks like, short enough to read and exact enough to send again. */
export function describeRequest(request: FuzzRequest): string {
  const body = request.body === undefined ? '(none)'
    : request.body.length <= 2000 ? request.body
      : `${request.body.slice(0, 300)}… (${request.body.length} characters; replay the case to get all of it)`;
  return [
    `${request.method} ${request.url.length > 2000 ? `${request.url.slice(0, 2000)}…` : request.url}`,
    `  headers: ${JSON.stringify({ ...request.headers, ...(request.headers.authorization ? { authorization: `${request.headers.authorization.slice(0, 16)}… (${request.role})` } : {}) })}`,
    `  body: ${body}`,
    `  operation ${request.operationId}, role ${request.role}, mutation ${request.mutation}`,
    `  replay: npm run fuzz -- --seed ${request.seed} --case ${request.index}`,
  ].join('\n');
}

export function describeFailure(failure: FuzzFailure): string {
  return `✗ ${failure.problem}\n  → ${failure.status} ${failure.response.slice(0, 600)}\n  ${describeRequest(failure.request)}`;
}

/** Sends one request and says what is wrong with its answer (null when nothing is). */
export async function sendAndCheck(baseUrl: string, request: FuzzRequest): Promise<{ status: number; text: string; problem: string | null }> {
  let response: Response;
  try {
    response = await fetch(`${baseUrl}${request.url}`, { method: request.method, headers: request.headers, body: request.body, redirect: 'manual' });
  } catch (error) {
    return { status: 0, text: '', problem: `the server did not answer: ${(error as Error).message}` };
  }
  const text = await response.text();
  let body: unknown = text;
  try { body = text ? JSON.parse(text) : undefined; } catch { /* not JSON: the contract check says so */ }
  const status = response.status;
  const problem = (() => {
    if (text.toLowerCase().includes(OTHER_LABEL)) return `the answer contains the other business's data ("${OTHER_LABEL}")`;
    // Node's HTTP parser refuses an oversized request line before any route sees it: a protocol answer, not the API's.
    if (status === 431) return (body as { message?: unknown } | undefined)?.message ? null : 'a 431 without a message';
    try {
      assertMatchesContract(request.method, request.url, status, body);
    } catch (error) {
      return `contract: ${(error as Error).message.split('\n')[0].replace(/^(\S+) (\S+)/, (_, method: string, url: string) => `${method} ${url.length > 120 ? `${url.slice(0, 120)}…` : url}`).slice(0, 400)}`;
    }
    if (status >= 500 && status !== 502) return `a ${status}`;
    if (status >= 400) {
      const message = (body as { message?: unknown } | undefined)?.message;
      if (typeof message !== 'string' || message.trim().length < 3) return `a ${status} without a clear message`;
    }
    return null;
  })();
  return { status, text, problem };
}

/** A created row (`{ "tag": { "id": 9, … } }`) joins its pool, so later cases can read, change and cancel it. */
function rememberCreated(text: string, ownPools: IdPools): void {
  try {
    for (const [key, value] of Object.entries(JSON.parse(text) as Record<string, unknown>)) {
      const pool = poolFor(`${key}_id`);
      const id = (value as { id?: unknown } | null)?.id;
      if (pool && typeof id === 'number' && !ownPools[pool].includes(id)) ownPools[pool].push(id);
    }
  } catch { /* not JSON: nothing to remember */ }
}

export interface RunOptions { seed: number; count: number; onlyCase?: number; onProgress?: (sent: number) => void }

export async function runFuzz(world: FuzzWorld, options: RunOptions): Promise<FuzzResult> {
  const started = Date.now();
  const { contract, operations } = loadOperations();
  const generator = new SchemaGenerator(contract, world.ownPools, world.emails);
  const failures: FuzzFailure[] = [];
  const statuses: Record<string, number> = {};
  const succeeded = new Set<string>();
  const before = await world.snapshotOther();
  let sent = 0;
  let sessionRestores = 0;
  const indexes = options.onlyCase !== undefined ? [options.onlyCase] : Array.from({ length: options.count }, (_, index) => index);
  for (const index of indexes) {
    // Public calls take an emailed link's token: some requests use a real one (so a replayed case may differ here).
    if (index % 100 === 0) generator.linkTokens = await world.emailedTokens();
    const request = buildCase(options.seed, index, options.count, operations, generator, world);
    const { status, text, problem } = await sendAndCheck(world.baseUrl, request);
    sent += 1;
    statuses[status] = (statuses[status] ?? 0) + 1;
    if (status >= 200 && status < 300) succeeded.add(request.operationId);
    if (status === 201) rememberCreated(text, world.ownPools);
    if (problem) failures.push({ request, status, response: text, problem });
    const sessionLost = status === 401 && request.role !== 'NONE' && request.mutation !== 'bad-token';
    if ((SESSION_CHANGING.has(request.operationId) && status < 300) || sessionLost) {
      await world.restoreSessions();
      sessionRestores += 1;
    }
    if (sent % 250 === 0) options.onProgress?.(sent);
  }
  const after = await world.snapshotOther();
  const changed = Object.keys({ ...before, ...after }).filter((table) => before[table] !== after[table]);
  for (const table of changed) {
    failures.push({
      request: { seed: options.seed, index: -1, operationId: '(whole run)', role: 'NONE', mutation: '', method: '', url: '', headers: {} },
      status: 0, response: `before: ${before[table]?.slice(0, 400)}\n  after:  ${after[table]?.slice(0, 400)}`,
      problem: `the other business's ${table} rows changed during the run`,
    });
  }
  for (const reference of await world.crossTenantReferences()) {
    failures.push({
      request: { seed: options.seed, index: -1, operationId: '(whole run)', role: 'NONE', mutation: '', method: '', url: '', headers: {} },
      status: 0, response: '', problem: `a business's row refers to another business's: ${reference}`,
    });
  }
  const health = await fetch(`${world.baseUrl}/healthz`).then((response) => response.status).catch(() => 0);
  if (health !== 200) {
    failures.push({
      request: { seed: options.seed, index: -1, operationId: '(whole run)', role: 'NONE', mutation: '', method: 'GET', url: '/healthz', headers: {} },
      status: health, response: '', problem: 'the server is not healthy after the run',
    });
  }
  const neverSucceeded = operations.map((operation) => operation.operationId).filter((id) => !succeeded.has(id));
  return { sent, failures, statuses, seconds: (Date.now() - started) / 1000, neverSucceeded, sessionRestores };
}
