// Appointment types: the list the pickers and modals need, and editing one (ADMIN).
import type { AuthContext } from '../../auth/access';
import type { Schemas } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { invalid, notFound } from '../../http/errors';
import { changesBetween, recordVersion } from '../audit';
import { toAppointmentTypeDto } from './dto';
import { findAppointmentTypeForUpdate, listAppointmentTypes, updateAppointmentType, type AppointmentTypeChanges } from './repository';

export interface AppointmentTypeEdit {
  name?: string;
  duration?: number;
  color?: string | null;
  tolerance_minutes?: number | null;
  same_type_gap_minutes?: number | null;
  needs_two_practitioners?: boolean;
  move_price?: number | null;
}

export class AppointmentTypesService {
  constructor(private readonly ctx: AppContext) {}

  async list(auth: AuthContext): Promise<Schemas['AppointmentType'][]> {
    return (await listAppointmentTypes(this.ctx.db, auth.businessAccountId)).map(toAppointmentTypeDto);
  }

  /** Renames, re-times or recolours an appointment type; a name must not be blank. */
  async update(auth: AuthContext, id: number, edit: AppointmentTypeEdit): Promise<Schemas['AppointmentType']> {
    const changes: AppointmentTypeChanges = { updated_at: new Date() };
    if (edit.name !== undefined) {
      changes.name = edit.name.trim();
      if (!changes.name) throw invalid('name must not be blank.');
    }
    if (edit.duration !== undefined) changes.duration = edit.duration;
    if (edit.color !== undefined) changes.color = edit.color?.toLowerCase() ?? null;
    if (edit.tolerance_minutes !== undefined) changes.tolerance_minutes = edit.tolerance_minutes;
    if (edit.same_type_gap_minutes !== undefined) changes.same_type_gap_minutes = edit.same_type_gap_minutes;
    if (edit.needs_two_practitioners !== undefined) changes.needs_two_practitioners = edit.needs_two_practitioners;
    if (edit.move_price !== undefined) changes.move_price = edit.move_price;
    const row = await this.ctx.db.transaction(async (tx) => {
      const before = await findAppointmentTypeForUpdate(tx, auth.businessAccountId, id);
      if (!before) return undefined;
      const after = (await updateAppointmentType(tx, auth.businessAccountId, id, changes))!;
      const recorded = ({ name, duration, color, tolerance_minutes, same_type_gap_minutes, needs_two_practitioners, move_price }: typeof after) =>
        ({ name, duration, color, tolerance_minutes, same_type_gap_minutes, needs_two_practitioners, move_price });
      await recordVersion(tx, {
        businessAccountId: auth.businessAccountId, itemType: 'AppointmentType', itemId: id, event: 'update', whodunnit: auth.fullName,
        changes: changesBetween(recorded(before), recorded(after)),
      });
      return after;
    });
    if (!row) throw notFound('Appointment type');
    return toAppointmentTypeDto(row);
  }
}
