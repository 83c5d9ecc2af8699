// The appointment details modal: data, the visit's state and actual times (a coordinator can reopen it), arrival-time
// editor, availability warning, route controls, moving the visit (coordinators), map, map links and extra details
// (change log, sync history).
import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useAuthSelector, useServices } from '../../app/ServicesContext';
import { selectUser } from '../../machines/auth';
import { messageOfError } from '../../api/errors';
import { formatDateTime, formatTime, todayIn } from '../../lib/dates';
import { fixedVisitReason } from '../../lib/fixedVisits';
import { addressLine, mapLinksForAddress } from '../../lib/mapLinks';
import { APPOINTMENT_EXTRA_LOAD_ERROR, APPOINTMENT_LOAD_ERROR, type Appointment } from '../../entities/appointments/api';
import { appointmentQueries } from '../../entities/appointments/queries';
import { appointmentTimeZone, arrivalOf, isAppointmentOutsideAvailability, isCancelled, statusLabel } from '../../entities/appointments/facts';
import { AvailabilityWarning } from './AvailabilityWarning';
import { MapView } from '../../ui/map/MapView';
import { PointPrecision } from '../../ui/PointPrecision';
import { hasCoordinates } from '../../lib/map/mapTypes';
import { LoadingText, PageSpinner } from '../../ui/PageSpinner';
import { Icon } from '../../ui/Icon';
import { ArrivalTimeEditor } from './ArrivalTimeEditor';
import { ExtraDetails } from './ChangeLog';
import { Field, ModalFrame, Section } from '../../ui/ModalFrame';
import { openClientModal } from '../../app/modalStore';
import { TextLink } from '../../ui/TextLink';
import { AppointmentRouteControls } from './AppointmentRouteControls';
import { MoveVisitControls } from './MoveVisitControls';
import { TravelWarning } from './TravelWarning';
import { canPlanRoutes } from '../../entities/routes/access';
import { useFixedBeforeMinutes } from '../../entities/optimization-settings/fixedVisits';
import { VisitSteps } from '../../ui/VisitSteps';
import { PMS_NAME } from '../../entities/appointments/booking';
import { PmsWritePanel, savingRefetchInterval } from './PmsWritePanel';
import { RescheduleOrCancel } from './RescheduleOrCancel';

const APPOINTMENT_MAP_UNAVAILABLE = 'Map unavailable (location coordinates missing)';

/** What cannot be loaded is said once, in the modal (not also in a toast over the page). */
export function AppointmentDetailsModal({ appointmentId, initial, onClose }: { appointmentId: number; initial?: Appointment; onClose: () => void }) {
  const { api } = useServices();
  const appointment = useQuery({
    ...appointmentQueries.detail(api, appointmentId),
    initialData: initial,
    // An appointment handed over as an object is shown at once and refreshed behind it.
    initialDataUpdatedAt: 0,
    staleTime: 0,
    // While its write to the PMS is saving, the visit is read again until it is saved (or needs the coordinator).
    refetchInterval: (query) => savingRefetchInterval(query.state.data),
  });

  const title = appointment.data ? `Appointment${appointment.data.client ? ` with ${appointment.data.client.full_name}` : ''}` : 'Appointment details';
  return (
    <ModalFrame title={title} onClose={onClose} testId="appointment-details-modal">
      {appointment.isPending && <PageSpinner label="Loading appointment" />}
      {appointment.isError && (
        <p role="alert" className="text-sm text-rose-700 dark:text-rose-300">{messageOfError(appointment.error, APPOINTMENT_LOAD_ERROR)}</p>
      )}
      {appointment.data && <AppointmentDetails appointment={appointment.data} />}
    </ModalFrame>
  );
}

function AppointmentDetails({ appointment }: { appointment: Appointment }) {
  const { api } = useServices();
  const user = useAuthSelector(selectUser);
  const timeZone = appointmentTimeZone(user?.business_account.time_zone);
  const extra = useQuery({
    ...appointmentQueries.extra(api, appointment.id),
    staleTime: 0,
  });

  const markers = useMemo(
    () => (hasCoordinates(appointment) ? [{ id: appointment.id, lat: appointment.lat, lng: appointment.lng, title: appointment.client?.full_name ?? 'Appointment' }] : []),
    [appointment],
  );
  const address = addressLine(appointment.location ?? {});
  const links = mapLinksForAddress(appointment.location ?? {});
  const outside = isAppointmentOutsideAvailability(appointment, user?.business_account.time_zone);
  const type = appointment.appointment_type;
  // Today's started and imminent visits keep their arrival; a past day's stays a record the office may correct.
  const fixedBefore = useFixedBeforeMinutes(canPlanRoutes(user?.role));
  const arrival = arrivalOf(appointment);
  const todayStarts = todayIn(timeZone).toZonedDateTime({ timeZone }).epochMilliseconds;
  const arrivalFixed = appointment.route_id === null && Date.parse(arrival) >= todayStarts ? fixedVisitReason({ arrival, visitState: appointment.visit_state }, fixedBefore) : null;

  return (
    <>
      {outside && (
        <div className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 dark:border-amber-900 dark:bg-amber-950">
          <AvailabilityWarning withText />
        </div>
      )}
      <TravelWarning appointment={appointment} />
      <Section title="Appointment">
        <dl className="grid gap-3 sm:grid-cols-2">
          <Field label="Client">
            {appointment.client ? (
              <TextLink onClick={() => openClientModal(appointment.client!.id)} className="font-medium">
                {appointment.client.full_name}
              </TextLink>
            ) : (
              '—'
            )}
          </Field>
          {appointment.partner ? (
            // A two-carer visit: both practitioners, this visit's first (each has a booking of their own).
            <Field label="Practitioners">
              <span data-testid="two-carer-practitioners" className="flex items-center gap-1">
                <Icon name="clients" className="size-4" />
                <span className="sr-only">Two-carer visit: </span>
                {appointment.practitioner.full_name} and {appointment.partner.practitioner_name}
              </span>
            </Field>
          ) : (
            <Field label="Practitioner">{appointment.practitioner.full_name}</Field>
          )}
          <Field label="Type">{type ? `${type.name} (${type.duration} min)` : '—'}</Field>
          {/* Booked says nothing beside the visit's state; Cancelled is what a cancelled visit shows instead. */}
          {isCancelled(appointment) ? <Field label="Status">{statusLabel(appointment)}</Field> : (
            <Field label="Visit" className="sm:col-span-2">
              <VisitSteps visit={appointment} timeZone={timeZone} steps={false} canReopen={canPlanRoutes(user?.role)} />
            </Field>
          )}
          <Field label="Starts">{formatDateTime(appointment.starts_at, timeZone)}</Field>
          <Field label="Agreed time">
            {/* The time the client agreed to (ADR 0023): the tolerance is measured from it; an export never changes it. */}
            <span data-testid="agreed-time">
              <span className="tabular-nums">{formatTime(appointment.agreed_starts_at, timeZone)}</span>
              <span className="mt-0.5 block text-xs text-slate-500 dark:text-slate-400">
                {Date.parse(appointment.agreed_starts_at) === Date.parse(appointment.starts_at)
                  ? 'As booked. The tolerance is measured from it.'
                  : 'Agreed with the client; the start is a planned arrival exported to the practice management system. The tolerance is measured from the agreed time.'}
              </span>
            </span>
          </Field>
          <Field label="Arrive">
            {arrivalFixed ? (
              <span data-testid="arrival-time" data-state="fixed">
                <span className="tabular-nums">{formatDateTime(arrival, timeZone)}</span>
                <span className="mt-0.5 block text-xs text-slate-500 dark:text-slate-400">{arrivalFixed}</span>
              </span>
            ) : (
              <ArrivalTimeEditor
                // Started again when the visit joins or leaves a route or is moved (its arrival changed elsewhere).
                key={`${appointment.id}-${appointment.route_id ?? 'free'}-${appointment.arrive_at ?? ''}`}
                appointmentId={appointment.id}
                // The tolerance is measured from the client's agreed time (ADR 0023).
                startsAt={appointment.agreed_starts_at}
                toleranceMinutes={appointment.tolerance_minutes}
                arriveAt={appointment.arrive_at ?? appointment.starts_at}
                routeId={appointment.route_id}
                timeZone={timeZone}
              />
            )}
          </Field>
          <Field label="Ends">{formatDateTime(appointment.ends_at, timeZone)}</Field>
          <Field label="Route" className="sm:col-span-2">
            <AppointmentRouteControls appointment={appointment} canEdit={canPlanRoutes(user?.role)} />
          </Field>
          <Field label="Time zone">{timeZone}</Field>
          <Field label="Address">{address || '—'}</Field>
          <Field label="Notes">{appointment.notes ? <span className="whitespace-pre-line">{appointment.notes}</span> : '—'}</Field>
        </dl>
      </Section>

      {appointment.pms_write && (
        <Section title={PMS_NAME}>
          <PmsWritePanel appointment={appointment} canAct={canPlanRoutes(user?.role)} />
        </Section>
      )}

      {canPlanRoutes(user?.role) && <RescheduleOrCancel appointment={appointment} timeZone={timeZone} />}

      {canPlanRoutes(user?.role) && !isCancelled(appointment) && (
        <Section title="Move">
          <MoveVisitControls appointment={appointment} timeZone={timeZone} />
        </Section>
      )}

      <Section
        title="Map"
        actions={
          links && (
            <span className="flex gap-3 text-xs font-medium">
              <TextLink href={links.google} target="_blank" rel="noreferrer">Google Maps</TextLink>
              <TextLink href={links.apple} target="_blank" rel="noreferrer">Apple Maps</TextLink>
              <TextLink href={links.waze} target="_blank" rel="noreferrer">Waze</TextLink>
            </span>
          )
        }
      >
        {markers.length > 0 ? (
          <MapView pins={markers} />
        ) : (
          <p className="rounded-lg bg-slate-100 px-3 py-6 text-center text-sm text-slate-600 dark:bg-slate-800 dark:text-slate-300">{APPOINTMENT_MAP_UNAVAILABLE}</p>
        )}
        <PointPrecision precision={appointment.geo_precision} source={appointment.geo_source} detail className="mt-2" />
      </Section>

      <Section title="Extra details">
        {extra.isPending && <LoadingText label="Loading extra details" />}
        {extra.isError && <p role="alert" className="text-sm text-rose-700 dark:text-rose-300">{messageOfError(extra.error, APPOINTMENT_EXTRA_LOAD_ERROR)}</p>}
        {extra.data && <ExtraDetails details={extra.data} timeZone={timeZone} />}
      </Section>
    </>
  );
}
