// Request generation for the contract fuzzer: valid values from the contract's JSON schemas, and the nasty values
// and mutations that turn a valid request into an invalid one. Everything draws from one seeded generator, so a
// seed and a case number always give the same request.

export type Schema = Record<string, any>;

/** mulberry32: small, fast and good enough to pick test inputs. */
export class Random {
  private state: number;
  constructor(seed: number) { this.state = seed >>> 0; }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(min: number, max: number): number { return min + Math.floor(this.next() * (max - min + 1)); }
  chance(probability: number): boolean { return this.next() < probability; }
  pick<T>(items: readonly T[]): T { return items[Math.floor(this.next() * items.length)]; }
}

/** One case's generator, independent of every other case's (so a case can be replayed alone). */
export function caseRandom(seed: number, index: number): Random {
  let hash = (seed ^ 0x9e3779b9) >>> 0;
  hash = Math.imul(hash ^ index, 0x85ebca6b) >>> 0;
  hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35) >>> 0;
  return new Random(hash ^ (hash >>> 16));
}

/** Ids of one business's rows, by what they are. */
export interface IdPools {
  users: number[]; practitioners: number[]; appointment_types: number[]; business_locations: number[];
  custom_locations: number[]; clients: number[]; tags: number[]; appointments: number[]; imports: number[];
  exports: number[]; optimizations: number[]; routes: number[];
}

/** Which pool an id field or a path's `{id}` draws from: by the field's name, else by the path's resource. */
export function poolFor(name: string, path = ''): keyof IdPools | null {
  const field = name.replace(/_ids?$/, '');
  const byField: Record<string, keyof IdPools> = {
    practitioner: 'practitioners', associated_practitioner: 'practitioners', appointment_type: 'appointment_types',
    business_location: 'business_locations', custom_location: 'custom_locations', client: 'clients', tag: 'tags',
    appointment: 'appointments', user: 'users', route: 'routes', optimization: 'optimizations', import: 'imports', export: 'exports',
    start_location: 'custom_locations', end_location: 'custom_locations',
  };
  if (field !== 'id' && byField[field]) return byField[field];
  if (name === 'id' || name === 'ids') {
    const resource = path.split('/').filter(Boolean)[0];
    if (resource && isPool(resource)) return resource as keyof IdPools;
  }
  return null;
}

function isPool(name: string): boolean {
  return ['users', 'practitioners', 'appointment_types', 'business_locations', 'custom_locations', 'clients', 'tags',
    'appointments', 'imports', 'exports', 'optimizations', 'routes'].includes(name);
}

export class SchemaGenerator {
  /** One-time tokens from the links the server has emailed so far (availability, invitation, password reset). */
  linkTokens: string[] = [];

  constructor(private readonly contract: Schema, private readonly pools: IdPools, private readonly emails: string[] = []) {}

  resolve(schema: Schema | undefined): Schema {
    let current = schema ?? {};
    for (let depth = 0; current.$ref && depth < 20; depth += 1) {
      const parts = (current.$ref as string).replace(/^#\//, '').split('/').map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'));
      current = parts.reduce((node: any, part) => node?.[part], this.contract) ?? {};
    }
    return current;
  }

  /** A value the schema accepts (as far as a schema can tell: the service may still refuse it). */
  valid(schemaOrRef: Schema | undefined, random: Random, name = '', path = '', depth = 0): unknown {
    const schema = this.resolve(schemaOrRef);
    if (schema.const !== undefined) return schema.const;
    if (schema.enum) return random.pick(schema.enum);
    if (schema.default !== undefined && random.chance(0.2)) return schema.default;
    if (schema.allOf) return Object.assign({}, ...schema.allOf.map((part: Schema) => this.valid(part, random, name, path, depth + 1)));
    const choices = schema.oneOf ?? schema.anyOf;
    if (choices) return this.valid(random.pick(choices), random, name, path, depth + 1);
    let type = schema.type;
    if (Array.isArray(type)) {
      const concrete = type.filter((entry: string) => entry !== 'null');
      type = concrete.length && random.chance(0.9) ? random.pick(concrete) : 'null';
    }
    if (!type) type = schema.properties ? 'object' : schema.items ? 'array' : 'string';
    switch (type) {
      case 'null': return null;
      case 'boolean': return random.chance(0.5);
      case 'integer': return this.integer(schema, random, name, path);
      case 'number': {
        const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 0.001 : -1000);
        const max = schema.maximum ?? min + 1000;
        return Math.round((min + random.next() * (max - min)) * 1e6) / 1e6;
      }
      case 'string': return this.string(schema, random, name);
      case 'array': {
        const min = schema.minItems ?? 0;
        const max = Math.min(schema.maxItems ?? 3, min + 3);
        const items = Array.from({ length: random.int(min, max) }, () => this.valid(schema.items, random, name, path, depth + 1));
        return schema.uniqueItems ? [...new Map(items.map((item) => [JSON.stringify(item), item])).values()] : items;
      }
      case 'object': {
        const result: Record<string, unknown> = {};
        const required: string[] = schema.required ?? [];
        for (const [key, property] of Object.entries<Schema>(schema.properties ?? {})) {
          if (required.includes(key) || (depth < 4 && random.chance(0.5))) result[key] = this.valid(property, random, key, path, depth + 1);
        }
        if (schema.minProperties && Object.keys(result).length < schema.minProperties) {
          for (const [key, property] of Object.entries<Schema>(schema.properties ?? {})) {
            if (Object.keys(result).length >= schema.minProperties) break;
            if (!(key in result)) result[key] = this.valid(property, random, key, path, depth + 1);
          }
        }
        // A valid range starts before it ends (start/end times, start_date/end_date, from/to).
        for (const [from, to] of [['start', 'end'], ['start_date', 'end_date'], ['starts_at', 'ends_at'], ['from', 'to']]) {
          const first = result[from];
          const last = result[to];
          if (typeof first === 'string' && typeof last === 'string' && first > last) [result[from], result[to]] = [last, first];
        }
        return result;
      }
      default: return null;
    }
  }

  private integer(schema: Schema, random: Random, name: string, path: string): number {
    const pool = poolFor(name, path);
    if (pool && this.pools[pool].length && random.chance(0.9)) return random.pick(this.pools[pool]);
    const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 0);
    const max = Math.min(schema.maximum ?? min + 100, min + 100_000);
    return random.chance(0.2) ? (random.chance(0.5) ? min : max) : random.int(min, max);
  }

  private string(schema: Schema, random: Random, name: string): string {
    if (schema.format === 'date') return `2026-11-${String(random.int(20, 30)).padStart(2, '0')}`;
    // Half of them on the fixture's appointment day (Tuesday 24 November in Brisbane), where arrival times can move.
    if (schema.format === 'date-time') return new Date(Date.UTC(2026, 10, random.chance(0.5) ? random.int(23, 24) : random.int(20, 30), random.int(0, 23), random.pick([0, 15, 30, 45]))).toISOString();
    if (schema.format === 'email' || /email/.test(name)) return this.emails.length && random.chance(0.3) ? random.pick(this.emails) : `fuzz${random.int(1, 99999)}@fuzz.test`;
    if (name === 'token' && this.linkTokens.length && random.chance(0.7)) return random.pick(this.linkTokens);
    if (schema.pattern === '^([01][0-9]|2[0-3]):[0-5][0-9]$') return `${String(random.int(0, 23)).padStart(2, '0')}:${random.pick(['00', '15', '30', '45'])}`;
    if (schema.pattern?.startsWith('^#')) return `#${random.int(0, 0xffffff).toString(16).padStart(6, '0')}`;
    if (/time_zone/.test(name)) return random.pick(['Australia/Brisbane', 'Australia/Sydney', 'Pacific/Auckland', 'UTC']);
    if (/(^|_)date$/.test(name)) return `2026-11-${String(random.int(20, 30)).padStart(2, '0')}`;
    if (/hours/.test(name)) return random.pick(['09:00-12:00', '13:00-17:00']);
    const min = schema.minLength ?? 0;
    const max = Math.min(schema.maxLength ?? 24, Math.max(min, 24));
    const length = random.int(Math.max(min, 1), Math.max(max, 1));
    const alphabet = 'abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-';
    return Array.from({ length }, () => random.pick([...alphabet])).join('').slice(0, schema.maxLength ?? length);
  }
}

const HUGE_STRING = 'x'.repeat(100_000);

/** Values that have broken servers before: each is tried where some valid value stood. */
export function nastyValue(random: Random): unknown {
  return random.pick<() => unknown>([
    () => '', () => ' ', () => '\u0000', () => 'a\u0000b', () => HUGE_STRING, () => '💥🏥'.repeat(random.int(1, 500)),
    () => '\u202eevil\u202c', () => 'Zoë Ñúñez 東京 \uD83D', () => "'; DROP TABLE clients; --", () => '<script>alert(1)</script>',
    () => '../../etc/passwd', () => '%00', () => 'null', () => 'true', () => '1e309', () => 'NaN', () => '-1',
    () => '2026-02-30', () => '2026-13-01', () => '0000-00-00', () => '+275760-09-13', () => '99999-12-31', () => '1900-01-01',
    () => '2026-11-24T25:61:00Z', () => '2026-11-24T10:00:00+99:00', () => '2026-11-24T10:00:00', () => '2026-11-24 10:00',
    () => 'Mars/Olympus_Mons', () => 'Etc/GMT+14', () => 'UTC', () => '+14:00', () => '24:00', () => '9:5', () => '23:59-00:00',
    () => -1, () => 0, () => -2147483649, () => 2147483648, () => 2 ** 53 + 1, () => 1e308, () => -1e308, () => 0.5, () => 1e-300,
    () => true, () => false, () => null, () => [], () => {}, () => [null], () => ({ nested: { deeper: [1, 'two', null] } }),
    () => Array.from({ length: random.pick([1000, 20_000]) }, (_, index) => index + 1),
    () => Array.from({ length: 2000 }, () => 'x'.repeat(50)),
    () => deepNesting(random.int(50, 400)),
  ])();
}

function deepNesting(depth: number): unknown {
  let value: unknown = 1;
  for (let level = 0; level < depth; level += 1) value = { a: value };
  return value;
}

/** Every place in a JSON value, as a list of keys from the root. */
export function placesIn(value: unknown, prefix: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(prefix);
  if (prefix.length > 6) return out;
  if (Array.isArray(value)) value.slice(0, 5).forEach((item, index) => placesIn(item, [...prefix, index], out));
  else if (value && typeof value === 'object') for (const [key, item] of Object.entries(value)) placesIn(item, [...prefix, key], out);
  return out;
}

export function setAt(root: unknown, place: (string | number)[], value: unknown, remove = false): unknown {
  if (place.length === 0) return value;
  const copy = structuredClone(root) as any;
  let node = copy;
  for (const key of place.slice(0, -1)) node = node[key];
  const last = place[place.length - 1];
  if (remove) {
    if (Array.isArray(node)) node.splice(Number(last), 1); else delete node[last];
  } else node[last] = value;
  return copy;
}

/** Swaps every id of this business in a JSON value for the same kind of id of the other business. */
export function swapIds(value: unknown, own: IdPools, other: IdPools, name = '', path = ''): unknown {
  if (Array.isArray(value)) return value.map((item) => swapIds(item, own, other, name, path));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, swapIds(item, own, other, key, path)]));
  }
  if (typeof value === 'number') {
    const pool = poolFor(name, path);
    if (pool && other[pool].length) {
      const index = own[pool].indexOf(value);
      return other[pool][Math.max(0, index) % other[pool].length];
    }
  }
  return value;
}
