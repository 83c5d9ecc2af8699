// The appointment modal's word on the visit's latest write to the PMS (a booking, a reschedule or a cancellation made
// in Rounds): saving (the modal reads the visit again every few seconds until it is saved), saved, failed with the
// reason and "Try again" / "Discard", or changed in the PMS since Rounds read it, with the differences and
// "Overwrite Cliniko" / "Keep Cliniko's version". Only those who plan visits get the actions.
import { useState } from 'react';
import { closeTopModal } from '../../app/modalStore';
import { messagesOfError } from '../../api/errors';
import type { Appointment } from '../../api/types';
import { BOOKING_ERRORS, PMS_NAME, type PmsWrite } from '../../entities/appointments/booking';
import { Button } from '../../ui/Button';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { ErrorNote } from '../../ui/forms';
import { Spinner } from '../../ui/Spinner';
import { useDiscardPmsWrite, useRetryPmsWrite } from './bookingMutations';

const KIND_WORDS: Record<PmsWrite['kind'], string> = { create: 'booking', update: 'reschedule', cancel: 'cancellation' };

/** How often the modal reads a visit again while its write is saving. */
export const SAVING_REFETCH_MS = 3_000;

export const savingRefetchInterval = (appointment: Pick<Appointment, 'pms_write'> | undefined): number | false =>
  appointment?.pms_write?.state === 'saving' ? SAVING_REFETCH_MS : false;

export function PmsWritePanel({ appointment, canAct }: { appointment: Appointment; canAct: boolean }) {
  const write = appointment.pms_write;
  const retry = useRetryPmsWrite();
  const discard = useDiscardPmsWrite();
  const [confirmingDiscard, setConfirmingDiscard] = useState(false);
  if (!write) return null;
  const kind = KIND_WORDS[write.kind];
  const busy = retry.isPending || discard.isPending;
  const error = retry.isError ? messagesOfError(retry.error, BOOKING_ERRORS.retry) : discard.isError ? messagesOfError(discard.error, BOOKING_ERRORS.discard) : [];
  const doDiscard = () => {
    setConfirmingDiscard(false);
    discard.mutate({ writeId: write.id, appointmentId: appointment.id }, { onSuccess: ({ appointment: after }) => after === null && closeTopModal() });
  };

  return (
    <div data-testid="pms-write" data-state={write.state} className="space-y-2 text-sm">
      {write.state === 'saving' && (
        <p role="status" className="flex items-center gap-2">
          <Spinner className="size-4 text-slate-500" />
          Saving to {PMS_NAME}…{write.attempts > 1 ? ` (try ${write.attempts})` : ''}
        </p>
      )}
      {write.state === 'saved' && <p role="status">Saved in {PMS_NAME}: the {kind} made in Rounds{write.created_by ? ` by ${write.created_by}` : ''}.</p>}
      {write.state === 'discarded' && <p role="status">The {kind} was not written to {PMS_NAME}: it was discarded.</p>}
      {write.state === 'failed' && (
        <div role="alert" className="rounded-md border border-rose-200 bg-rose-50 px-3 py-2 text-rose-900 dark:border-rose-900 dark:bg-rose-950 dark:text-rose-100">
          <p className="font-semibold">Not saved in {PMS_NAME}</p>
          <p>{write.message ?? `The ${kind} did not reach ${PMS_NAME}.`}</p>
        </div>
      )}
      {write.state === 'conflict' && (
        <div role="alert" className="space-y-2 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-amber-950 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-100">
          <p className="font-semibold">Changed in {PMS_NAME} since Rounds read it: the {kind} was not written over it.</p>
          {write.message && <p>{write.message}</p>}
          {write.differences.length > 0 && (
            <table data-testid="pms-differences" className="w-full text-left text-xs">
              <caption className="sr-only">What differs between Rounds and {PMS_NAME}</caption>
              <thead>
                <tr>
                  <th scope="col" className="py-1 pr-2">Field</th>
                  <th scope="col" className="py-1 pr-2">Rounds</th>
                  <th scope="col" className="py-1">{PMS_NAME}</th>
                </tr>
              </thead>
              <tbody>
                {write.differences.map((difference) => (
                  <tr key={difference.field} className="border-t border-amber-200 dark:border-amber-900">
                    <th scope="row" className="py-1 pr-2 font-medium">{difference.label}</th>
                    <td className="py-1 pr-2 [overflow-wrap:anywhere]">{difference.rounds ?? '—'}</td>
                    <td className="py-1 [overflow-wrap:anywhere]">{difference.pms ?? '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      )}
      {canAct && (write.state === 'failed' || write.state === 'conflict') && (
        <div className="flex flex-wrap gap-2">
          <Button size="sm" busy={retry.isPending} disabled={busy} onClick={() => retry.mutate({ writeId: write.id, appointmentId: appointment.id, overwrite: write.state === 'conflict' })}>
            {write.state === 'conflict' ? `Overwrite ${PMS_NAME}` : 'Try again'}
          </Button>
          <Button variant="secondary" size="sm" busy={discard.isPending} disabled={busy} onClick={() => setConfirmingDiscard(true)}>
            {write.state === 'conflict' ? `Keep ${PMS_NAME}'s version` : 'Discard'}
          </Button>
        </div>
      )}
      {error.length > 0 && <ErrorNote>{error.map((line) => <p key={line}>{line}</p>)}</ErrorNote>}
      <ConfirmDialog
        open={confirmingDiscard}
        title={write.state === 'conflict' ? `Keep ${PMS_NAME}'s version?` : `Discard the ${kind}?`}
        message={
          write.kind === 'create'
            ? `The booking never reached ${PMS_NAME}: discarding it takes the visit out of Rounds.`
            : `Rounds takes ${PMS_NAME}'s version of the visit back; the ${kind} made in Rounds is undone.`
        }
        confirmLabel={write.state === 'conflict' ? `Keep ${PMS_NAME}'s version` : 'Discard'}
        danger={write.kind === 'create'}
        onConfirm={doDiscard}
        onCancel={() => setConfirmingDiscard(false)}
      />
    </div>
  );
}
