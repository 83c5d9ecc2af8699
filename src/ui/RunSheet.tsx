// A practitioner's day as a run sheet: the visits in visiting order with their arrival times, the travel between them,
// when to leave and when they are back (the server's reading of the day as it is now, the one the lanes and the map
// read), each client's address, phone and the visit's notes, links that open the address in Google Maps, Apple Maps or
// Waze, the day on the map, and each visit's state and actual times with its step buttons (On my way, Arrived, Done,
// Could not attend: visitStepsMachine). Made for a phone first: every control at least 44 px square, and a finished
// visit folds to one line while the sheet moves on to the next.
import { useEffect, useMemo, useRef, useState } from 'react';
import { useQueries, useQuery } from '@tanstack/react-query';
import { useAuthSelector, useServices } from '../app/ServicesContext';
import { selectRole } from '../machines/auth';
import { openAppointmentModal } from '../app/modalStore';
import { formatTime, todayIn } from '../lib/dates';
import { addressLine, mapLinksForAddress } from '../lib/mapLinks';
import { Button } from './Button';
import { TextLink } from './TextLink';
import { MapView } from './map/MapView';
import { PointPrecision } from './PointPrecision';
import { appointmentQueries } from '../entities/appointments/queries';
import { appointmentTimeZone } from '../entities/appointments/facts';
import type { AppointmentSummary } from '../entities/appointments/api';
import { clientQueries } from '../entities/clients/queries';
import { canPlanRoutes } from '../entities/routes/access';
import type { RoutePlace } from '../entities/routes/api';
import { dayPlans, formatDistance, formatLeg, formatMinutes, mapRouteOf, type Leg, type PractitionerPlan } from '../entities/routes/dayPlan';
import { routeQueries } from '../entities/routes/queries';
import { useRoadPaths } from '../entities/routes/useRoadPaths';
import { useStepOutbox } from '../entities/appointments/visitSteps';
import { waitingStateOf } from '../lib/stepOutbox';
import { stepAt, VisitSteps } from './VisitSteps';
import { LoadingText } from './PageSpinner';

/** A visit whose steps are over: it folds to its time, client and state. */
const FINISHED: ReadonlySet<string> = new Set(['done', 'could_not_attend']);
/** A link beside others on the card, as big as a thumb. */
const TAP_LINK = 'inline-flex min-h-11 min-w-11 items-center justify-center px-2 text-sm';

/** Said to those who plan routes (never to a practitioner, who cannot plan one). */
export const ROUTE_CHANGED = 'Times changed since the route was planned.';

export function RunSheet({ appointments, day, businessTimeZone }: {
  appointments: readonly AppointmentSummary[];
  /** yyyy-MM-dd */
  day: string;
  businessTimeZone: string | null;
}) {
  const { api } = useServices();
  const travel = useQuery(routeQueries.dayTravel(api, day));
  // Without the day's travel (refused, or not reachable) the visits are in arrival order without legs.
  const plans = useMemo(() => dayPlans(appointments, travel.data), [appointments, travel.data]);
  // Without signal a day never read here has no travel to wait for (the query waits for the network).
  if (travel.isPending && travel.fetchStatus !== 'paused') return <LoadingText label="Loading the day’s route" className="justify-center px-4 py-10 text-sm" />;
  if (plans.length === 0) return <p className="px-4 py-10 text-center text-sm text-slate-500 dark:text-slate-400">No visits on this day.</p>;
  return (
    <div className="divide-y divide-slate-200 dark:divide-slate-800">
      <StepOutboxNotice timeZone={appointmentTimeZone(businessTimeZone)} />
      {plans.map((plan) => (
        <PractitionerRunSheet key={plan.practitionerId} plan={plan} day={day} showName={plans.length > 1} businessTimeZone={businessTimeZone} />
      ))}
    </div>
  );
}

/** How the day's order came about, in the words of the role reading it. */
function orderWords(plan: PractitionerPlan, plansRoutes: boolean): string {
  if (plan.routeId !== null && !plan.routeChanged) return 'optimised route';
  if (plan.routeId !== null && plansRoutes) return 'route changed by hand';
  return 'in arrival order';
}

function PractitionerRunSheet({ plan, day, showName, businessTimeZone }: {
  plan: PractitionerPlan; day: string; showName: boolean; businessTimeZone: string | null;
}) {
  const { api } = useServices();
  const plansRoutes = canPlanRoutes(useAuthSelector(selectRole));
  const details = useQueries({ queries: plan.stops.map((stop) => appointmentQueries.detail(api, stop.appointment.id)) });
  const clientIds = [...new Set(plan.stops.flatMap((stop) => (stop.appointment.client ? [stop.appointment.client.id] : [])))];
  const clients = useQueries({ queries: clientIds.map((id) => ({ ...clientQueries.detail(api, id), retry: false })) });
  const clientById = new Map(clients.flatMap((result) => (result.data ? [[result.data.id, result.data] as const] : [])));
  const mapRoutes = useMemo(() => [mapRouteOf(plan)], [plan]);
  const outbox = useStepOutbox();
  const finished = plan.stops.map((stop) => FINISHED.has(waitingStateOf(outbox, stop.appointment.id) ?? stop.appointment.visit_state));
  const stopRefs = useRef(new Map<number, HTMLLIElement>());
  // A visit finished here (not one already finished when the sheet opened): the sheet moves on to the next visit.
  const finishedBefore = useRef<Set<number> | null>(null);
  const finishedKey = plan.stops.filter((_, index) => finished[index]).map((stop) => stop.appointment.id).join(',');
  useEffect(() => {
    const now = new Set(finishedKey ? finishedKey.split(',').map(Number) : []);
    const before = finishedBefore.current;
    finishedBefore.current = now;
    if (!before || ![...now].some((id) => !before.has(id))) return;
    const next = plan.stops.find((stop) => !now.has(stop.appointment.id));
    if (next) stopRefs.current.get(next.appointment.id)?.scrollIntoView?.({ block: 'start', behavior: 'smooth' });
  }, [finishedKey, plan.stops]);
  const [mapRoute] = useRoadPaths(mapRoutes);
  // Finished visits opened again by hand (Show).
  const [unfolded, setUnfolded] = useState<ReadonlySet<number>>(new Set());
  const toggleUnfolded = (id: number) => setUnfolded((open) => {
    const next = new Set(open);
    if (!next.delete(id)) next.add(id);
    return next;
  });

  const legs = plan.stops.map((stop) => stop.leg);
  const known = [...legs, plan.returnLeg].filter((leg): leg is Leg => leg !== null);
  const travelSeconds = known.reduce((sum, leg) => sum + leg.seconds, 0);
  const travelMetres = known.reduce((sum, leg) => sum + leg.metres, 0);
  const zone = appointmentTimeZone(businessTimeZone);
  // Steps are taken as the day happens: only today's visits have the buttons (the server also refuses a step dated
  // before the visit's day); the office reopens a visit from its details.
  const stepsShown = day === todayIn(zone).toString();
  const about = plan.approximate ? 'about ' : '';
  // Beside the list on a wide screen the map can be taller; above it on a phone it leaves room for the first stop.
  const mapHeight = typeof window !== 'undefined' && window.matchMedia?.('(min-width: 1024px)').matches ? 380 : 260;

  return (
    <section aria-label={`Run sheet of ${plan.name}`} data-testid="run-sheet" className="p-4">
      <header className="mb-3">
        {showName && (
          <h2 className="flex items-center gap-2 text-base font-semibold">
            <span className="inline-block size-3 rounded-full" style={{ backgroundColor: plan.color }} aria-hidden="true" />
            {plan.name}
          </h2>
        )}
        <p className="text-sm text-slate-600 dark:text-slate-300" data-testid="run-sheet-summary">
          {plan.stops.length} {plan.stops.length === 1 ? 'visit' : 'visits'}
          {known.length > 0 && ` · ${about}${formatMinutes(travelSeconds)} travel · ${formatDistance(travelMetres)}`}
          {' · '}
          {orderWords(plan, plansRoutes)}
        </p>
        {plan.routeChanged && plansRoutes && (
          <p role="status" className="mt-2 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-100">
            {ROUTE_CHANGED}
          </p>
        )}
      </header>
      <div className="lg:grid lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)] lg:items-start lg:gap-6">
        <div className="mb-4 lg:sticky lg:top-4 lg:order-2 lg:mb-0">
          {mapRoute.stops.length > 0 ? (
            <MapView routes={[mapRoute]} legend={false} height={mapHeight} onStopClick={(stop) => openAppointmentModal(Number(stop.id))} />
          ) : (
            <p className="rounded-lg bg-slate-100 px-3 py-6 text-center text-sm text-slate-600 dark:bg-slate-800 dark:text-slate-300">None of these visits has a place on the map.</p>
          )}
        </div>
        <ol className="space-y-1 lg:order-1" aria-label="Stops in visiting order">
          {plan.start && <PlaceRow kind="Start" place={plan.start} time={plan.departAt} timeWord="leave" zone={zone} />}
          {plan.stops.map((stop, index) => {
            const detail = details[index]?.data;
            const client = stop.appointment.client ? clientById.get(stop.appointment.client.id) : undefined;
            const location = detail?.location ?? null;
            const address = location ? addressLine(location) : '';
            const links = location ? mapLinksForAddress(location) : null;
            const type = stop.appointment.appointment_type;
            const notes = detail?.notes?.trim();
            const leg = legs[index];
            const folded = finished[index] && !unfolded.has(stop.appointment.id);
            return (
              <li
                key={stop.appointment.id} data-testid="run-sheet-stop" data-folded={folded || undefined} className="scroll-mt-20"
                ref={(element) => {
                  if (element) stopRefs.current.set(stop.appointment.id, element);
                  else stopRefs.current.delete(stop.appointment.id);
                }}
              >
                {leg && <LegRow text={`${about}${formatLeg(leg)}`} />}
                <div className="rounded-lg border border-slate-200 p-3 dark:border-slate-700">
                  <div className="flex gap-3">
                    <span
                      className="flex size-8 shrink-0 items-center justify-center rounded-full text-sm font-semibold text-white"
                      style={{ backgroundColor: plan.color }}
                      aria-label={`Stop ${index + 1}`}
                    >
                      {index + 1}
                    </span>
                    <div className="min-w-0 flex-1">
                      <div className="flex flex-wrap items-baseline justify-between gap-x-3">
                        <p className="text-lg font-semibold tabular-nums" data-testid="run-sheet-arrival">{formatTime(stop.arriveAt, zone)}</p>
                        <span className="flex">
                          {finished[index] && (
                            <TextLink className={TAP_LINK} aria-expanded={!folded} onClick={() => toggleUnfolded(stop.appointment.id)}>
                              {folded ? 'Show' : 'Fold'}
                            </TextLink>
                          )}
                          <TextLink className={TAP_LINK} onClick={() => openAppointmentModal(stop.appointment.id)}>Details</TextLink>
                        </span>
                      </div>
                      <p className="font-medium text-slate-900 dark:text-white">{stop.appointment.client?.full_name ?? 'No client'}</p>
                      {type && !folded && <p className="text-sm text-slate-600 dark:text-slate-300">{type.name} · {type.duration} min</p>}
                      {!folded && (
                        <>
                          <p className="mt-1 text-sm text-slate-700 dark:text-slate-200" data-testid="run-sheet-address">
                            {detail ? address || 'No address' : stop.appointment.suburb ?? '…'}
                            <PointPrecision precision={stop.appointment.geo_precision} className="ml-1.5" />
                          </p>
                          {notes && (
                            <p data-testid="run-sheet-notes" className="mt-1 rounded bg-amber-50 px-2 py-1 text-sm whitespace-pre-line text-amber-950 dark:bg-amber-950/60 dark:text-amber-100">
                              <span className="font-medium">Notes: </span>
                              {notes}
                            </p>
                          )}
                          {client && client.phone_numbers.length > 0 && (
                            <p className="mt-1 flex flex-wrap gap-x-3 text-sm">
                              {client.phone_numbers.map((phone) => (
                                <TextLink key={phone.number} href={`tel:${phone.number.replace(/[^\d+]/g, '')}`} className="inline-flex min-h-11 items-center">
                                  {phone.phone_type ? `${phone.phone_type}: ` : ''}{phone.number}
                                </TextLink>
                              ))}
                            </p>
                          )}
                        </>
                      )}
                    </div>
                  </div>
                  {links && !folded && (
                    // The whole card's width, three equal buttons big enough for a thumb.
                    <p className="mt-2 grid grid-cols-[1.3fr_1.2fr_0.8fr] gap-2" aria-label={`Directions to ${stop.appointment.client?.full_name ?? 'this visit'}`}>
                      <Button href={links.google} target="_blank" rel="noreferrer" variant="secondary" size="xs" className="min-h-11">Google Maps</Button>
                      <Button href={links.apple} target="_blank" rel="noreferrer" variant="secondary" size="xs" className="min-h-11">Apple Maps</Button>
                      <Button href={links.waze} target="_blank" rel="noreferrer" variant="secondary" size="xs" className="min-h-11">Waze</Button>
                    </p>
                  )}
                  <VisitSteps visit={stop.appointment} timeZone={zone} steps={stepsShown} canReopen={plansRoutes} />
                </div>
              </li>
            );
          })}
          {plan.end && (
            <PlaceRow
              kind="End" place={plan.end} time={plan.backAt} timeWord="back by" zone={zone}
              leg={plan.returnLeg ? `${about}${formatLeg(plan.returnLeg)}` : null}
            />
          )}
        </ol>
      </div>
    </section>
  );
}

/**
 * What the phone still has to send (steps taken without signal), and the steps the server refused, kept until the
 * practitioner dismisses them (the office sees each refusal in the visit's change log).
 */
function StepOutboxNotice({ timeZone }: { timeZone: string }) {
  const { stepOutbox } = useServices();
  const { waiting, refused } = useStepOutbox();
  // Why Send now sent nothing (it tries at once; without signal nothing can go).
  const [notSent, setNotSent] = useState<string | null>(null);
  if (waiting.length === 0 && refused.length === 0) return null;
  const sendNow = async () => {
    setNotSent(null);
    await stepOutbox.flush();
    if (stepOutbox.getSnapshot().waiting.length === 0) return;
    setNotSent(navigator.onLine === false
      ? 'Nothing was sent: this phone has no signal. The steps stay here and go by themselves when the network is back.'
      : 'Nothing was sent: the server could not be reached. The steps stay here and go by themselves when it answers.');
  };
  const count = `${waiting.length} ${waiting.length === 1 ? 'step' : 'steps'}`;
  return (
    <div className="space-y-2 p-4 pb-0">
      {waiting.length > 0 && (
        <div role="status" data-testid="steps-waiting" className="rounded-md border border-sky-200 bg-sky-50 px-3 py-2 text-sm text-sky-950 dark:border-sky-900 dark:bg-sky-950 dark:text-sky-100">
          <p>
            {count} waiting to send. No signal: {waiting.length === 1 ? 'it is' : 'they are'} kept on this phone and sent by
            {waiting.length === 1 ? ' itself' : ' themselves'}, in order and with the times you tapped, when the network is back.
          </p>
          <Button variant="secondary" className="mt-2 min-h-11" onClick={() => void sendNow()}>Send now</Button>
          {notSent && <p data-testid="steps-not-sent" className="mt-2 font-medium">{notSent}</p>}
        </div>
      )}
      {refused.length > 0 && (
        <div role="alert" data-testid="steps-refused" className="rounded-md border border-rose-200 bg-rose-50 px-3 py-2 text-sm text-rose-900 dark:border-rose-900 dark:bg-rose-950 dark:text-rose-100">
          <ul className="space-y-1">
            {refused.map((item) => (
              <li key={item.step.idempotency_key}>
                {item.clientName ?? 'A visit'}, {stepAt(item.step, timeZone)} · Not recorded: {item.message}
              </li>
            ))}
          </ul>
          <Button variant="secondary" size="sm" className="mt-2" onClick={() => stepOutbox.dismissRefused()}>Dismiss</Button>
        </div>
      )}
    </div>
  );
}

function LegRow({ text }: { text: string }) {
  return (
    <p data-testid="run-sheet-leg" className="flex items-center gap-2 py-1 pl-4 text-xs text-slate-500 dark:text-slate-400">
      <span aria-hidden="true">↓</span>
      <span>Travel {text}</span>
    </p>
  );
}

/** The day's start or end; `leg`: the travel to it (the way back), in the end's item as each stop's is in the stop's. */
function PlaceRow({ kind, place, time, timeWord, zone, leg = null }: {
  kind: 'Start' | 'End'; place: RoutePlace; time: string | null; timeWord: string; zone: string; leg?: string | null;
}) {
  return (
    <li data-testid={`run-sheet-${kind.toLowerCase()}`}>
      {leg && <LegRow text={leg} />}
      <div className="flex items-center gap-3 rounded-lg bg-slate-50 px-3 py-2 text-sm dark:bg-slate-800/60">
        <span className="flex size-8 shrink-0 items-center justify-center rounded-md border-2 border-slate-900 bg-white text-xs font-semibold dark:bg-slate-900" aria-hidden="true">
          {kind === 'Start' ? 'S' : 'E'}
        </span>
        <span>
          {kind} at <span className="font-medium">{place.name}</span>
          {time && <> · {timeWord} {formatTime(time, zone)}</>}
          {place.geo_precision && <PointPrecision precision={place.geo_precision} className="ml-1.5" />}
        </span>
      </div>
    </li>
  );
}
