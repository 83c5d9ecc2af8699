// Practitioners: the list the pickers, lanes and map need (a practitioner sees only their own), and the colour an
// admin chooses for one.
import { practitionerScope, type AuthContext } from '../../auth/access';
import type { Schemas } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { notFound } from '../../http/errors';
import { toPractitionerDto } from './dto';
import { findPractitionerWithColor, listPractitioners, setPractitionerColor } from './repository';

export class PractitionersService {
  constructor(private readonly ctx: AppContext) {}

  async list(auth: AuthContext): Promise<Schemas['Practitioner'][]> {
    const rows = await listPractitioners(this.ctx.db, auth.businessAccountId, practitionerScope(auth));
    return rows.map(toPractitionerDto);
  }

  /** Chooses a practitioner's colour; null goes back to the derived one. */
  async setColor(auth: AuthContext, id: number, color: string | null | undefined): Promise<Schemas['Practitioner']> {
    if (!await setPractitionerColor(this.ctx.db, auth.businessAccountId, id, color?.toLowerCase() ?? null)) throw notFound('Practitioner');
    const row = await findPractitionerWithColor(this.ctx.db, id);
    if (!row) throw notFound('Practitioner');
    return toPractitionerDto(row);
  }
}
