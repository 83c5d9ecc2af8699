// One visit at a time per client, in their booked order, with the gaps the rule book asks for — turned into each
// visit's own time windows, so the optimiser keeps to them by keeping each visit in its windows (ADR 0020): a client's
// day is split between their visits, from where the visits are now and how far each may move. Pure.
import type { TimeWindow } from '../../optimizer';
import { bookedTogether, type RuleBook } from './rules';

export interface ClientVisitTimes {
  clientId: number | null;
  typeId: number | null;
  /** Booked start: the client's visits keep this order. */
  booked: number;
  /** Booked length (seconds): the client's visit ends this long after it starts. */
  duration: number;
  /** Where the visit starts now (its arrival, else its booked start). */
  current: number;
  /**
   * The starts the visit may take by its own rules (tolerance, availability, nothing before now), by start; null when
   * it keeps its time (locked, started, or not with a practitioner of the run).
   */
  own: TimeWindow[] | null;
}

/**
 * Each visit's windows once its client's other visits are taken into account (null: it keeps its current time).
 * Any starts chosen inside these windows keep every pair of a client's visits in booked order and far enough apart.
 * A pair that cannot be kept apart within the visits' own windows keeps the times it has, so the plan never makes
 * a client's day worse than it is; so do two visits booked at the same time (a two-carer visit's two bookings arrive
 * together, as they are; one practitioner's two bookings at once stay as booked).
 */
export function clientWindows(visits: readonly ClientVisitTimes[], rules: RuleBook): (TimeWindow[] | null)[] {
  // A visit that needs two practitioners keeps its time: with its partner, the pair stays together as booked (below);
  // alone, no other time would bring it a second practitioner.
  const result = visits.map((visit) => (visit.own && visit.own.length > 0 && !rules.needsTwo(visit.typeId) ? visit.own : null));
  const byClient = new Map<number, number[]>();
  visits.forEach((visit, index) => {
    if (visit.clientId === null) return;
    const group = byClient.get(visit.clientId);
    if (group) group.push(index); else byClient.set(visit.clientId, [index]);
  });
  for (const group of byClient.values()) {
    if (group.length < 2) continue;
    group.sort((a, b) => visits[a].booked - visits[b].booked || visits[a].current - visits[b].current || a - b);
    // Each pass either succeeds or keeps at least one more visit at its time: at most one pass per visit.
    while (!splitClientDay(visits, group, result, rules));
  }
  return result;
}

/** Narrows the group's windows in `result`; false when it had to keep a visit at its time (then split again). */
function splitClientDay(visits: readonly ClientVisitTimes[], group: number[], result: (TimeWindow[] | null)[], rules: RuleBook): boolean {
  const bounds = new Map(group.map((index) => {
    const windows = result[index];
    const current = visits[index].current;
    return [index, windows ? { lo: windows[0].start, hi: windows.at(-1)!.end } : { lo: current, hi: current }];
  }));
  for (let i = 0; i < group.length; i++) {
    for (let j = i + 1; j < group.length; j++) {
      const a = group[i];
      const b = group[j];
      const aKept = result[a] === null;
      const bKept = result[b] === null;
      if (aKept && bKept) continue;
      const first = visits[a];
      const second = visits[b];
      if (bookedTogether(first, second)) {
        result[a] = null;
        result[b] = null;
        return false;
      }
      const room = first.duration + rules.gapBetween(first.typeId, second.typeId);
      const boundA = bounds.get(a)!;
      const boundB = bounds.get(b)!;
      // The first visit starts by `split`, the second no sooner than split + room.
      const earliest = boundA.lo;
      const latest = boundB.hi - room;
      if (earliest > latest) {
        if (!aKept) result[a] = null;
        if (!bKept) result[b] = null;
        return false;
      }
      const wanted = aKept ? earliest : bKept ? latest : first.current + (second.current - first.current - room) / 2;
      const split = Math.min(latest, Math.max(earliest, wanted));
      boundA.hi = Math.min(boundA.hi, split);
      boundB.lo = Math.max(boundB.lo, split + room);
    }
  }
  let keptOne = false;
  for (const index of group) {
    const windows = result[index];
    if (!windows) continue;
    const { lo, hi } = bounds.get(index)!;
    const narrowed = windows.filter((window) => window.end >= lo && window.start <= hi)
      .map((window) => ({ start: Math.max(window.start, lo), end: Math.min(window.end, hi) }));
    if (narrowed.length === 0) {
      result[index] = null;
      keptOne = true;
    } else result[index] = narrowed;
  }
  return !keptOne;
}
