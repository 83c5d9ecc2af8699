// Business locations: the list the pickers and modals need.
import type { AuthContext } from '../../auth/access';
import type { Schemas } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { toBusinessLocationDto } from './dto';
import { listBusinessLocations } from './repository';

export class BusinessLocationsService {
  constructor(private readonly ctx: AppContext) {}

  async list(auth: AuthContext): Promise<Schemas['BusinessLocation'][]> {
    return (await listBusinessLocations(this.ctx.db, auth.businessAccountId)).map(toBusinessLocationDto);
  }
}
