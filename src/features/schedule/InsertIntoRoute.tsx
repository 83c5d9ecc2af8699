// On the appointment modal, for coordinators: "Insert into a route". The optimiser's cheapest place for the visit among
// the chosen practitioners' days is shown first (practitioner, arrival, between which visits, added travel, lateness,
// compared with now) and changes nothing until "Apply", which moves the visit there through useMoveAppointment.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useServices } from '../../app/ServicesContext';
import type { Appointment } from '../../api/types';
import { messageOfError } from '../../api/errors';
import { formatDateTime, formatTime, zonedFromInstant } from '../../lib/dates';
import { Button } from '../../ui/Button';
import { MultiSelect } from '../../ui/MultiSelect';
import { FieldMessage } from '../../ui/forms';
import { appointmentQueries } from '../../entities/appointments/queries';
import { arrivalOf } from '../../entities/appointments/facts';
import { practitionerSettingsQueries } from '../../entities/practitioners/queries';
import { ROUTE_ERRORS, type Insertion } from '../../entities/routes/api';
import { formatDistance, formatMinutes } from '../../entities/routes/dayPlan';
import { PRACTITIONERS_LOAD_ERROR } from './MoveVisit';
import { useFindInsertion, useMoveAppointment } from './mutations';
import { CHANGES_ROUTE_NOTE, practitionersForType, startChange, worksOn } from './visitMove';

export const NO_PRACTITIONER_CHOSEN = 'Choose at least one practitioner.';

export function InsertIntoRoute({ appointment, timeZone, onDone }: { appointment: Appointment; timeZone: string; onDone?: () => void }) {
  const { api } = useServices();
  const practitioners = useQuery(practitionerSettingsQueries.all(api));
  const find = useFindInsertion();
  const move = useMoveAppointment();
  const [picked, setPicked] = useState<number[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const day = zonedFromInstant(appointment.starts_at, timeZone).toPlainDate();
  const candidates = practitionersForType(practitioners.data ?? [], appointment.appointment_type?.id);
  const options = candidates.map((practitioner) => ({ id: practitioner.id, name: practitioner.full_name }));
  // Until the user picks: those who deliver the type and work that day (a start place and hours that weekday).
  const chosen = picked ?? candidates.filter((practitioner) => worksOn(practitioner, day)).map((practitioner) => practitioner.id);
  const answer = find.data;

  const ask = () => {
    setProblem(null);
    if (chosen.length === 0) {
      setProblem(NO_PRACTITIONER_CHOSEN);
      return;
    }
    find.mutate({ appointmentId: appointment.id, practitionerIds: chosen }, { onError: (error) => setProblem(messageOfError(error, ROUTE_ERRORS.insertion)) });
  };

  const apply = (insertion: Insertion) =>
    move.mutate(
      { appointmentId: appointment.id, move: { practitioner_id: insertion.practitioner_id, starts_at: insertion.arrive_at, into_route: true } },
      {
        onSuccess: () => {
          find.reset();
          onDone?.();
        },
        onError: (error) => setProblem(messageOfError(error, ROUTE_ERRORS.move)),
      },
    );

  return (
    <div data-testid="insert-into-route" className="space-y-3 text-sm">
      {!answer?.insertion && (
        <>
          <div>
            <MultiSelect
              label="Among these practitioners"
              testId="insertion-practitioners"
              options={options}
              value={chosen}
              onChange={(ids) => {
                setPicked(ids);
                setProblem(null);
                find.reset();
              }}
              placeholder="None chosen"
              loading={practitioners.isPending}
              failed={practitioners.isError}
              disabled={find.isPending}
            />
            <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
              {practitioners.isError
                ? messageOfError(practitioners.error, PRACTITIONERS_LOAD_ERROR)
                : picked === null
                  ? 'Every active practitioner who delivers this type and works that day is chosen.'
                  : 'Only practitioners who deliver this type are offered.'}
            </p>
          </div>
          {answer && answer.insertion === null && (
            <p role="status" data-testid="insertion-nowhere" className="rounded-md bg-slate-100 px-3 py-2 dark:bg-slate-800">
              {answer.message ?? 'The visit fits in none of these days.'}
            </p>
          )}
          {problem && <FieldMessage>{problem}</FieldMessage>}
          <div className="flex flex-wrap gap-2">
            <Button size="sm" busy={find.isPending} onClick={ask}>
              Find the best place
            </Button>
            {onDone && (
              <Button variant="ghost" size="sm" disabled={find.isPending} onClick={onDone}>
                Cancel
              </Button>
            )}
          </div>
        </>
      )}
      {answer?.insertion && (
        <>
          <InsertionProposal appointment={appointment} insertion={answer.insertion} timeZone={timeZone} />
          {problem && <FieldMessage>{problem}</FieldMessage>}
          <div className="flex flex-wrap gap-2">
            <Button size="sm" busy={move.isPending} onClick={() => apply(answer.insertion!)}>
              Apply
            </Button>
            <Button
              variant="secondary"
              size="sm"
              disabled={move.isPending}
              onClick={() => {
                find.reset();
                setProblem(null);
              }}
            >
              Cancel
            </Button>
          </div>
        </>
      )}
    </div>
  );
}

/** A neighbouring visit by its client's name and times ("Margaret Jones, 09:00–10:00"), else by its times. */
function useNeighbour(id: number | null, timeZone: string): string | null {
  const { api } = useServices();
  const visit = useQuery({ ...appointmentQueries.detail(api, id ?? 0), enabled: id !== null });
  if (id === null) return null;
  if (!visit.data) return visit.isPending ? '…' : `visit ${id}`;
  const arrival = arrivalOf(visit.data);
  // A route may have moved the arrival away from the booked start: the visit ends its booked length after arriving.
  const end = new Date(Date.parse(arrival) + Date.parse(visit.data.ends_at) - Date.parse(visit.data.starts_at)).toISOString();
  const times = `${formatTime(arrival, timeZone)}–${formatTime(end, timeZone)}`;
  return visit.data.client ? `${visit.data.client.full_name} (${times})` : `the visit at ${times}`;
}

function InsertionProposal({ appointment, insertion, timeZone }: { appointment: Appointment; insertion: Insertion; timeZone: string }) {
  const after = useNeighbour(insertion.after_appointment_id, timeZone);
  const before = useNeighbour(insertion.before_appointment_id, timeZone);
  const samePractitioner = insertion.practitioner_id === insertion.current_practitioner_id;
  const between =
    after && before ? `After ${after}, before ${before}.` : after ? `After ${after}, the last visit of the day.` : before ? `Before ${before}, the first visit of the day.` : 'The only visit of the day.';
  const waits = Date.parse(insertion.reach_at) < Date.parse(insertion.arrive_at);
  return (
    <div role="region" aria-label="Best place" data-testid="insertion-proposal" className="space-y-2 rounded-md border border-sky-200 bg-sky-50 px-3 py-2 dark:border-sky-900 dark:bg-sky-950">
      <p className="font-medium" data-testid="insertion-where">
        {insertion.practitioner_name}, arriving {formatDateTime(insertion.arrive_at, timeZone)}
      </p>
      <ul className="list-disc space-y-1 pl-5">
        <li data-testid="insertion-between">{between}</li>
        <li data-testid="insertion-travel">
          Adds {formatMinutes(insertion.added_travel_seconds)} and {formatDistance(insertion.added_travel_metres)} of travel to {insertion.practitioner_name}’s day.
        </li>
        {waits && <li>Gets there at {formatTime(insertion.reach_at, timeZone)} and waits.</li>}
        {insertion.lateness_seconds > 0 && (
          <li data-testid="insertion-lateness" className="text-amber-800 dark:text-amber-200">
            {formatMinutes(insertion.lateness_seconds)} after the client’s availability.
          </li>
        )}
        <li data-testid="insertion-compared">
          Compared with now: {samePractitioner ? `same practitioner (${insertion.practitioner_name})` : `${appointment.practitioner.full_name} → ${insertion.practitioner_name}`};
          arriving {startChange(insertion.current_arrive_at, insertion.arrive_at, timeZone)}.
        </li>
      </ul>
      {appointment.route_id !== null && <p className="text-amber-900 dark:text-amber-100">{CHANGES_ROUTE_NOTE}</p>}
      <p className="text-xs text-slate-600 dark:text-slate-300">Nothing has changed yet.</p>
    </div>
  );
}
