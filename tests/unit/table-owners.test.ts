// One writer per table (docs/decisions/0008, 0021): only a table's owning module writes it — raw SQL
// (INSERT INTO / UPDATE / DELETE FROM <table>, and db/bulk's bulkInsert(tx, '<table>')) or Drizzle
// (.insert(table) / .update(table) / .delete(table)). Others ask the owner's service. Today's exceptions are listed
// below with their reason; a new writer outside the owner fails here until it goes through the owner (or is listed).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const serverSrc = path.join(root, 'server/src');

/** Each table's owner: the folder under server/src whose files may write it. */
const OWNERS: Record<string, string> = {
  appointment_sync_snapshots: 'modules/sync',
  appointment_types: 'modules/appointment-types',
  appointments: 'modules/schedule',
  billing_events: 'modules/subscriptions',
  business_accounts: 'modules/business-account',
  business_locations: 'modules/business-locations',
  care_plan_allocations: 'modules/care',
  care_plans: 'modules/care',
  client_absences: 'modules/care',
  client_availability_requests: 'modules/clients',
  client_past_availabilities: 'modules/clients',
  client_practitioner_preferences: 'modules/clients',
  client_tags: 'modules/tags',
  clients: 'modules/clients',
  custom_locations: 'modules/custom-locations',
  eta_messages: 'modules/reminders',
  export_history_entries: 'modules/sync',
  geocode_cache: 'geo',
  import_history_entries: 'modules/sync',
  instance_secrets: 'lib',
  jobs: 'jobs',
  live_tickets: 'modules/live',
  login_throttles: 'modules/auth',
  one_time_tokens: 'modules/auth',
  optimization_runs: 'modules/optimizations',
  open_visits: 'modules/care',
  optimization_settings: 'modules/optimization-settings',
  outbox_emails: 'mail',
  practitioner_first_visits: 'modules/practitioners',
  practitioner_leave: 'modules/leave',
  pms_writes: 'modules/bookings',
  practitioners: 'modules/practitioners',
  public_holidays: 'modules/care',
  provider_accounts: 'modules/sync',
  reminder_runs: 'modules/reminders',
  resource_maps: 'modules/sync',
  routes: 'modules/schedule',
  sent_reminders: 'modules/reminders',
  sessions: 'modules/auth',
  subscriptions: 'modules/subscriptions',
  sync_cursors: 'modules/sync',
  sync_settings: 'modules/sync',
  tags: 'modules/tags',
  travel_summary_days: 'modules/travel',
  travel_summary_visits: 'modules/travel',
  users: 'modules/users',
  versions: 'modules/audit',
  visit_steps: 'modules/schedule',
  worker_heartbeats: 'operations',
};

/** Writes outside the owner that exist today, by file (under server/src) and table, each with why. */
const KNOWN_EXCEPTIONS: { file: string; tables: string[]; why: string }[] = [
  {
    file: 'lib/app-secret.ts', tables: ['provider_accounts'],
    why: "a new APP_SECRET re-encrypts every stored PMS API key at start, before any module runs",
  },
  {
    file: 'demo/seed.ts', tables: ['provider_accounts', 'custom_locations', 'practitioners', 'appointment_types', 'business_locations', 'clients', 'appointments'],
    why: "the demo's first start on an empty database sets up Brisbane Demo Care before its first import",
  },
  {
    file: 'demo/public-holidays.ts', tables: ['public_holidays'],
    why: "the demo's first start gives Brisbane Demo Care Queensland's public holidays, as it sets up the rest of the business",
  },
  {
    file: 'modules/sync/booked-appointments.ts', tables: ['pms_writes'],
    why: "an import meeting a booking's appointment before the booking's write linked it links it and marks that write saved in the import's transaction; bookings imports sync (its adapter and links), so sync cannot ask bookings",
  },
];

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : filesUnder(full);
    return /\.ts$/.test(entry.name) && !/\.(test|d)\.ts$/.test(entry.name) ? [full] : [];
  });
}

/** The Drizzle constant of each table: `export const clients = pgTable('clients', …)`. */
function drizzleTables(): Map<string, string> {
  const names = new Map<string, string>();
  for (const file of filesUnder(path.join(serverSrc, 'db')).filter((f) => /schema[^/]*\.ts$/.test(f))) {
    for (const match of readFileSync(file, 'utf8').matchAll(/export const (\w+) = pgTable\(\s*'(\w+)'/g)) names.set(match[1], match[2]);
  }
  return names;
}

/** Every table the migrations create, by the name it has after them (a table renamed goes by its new name). */
function migratedTables(): Set<string> {
  const dir = path.join(serverSrc, 'db/migrations');
  const created = new Set<string>();
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.sql')).sort()) {
    const statements = readFileSync(path.join(dir, name), 'utf8')
      .matchAll(/create table (?:if not exists )?"?(\w+)|alter table "?(\w+)"? rename to "?(\w+)/gi);
    for (const [, table, renamed, to] of statements) {
      if (table) created.add(table.toLowerCase());
      else if (created.delete(renamed.toLowerCase())) created.add(to.toLowerCase());
    }
  }
  return created;
}

interface Write { file: string; table: string }

function writes(): Write[] {
  const drizzle = drizzleTables();
  const tables = new Set(Object.keys(OWNERS));
  const found: Write[] = [];
  for (const full of filesUnder(serverSrc)) {
    const file = path.relative(serverSrc, full).split(path.sep).join('/');
    if (file === 'db/bulk.ts' || file.startsWith('db/migrat') || file.startsWith('db/backup')) continue;
    const text = readFileSync(full, 'utf8');
    for (const match of text.matchAll(/\.(?:insert|update|delete)\(\s*(?:schema\.)?(\w+)\s*\)/g)) {
      const table = drizzle.get(match[1]);
      if (table) found.push({ file, table });
    }
    for (const match of text.matchAll(/\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+"?(\w+)"?/g)) {
      if (tables.has(match[1])) found.push({ file, table: match[1] });
    }
    for (const match of text.matchAll(/bulkInsert\(\s*\w+\s*,\s*'(\w+)'/g)) found.push({ file, table: match[1] });
  }
  return found;
}

const ownedBy = (file: string, owner: string) => file === `${owner}.ts` || file.startsWith(`${owner}/`);
const excused = ({ file, table }: Write) => KNOWN_EXCEPTIONS.some((e) => e.file === file && e.tables.includes(table));

describe('one writer per table', () => {
  const found = writes();

  it('knows an owner for every table the migrations create', () => {
    const unowned = [...migratedTables()].filter((table) => !(table in OWNERS));
    expect(unowned, 'add the new table to OWNERS').toEqual([]);
  });

  it('finds the writes it looks for (the owners write their tables)', () => {
    expect(found).toEqual(expect.arrayContaining([
      { file: 'modules/clients/repository.ts', table: 'clients' },
      { file: 'modules/schedule/appointment-writes.ts', table: 'appointments' },
      { file: 'modules/schedule/routes-repository.ts', table: 'routes' },
      { file: 'modules/audit/versions.ts', table: 'versions' },
      { file: 'jobs/queue.ts', table: 'jobs' },
    ]));
  });

  it('finds no write of a table outside its owner but the known exceptions', () => {
    const strays = found.filter((write) => !ownedBy(write.file, OWNERS[write.table]) && !excused(write));
    expect([...new Set(strays.map(({ file, table }) => `server/src/${file} writes ${table} (owner: ${OWNERS[table]})`))]).toEqual([]);
  });

  it('lists only exceptions that still exist', () => {
    const stale = KNOWN_EXCEPTIONS.flatMap(({ file, tables }) => tables
      .filter((table) => !found.some((write) => write.file === file && write.table === table))
      .map((table) => `${file} ${table}`));
    expect(stale, 'remove exceptions that no longer happen').toEqual([]);
  });
});
