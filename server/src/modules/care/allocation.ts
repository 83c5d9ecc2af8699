// A care-plan allocation's proposal: every open visit of the range gets a practitioner where one fits, day by day.
// Each visit is placed by the optimiser's cheapest insertion into the practitioners' days as they are (every booked
// visit keeps its practitioner and arrival; each placement is pinned so later ones see it), among those who deliver
// its type, work that day, are not on leave and are not excluded by the client, inside its window and the client's
// availability. Continuity: a client's known carers (their visits of the last 8 weeks and this allocation's
// placements) and the plan's preferred practitioners are tried first, and a new carer must save more than
// NEW_CARER_PENALTY to be chosen; among new carers, one with fewer visits that day is preferred at similar cost
// (BALANCE_MARGIN). Every placement is checked by the schedule's day checker: one that would add a hard
// break is tried with someone else, so the proposal adds none.
import { Temporal } from 'temporal-polyfill';
import type { Schemas } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { cheapestInsertion, travelMatrixFor, type CurrentRoute, type Insertion, type Problem, type TimeWindow, type Visit } from '../../optimizer';
import { loadDay, problemOf } from '../optimizations';
import { fixedUntil } from '../optimization-settings';
import { loadPractitionerDays } from '../practitioners';
import {
  availabilityWindows, dayBounds, instantOfSeconds, issuesOfPlan, newHardIssues, secondsOf, travelProviderFor, type DayIssue, type DayVisit, type Placement,
} from '../schedule';
import { businessTimeZone } from '../../db/business-time-zone';
import { addDays, clockOfMinutes, datesBetween, instantOn, windowInWords } from './clock';
import type { AllocationResult } from './dto';
import {
  activePractitionerIds, bookedVisitsOf, listOpen, planningClients, plansRunningBetween, typesByIds, type OpenVisitRow, type PlanningClient,
} from './repository';

/** What a new carer for a client must save to be chosen over a known one: 40 minutes of travel at the default weights. */
export const NEW_CARER_PENALTY = 40;
/** What a less-loaded day may cost more than the cheapest (balance at similar cost): 15 minutes of travel. */
export const BALANCE_MARGIN = 15;
/** How far back a client's visits make their carers known. */
const CONTINUITY_WEEKS = 8;
/** Placements tried per visit before it is left open because of the rules. */
const MAX_TRIES = 4;

type AllocationVisit = Schemas['CarePlanAllocationVisit'];

interface Placed { practitionerId: number; start: number; insertion: Insertion }

/** Carers of each client, with how many visits each has (their history, then this allocation's placements). */
class Carers {
  private readonly byClient = new Map<number, Map<number, number>>();
  add(clientId: number, practitionerId: number): void {
    const carers = this.byClient.get(clientId) ?? new Map<number, number>();
    carers.set(practitionerId, (carers.get(practitionerId) ?? 0) + 1);
    this.byClient.set(clientId, carers);
  }
  /** The client's carers, most visits first. */
  of(clientId: number): number[] {
    return [...(this.byClient.get(clientId) ?? new Map<number, number>())].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([id]) => id);
  }
}

export async function allocate(ctx: AppContext, business: number, from: string, to: string): Promise<AllocationResult> {
  const { db } = ctx;
  const timeZone = await businessTimeZone(db, business);
  const open = await listOpen(db, business, from, to);
  const clientIds = [...new Set(open.map((row) => row.client_id))];
  const [clients, types, plans, practitionerIds] = await Promise.all([
    planningClients(db, business, clientIds),
    typesByIds(db, business, [...new Set(open.map((row) => row.appointment_type_id))]),
    plansRunningBetween(db, business, from, to),
    activePractitionerIds(db, business),
  ]);
  const preferredOfPlan = new Map(plans.map((plan) => [plan.id, plan.preferred_practitioner_ids]));
  const carers = new Carers();
  const history = await bookedVisitsOf(db, business, clientIds, instantOn(addDays(from, -7 * CONTINUITY_WEEKS), 0, timeZone), instantOn(addDays(to, 1), 0, timeZone));
  for (const visit of history) if (visit.clientId !== null) carers.add(visit.clientId, visit.practitionerId);
  // Who each client sees over the range, booked already (counted with the placements in the figures).
  const seenInRange = new Map<number, Set<number>>();
  const rangeFrom = instantOn(from, 0, timeZone);
  for (const visit of history) {
    if (visit.clientId === null || visit.startsAt < rangeFrom) continue;
    seenInRange.set(visit.clientId, (seenInRange.get(visit.clientId) ?? new Set()).add(visit.practitionerId));
  }

  const results: AllocationVisit[] = [];
  let hardBreaks = 0;
  for (const date of datesBetween(from, to)) {
    const ofDay = open.filter((row) => row.date === date);
    if (ofDay.length === 0) continue;
    const day = await allocateDay(ctx, business, timeZone, date, ofDay, { clients, practitionerIds, carers, preferredOfPlan });
    hardBreaks += day.hardBreaks;
    for (const row of ofDay) {
      const placed = day.placed.get(row.id);
      const client = clients.get(row.client_id)!;
      if (placed) seenInRange.set(row.client_id, (seenInRange.get(row.client_id) ?? new Set()).add(placed.practitionerId));
      results.push({
        open_visit_id: row.id,
        client: { id: client.id, name: client.name },
        appointment_type_name: types.get(row.appointment_type_id)?.name ?? '',
        care_plan_id: row.care_plan_id,
        date: row.date,
        window_start: clockOfMinutes(row.window_start),
        window_end: clockOfMinutes(row.window_end),
        practitioner: placed ? { id: placed.practitionerId, name: day.names.get(placed.practitionerId) ?? '' } : null,
        arrive_at: placed ? instantOfSeconds(day.zeroMs, placed.start) : null,
        added_travel_seconds: placed ? Math.round(placed.insertion.addedTravelTime) : 0,
        reason: placed ? null : day.reasons.get(row.id) ?? `No qualified practitioner has room on ${windowInWords(row.date, row.window_start, row.window_end)}`,
      });
    }
  }
  const placedCount = results.filter((visit) => visit.practitioner !== null).length;
  const names = new Map([...clients].map(([id, client]) => [id, client.name]));
  return {
    visits: results,
    figures: {
      visits: results.length,
      placed: placedCount,
      unplaced: results.length - placedCount,
      added_travel_seconds: results.reduce((sum, visit) => sum + visit.added_travel_seconds, 0),
      hard_breaks: hardBreaks,
      carers_by_client: clientIds.map((id) => ({ client_id: id, name: names.get(id) ?? '', carers: seenInRange.get(id)?.size ?? 0 }))
        .sort((a, b) => b.carers - a.carers || a.name.localeCompare(b.name)),
    },
  };
}

interface Shared {
  clients: Map<number, PlanningClient>;
  practitionerIds: number[];
  carers: Carers;
  preferredOfPlan: Map<number, number[]>;
}

interface DayOutcome {
  placed: Map<number, Placed>;
  reasons: Map<number, string>;
  names: Map<number, string>;
  zeroMs: number;
  hardBreaks: number;
}

const problemId = (row: OpenVisitRow) => `open-${row.id}`;

async function allocateDay(ctx: AppContext, business: number, timeZone: string, date: string, rows: OpenVisitRow[], shared: Shared): Promise<DayOutcome> {
  const { db } = ctx;
  const reasons = new Map<number, string>();
  const placed = new Map<number, Placed>();
  // Who can be routed that day: active, at work (not on leave all day), with hours and a start place.
  const days = await loadPractitionerDays(db, business, shared.practitionerIds, date);
  const working = days.filter((day) => day.active && !day.onLeave && day.routable && day.shift && day.startPlace && day.endPlace).map((day) => day.practitionerId);
  const zeroMs = dayBounds(date, timeZone).from.getTime();
  if (working.length === 0) {
    for (const row of rows) reasons.set(row.id, `No practitioner works on ${windowInWords(row.date, row.window_start, row.window_end)}`);
    return { placed, reasons, names: new Map(), zeroMs, hardBreaks: 0 };
  }
  const loaded = await loadDay(db, business, { date, practitionerIds: working, mode: 'reassign' });
  // Every booked visit keeps its practitioner and arrival.
  const built = problemOf({ ...loaded, leftOut: [], data: { ...loaded.data, visits: loaded.data.visits.map((visit) => ({ ...visit, arrivalLocked: true })) } });
  const problem: Problem = built.problem;
  const inRun = built.practitioners;
  const names = new Map(inRun.map((practitioner) => [practitioner.practitionerId, practitioner.name]));
  const skilled = (typeId: number) => inRun.filter((practitioner) => practitioner.skills?.includes(typeId)).map((practitioner) => practitioner.practitionerId);
  const capacityUsed = inRun.some((practitioner) => practitioner.maxVisits !== null);
  const buffer = loaded.data.settings.visit_buffer_minutes * 60;
  // Fixed visits' margin: a start must be strictly after it (isFixedStart), hence the second.
  const earliest = (fixedUntil(loaded.data.settings) - zeroMs) / 1000 + 1;

  // The open visits as the problem's visits: free, inside their window and the client's availability.
  const entries = new Map<number, Visit>();
  const hypothetical = new Map<number, DayVisit>();
  for (const row of rows) {
    const client = shared.clients.get(row.client_id)!;
    const words = windowInWords(row.date, row.window_start, row.window_end);
    if (client.lat === null || client.lng === null) {
      reasons.set(row.id, `${client.name}'s address has no map position, so the travel to the visit cannot be worked out`);
      continue;
    }
    const windowStart = secondsOf(instantOn(row.date, row.window_start, timeZone), zeroMs);
    const latestStart = secondsOf(instantOn(row.date, row.window_end, timeZone), zeroMs) - row.duration_minutes * 60;
    const startsAt = instantOn(row.date, row.window_start, timeZone);
    const visit: DayVisit = {
      id: -row.id, practitionerId: 0, practitionerName: '', clientId: client.id, clientName: client.name, clientTimeZone: client.timeZone,
      availability: client.availability, appointmentTypeId: row.appointment_type_id, startsAt, endsAt: new Date(startsAt.getTime() + row.duration_minutes * 60_000),
      arriveAt: null, agreedStartsAt: startsAt, arrivalLocked: false, lat: client.lat, lng: client.lng, updatedAt: new Date(),
      preferredPractitionerIds: client.preferred, excludedPractitionerIds: client.excluded,
    };
    const availability = availabilityWindows(visit, timeZone, zeroMs);
    const windows = clip([{ start: windowStart, end: Math.max(windowStart, latestStart) }], availability);
    if (windows.length === 0) {
      reasons.set(row.id, `${client.name} is not available on ${words}`);
      continue;
    }
    // Today, nothing starts before now and the time visits are fixed ahead (as a booking by hand).
    const bookable = windows.filter((window) => window.end >= earliest).map((window) => ({ ...window, start: Math.max(window.start, earliest) }));
    if (bookable.length === 0) {
      reasons.set(row.id, `The window has passed: ${words}`);
      continue;
    }
    const qualified = skilled(row.appointment_type_id).filter((id) => !client.excluded.includes(id));
    if (qualified.length === 0) {
      reasons.set(row.id, `No practitioner who delivers this type of visit works on ${words}`);
      continue;
    }
    const entry: Visit = {
      id: problemId(row), location: { lat: client.lat, lng: client.lng }, duration: row.duration_minutes * 60 + buffer, timeWindows: bookable,
      requiredSkill: String(row.appointment_type_id),
      excludedPractitionerIds: inRun.map((practitioner) => practitioner.practitionerId).filter((id) => !qualified.includes(id)).map(String),
    };
    if (capacityUsed) entry.demand = 1;
    problem.visits.push(entry);
    entries.set(row.id, entry);
    hypothetical.set(row.id, visit);
  }
  if (entries.size === 0) return { placed, reasons, names, zeroMs, hardBreaks: 0 };
  const matrix = await travelMatrixFor(problem, { travel: travelProviderFor(ctx.config) });

  // Each practitioner's day as it is, in order of arrival; placements join it.
  const current: CurrentRoute[] = inRun.map((practitioner) => ({
    practitionerId: String(practitioner.practitionerId),
    visitIds: problem.visits.filter((visit) => visit.pinnedPractitionerId === String(practitioner.practitionerId))
      .sort((a, b) => a.pinnedStart! - b.pinnedStart! || a.id.localeCompare(b.id)).map((visit) => visit.id),
  }));
  const routeOf = (practitionerId: number) => current.find((route) => route.practitionerId === String(practitionerId))!;
  const check = loaded.check;
  const placements: Placement[] = [];
  const before = issuesOfPlan(check.now, check.context);
  const hardAdded = (extra: Placement[]): DayIssue[] => newHardIssues(before, issuesOfPlan([...check.now, ...placements, ...extra], check.context));

  const insert = (row: OpenVisitRow, allowed: ReadonlySet<number> | null, exclude: ReadonlySet<number>, window?: TimeWindow): Insertion | null => {
    const entry = entries.get(row.id)!;
    const saved = { excluded: entry.excludedPractitionerIds, windows: entry.timeWindows, previous: entry.previousPractitionerId };
    entry.excludedPractitionerIds = [...new Set([
      ...(saved.excluded ?? []), ...[...exclude].map(String),
      ...(allowed ? inRun.map((practitioner) => practitioner.practitionerId).filter((id) => !allowed.has(id)).map(String) : []),
    ])];
    if (window) entry.timeWindows = [window];
    const known = shared.carers.of(row.client_id).find((id) => names.has(id));
    if (known !== undefined) entry.previousPractitionerId = String(known);
    try {
      return cheapestInsertion(problem, matrix, current, entry.id);
    } finally {
      entry.excludedPractitionerIds = saved.excluded;
      entry.timeWindows = saved.windows;
      entry.previousPractitionerId = saved.previous;
    }
  };

  /** The cheapest place keeping continuity and the rules; null with the reason when there is none. */
  const place = (row: OpenVisitRow, exclude: Set<number>, window?: TimeWindow, partnerFollows = false): Placed | string => {
    const known = new Set([...shared.carers.of(row.client_id), ...(row.care_plan_id ? shared.preferredOfPlan.get(row.care_plan_id) ?? [] : []),
      ...(shared.clients.get(row.client_id)?.preferred ?? [])].filter((id) => names.has(id)));
    for (let attempt = 0; attempt < MAX_TRIES; attempt++) {
      const ofKnown = known.size ? insert(row, known, exclude, window) : null;
      let anyone = insert(row, null, exclude, window);
      if (anyone) {
        // Balance: someone with fewer visits that day, when it costs about the same.
        const load = (id: number) => routeOf(id).visitIds.length;
        const busy = load(Number(anyone.practitionerId));
        const lighter = new Set(inRun.map((practitioner) => practitioner.practitionerId).filter((id) => load(id) < busy));
        const lighterFit = lighter.size ? insert(row, lighter, exclude, window) : null;
        if (lighterFit && lighterFit.cost <= anyone.cost + BALANCE_MARGIN) anyone = lighterFit;
      }
      const chosen = ofKnown && (!anyone || ofKnown.cost <= anyone.cost + NEW_CARER_PENALTY) ? ofKnown : anyone;
      if (!chosen) break;
      const practitionerId = Number(chosen.practitionerId);
      const start = chosen.route.stops[chosen.position].start;
      const visit = hypothetical.get(row.id)!;
      const startsAt = new Date(zeroMs + start * 1000);
      const placement: Placement = {
        visit: { ...visit, practitionerId, practitionerName: names.get(practitionerId) ?? '', startsAt, endsAt: new Date(startsAt.getTime() + row.duration_minutes * 60_000), arriveAt: startsAt, agreedStartsAt: startsAt },
        practitionerId, start: startsAt,
      };
      // The first of two carers alone is "only one booked" until its partner is placed (then checked together).
      const broken = hardAdded([placement]).filter((issue) => !(partnerFollows && issue.rule === 'double-handed' && issue.appointmentIds.every((id) => id === -row.id)));
      if (broken.length === 0) {
        placements.push(placement);
        return { practitionerId, start, insertion: chosen };
      }
      if (attempt === MAX_TRIES - 1 || exclude.size + 1 >= inRun.length) return `${windowInWords(row.date, row.window_start, row.window_end)}: ${broken[0].message}`;
      exclude.add(practitionerId);
    }
    return `No qualified practitioner has room on ${windowInWords(row.date, row.window_start, row.window_end)}`;
  };
  const commit = (row: OpenVisitRow, at: Placed) => {
    const entry = entries.get(row.id)!;
    routeOf(at.practitionerId).visitIds.splice(at.insertion.position, 0, entry.id);
    entry.pinnedStart = at.start;
    entry.pinnedPractitionerId = String(at.practitionerId);
    placed.set(row.id, at);
    shared.carers.add(row.client_id, at.practitionerId);
  };
  const undo = (row: OpenVisitRow, at: Placed) => {
    const entry = entries.get(row.id)!;
    const route = routeOf(at.practitionerId);
    route.visitIds.splice(route.visitIds.indexOf(entry.id), 1);
    delete entry.pinnedStart;
    delete entry.pinnedPractitionerId;
    placed.delete(row.id);
    placements.splice(placements.findIndex((placement) => placement.visit.id === -row.id), 1);
  };

  // Two carers at once first (the hardest to fit), then the narrowest windows, earliest first.
  const placeable = rows.filter((row) => entries.has(row.id));
  const pairKey = (row: OpenVisitRow) => (row.care_plan_id === null ? null : `${row.care_plan_id}|${row.window_start}`);
  const partners = new Map<number, OpenVisitRow>();
  for (const row of placeable) {
    if (row.carer_index !== 1) continue;
    const first = placeable.find((other) => other.carer_index === 0 && pairKey(other) !== null && pairKey(other) === pairKey(row));
    if (first) partners.set(first.id, row);
  }
  const seconds = new Set([...partners.values()].map((row) => row.id));
  const order = placeable.filter((row) => !seconds.has(row.id)).sort((a, b) => Number(partners.has(b.id)) - Number(partners.has(a.id))
    || (a.window_end - a.window_start) - (b.window_end - b.window_start) || a.window_start - b.window_start || a.id - b.id);
  for (const row of order) {
    const first = place(row, new Set(), undefined, partners.has(row.id));
    if (typeof first === 'string') {
      reasons.set(row.id, first);
      const partner = partners.get(row.id);
      if (partner) reasons.set(partner.id, first);
      continue;
    }
    commit(row, first);
    const partner = partners.get(row.id);
    if (!partner) continue;
    // The second carer: someone else, arriving at the same time.
    const second = place(partner, new Set([first.practitionerId]), { start: first.start, end: first.start });
    if (typeof second === 'string') {
      undo(row, first);
      const why = `No second carer has room at ${clockAt(zeroMs, first.start, timeZone)} on ${windowInWords(row.date, row.window_start, row.window_end)}`;
      reasons.set(row.id, why);
      reasons.set(partner.id, why);
      continue;
    }
    commit(partner, second);
  }
  return { placed, reasons, names, zeroMs, hardBreaks: hardAdded([]).length };
}

const clockAt = (zeroMs: number, seconds: number, timeZone: string) =>
  Temporal.Instant.fromEpochMilliseconds(zeroMs + seconds * 1000).toZonedDateTimeISO(timeZone).toPlainTime().toString({ smallestUnit: 'minute' });

/** The parts of `windows` inside the client's availability (null: no custom availability). */
function clip(windows: TimeWindow[], availability: TimeWindow[] | null): TimeWindow[] {
  if (availability === null) return windows;
  return windows.flatMap((window) => availability.filter((bound) => bound.end >= window.start && bound.start <= window.end)
    .map((bound) => ({ start: Math.max(window.start, bound.start), end: Math.min(window.end, bound.end) })));
}

