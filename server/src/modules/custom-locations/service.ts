// Custom locations: places that are neither clients nor business locations (an office, a depot, a car park), which a
// practitioner's day can start or end at. An admin creates, renames, moves (the pin) and deletes them; one that is a
// practitioner's place cannot be deleted (409 naming who uses it). Each change is in the change log.
import type { AuthContext } from '../../auth/access';
import type { BodyOf, Schemas } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { conflict, invalid, notFound } from '../../http/errors';
import { recordVersion, type ObjectChanges } from '../audit';
import { toCustomLocationDto } from './dto';
import {
  deleteCustomLocation, findCustomLocation, insertCustomLocation, isDuplicateName, isStillReferenced, listCustomLocations, practitionersUsing,
  updateCustomLocation, type CustomLocationChanges, type CustomLocationRow, type CustomLocationUser,
} from './repository';

const FIELDS = ['name', 'address', 'lat', 'lng', 'geo_precision', 'geo_source'] as const;

/** How the pin was found: what the lookup said, else a pin placed by hand (at the address, manual). */
function howPlaced(input: { lat?: number; lng?: number; precision?: CustomLocationRow['geo_precision']; source?: CustomLocationRow['geo_source'] }) {
  if ((input.precision !== undefined || input.source !== undefined) && input.lat === undefined) {
    throw invalid(`${input.precision !== undefined ? 'precision' : 'source'} is only taken with lat and lng: it says how the pin was found.`);
  }
  return { geo_precision: input.precision ?? 'address', geo_source: input.source ?? 'manual' };
}

function nameOf(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw invalid('name must not be blank.');
  return trimmed;
}

function duplicateName(error: unknown, name: string | undefined): never {
  if (isDuplicateName(error)) throw conflict(`A custom location named "${name}" already exists.`, 'CUSTOM_LOCATION_NAME_TAKEN');
  throw error;
}

function inUse(location: CustomLocationRow, users: readonly CustomLocationUser[]) {
  const names = [...new Set(users.map((user) => `${user.first_name} ${user.last_name}`.trim()))];
  const list = names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
  return conflict(`"${location.name}" is the start or end place of ${list}. Choose another place for ${names.length === 1 ? 'them' : 'each of them'} first.`,
    'CUSTOM_LOCATION_IN_USE');
}

export class CustomLocationsService {
  constructor(private readonly ctx: AppContext) {}

  async list(auth: AuthContext): Promise<Schemas['CustomLocation'][]> {
    const rows = await listCustomLocations(this.ctx.db, auth.businessAccountId);
    const users = await practitionersUsing(this.ctx.db, rows.map((row) => row.id));
    return rows.map((row) => toCustomLocationDto(row, users));
  }

  private async get(auth: AuthContext, id: number): Promise<Schemas['CustomLocation']> {
    const row = await findCustomLocation(this.ctx.db, auth.businessAccountId, id);
    if (!row) throw notFound('Custom location');
    return toCustomLocationDto(row, await practitionersUsing(this.ctx.db, [id]));
  }

  async create(auth: AuthContext, input: BodyOf<'createCustomLocation'>): Promise<Schemas['CustomLocation']> {
    const values = { name: nameOf(input.name), address: (input.address ?? '').trim(), lat: input.lat, lng: input.lng, ...howPlaced(input) };
    const row = await this.ctx.db.transaction(async (tx) => {
      const created = await insertCustomLocation(tx, auth.businessAccountId, values);
      const changes: ObjectChanges = {};
      for (const field of FIELDS) if (created[field] !== '') changes[field] = [null, created[field]];
      await recordVersion(tx, { businessAccountId: auth.businessAccountId, itemType: 'CustomLocation', itemId: created.id, event: 'create', whodunnit: auth.fullName, changes });
      return created;
    }).catch((error: unknown) => duplicateName(error, values.name));
    return toCustomLocationDto(row, []);
  }

  /** Renames, moves (lat and lng together) or re-addresses a custom location. */
  async update(auth: AuthContext, id: number, input: BodyOf<'updateCustomLocation'>): Promise<Schemas['CustomLocation']> {
    if ((input.lat === undefined) !== (input.lng === undefined)) {
      throw invalid(`${input.lat === undefined ? 'lat' : 'lng'} is required with ${input.lat === undefined ? 'lng' : 'lat'}: move the pin with both.`);
    }
    const placed = howPlaced(input);
    const wanted: CustomLocationChanges = {};
    if (input.name !== undefined) wanted.name = nameOf(input.name);
    if (input.address !== undefined) wanted.address = input.address.trim();
    if (input.lat !== undefined && input.lng !== undefined) Object.assign(wanted, { lat: input.lat, lng: input.lng, ...placed });
    await this.ctx.db.transaction(async (tx) => {
      const before = await findCustomLocation(tx, auth.businessAccountId, id, 'update');
      if (!before) throw notFound('Custom location');
      const changes: ObjectChanges = {};
      for (const field of FIELDS) if (wanted[field] !== undefined && wanted[field] !== before[field]) changes[field] = [before[field], wanted[field]];
      if (!Object.keys(changes).length) return;
      await updateCustomLocation(tx, id, wanted);
      await recordVersion(tx, { businessAccountId: auth.businessAccountId, itemType: 'CustomLocation', itemId: id, event: 'update', whodunnit: auth.fullName, changes });
    }).catch((error: unknown) => duplicateName(error, wanted.name));
    return this.get(auth, id);
  }

  /** Deletes a custom location no practitioner's day starts or ends at; 409 naming them otherwise. */
  async delete(auth: AuthContext, id: number): Promise<void> {
    await this.ctx.db.transaction(async (tx) => {
      const location = await findCustomLocation(tx, auth.businessAccountId, id, 'update');
      if (!location) throw notFound('Custom location');
      const users = await practitionersUsing(tx, [id]);
      if (users.length) throw inUse(location, users);
      try {
        await deleteCustomLocation(tx, id);
      } catch (error) {
        // A practitioner took it as their place after the check (their write had not committed yet).
        if (isStillReferenced(error)) {
          throw conflict(`"${location.name}" is the start or end place of a practitioner. Choose another place for them first.`, 'CUSTOM_LOCATION_IN_USE');
        }
        throw error;
      }
      const changes: ObjectChanges = {};
      for (const field of FIELDS) changes[field] = [location[field], null];
      await recordVersion(tx, { businessAccountId: auth.businessAccountId, itemType: 'CustomLocation', itemId: id, event: 'destroy', whodunnit: auth.fullName, changes });
    });
  }
}
