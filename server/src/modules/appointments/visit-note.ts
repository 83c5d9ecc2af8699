// A done visit's note written after Done: Done is one tap on the phone, and the note may follow, from the phone or the
// desk. It is kept on the visit's Done step (where a note sent with Done is) and written to the change log.
import { practitionerScope, type AuthContext } from '../../auth/access';
import type { Schemas } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { conflict, notFound } from '../../http/errors';
import { recordVersion } from '../audit';
import { setStepNote } from '../schedule';
import { findAppointment, lockAppointment } from './repository';
import { currentSteps } from './visit-steps-repository';

/** What the change log says of the note ("note: Meds given, all well."); an emptied note says so. */
export const noteReason = (note: string | null) => (note ? `note: ${note}` : 'note removed');

export class VisitNoteService {
  constructor(private readonly ctx: AppContext) {}

  async set(auth: AuthContext, appointmentId: number, text: string): Promise<Schemas['Appointment']> {
    const note = text.trim() || null;
    const scope = { businessAccountId: auth.businessAccountId, practitionerIds: practitionerScope(auth) };
    await this.ctx.db.transaction(async (tx) => {
      const appointment = await lockAppointment(tx, scope, appointmentId);
      if (!appointment) throw notFound('Appointment');
      if (appointment.cancelled_at) throw conflict('This visit is cancelled: it takes no note.', 'APPOINTMENT_CANCELLED');
      const done = (await currentSteps(tx, auth.businessAccountId, appointmentId)).findLast((step) => step.step === 'done');
      if (appointment.visit_state !== 'done' || !done) {
        throw conflict('This visit is not done yet: a note is added once it is Done.', 'VISIT_NOT_DONE');
      }
      if (done.note === note) return;
      await setStepNote(tx, auth.businessAccountId, done, note);
      await recordVersion(tx, {
        businessAccountId: auth.businessAccountId, itemType: 'Appointment', itemId: appointmentId, event: 'update', whodunnit: auth.fullName,
        changes: { visit_note: [done.note, note] }, reason: noteReason(note),
      });
    });
    const appointment = await findAppointment(this.ctx.db, scope, appointmentId);
    if (!appointment) throw notFound('Appointment');
    return appointment;
  }
}
