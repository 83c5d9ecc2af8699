// Only the future moves: a visit that has started — its practitioner has stepped it (On my way, Arrived, …) or it
// starts within the optimisation settings' fixed_before_minutes — keeps its time and practitioner (the server refuses
// to move it; the web app does not offer it).

/** Why a visit (its arrival, ISO, and its state) cannot be moved now, in the server's words; null when it can. */
export function fixedVisitReason(
  visit: { arrival: string; visitState?: string | null }, fixedBeforeMinutes: number, now = Date.now(),
): string | null {
  const stepped = (visit.visitState ?? 'not_started') !== 'not_started';
  return stepped || Date.parse(visit.arrival) <= now + fixedBeforeMinutes * 60_000
    ? `This visit has started (or starts within ${fixedBeforeMinutes} minutes): its time and practitioner stay as they are.`
    : null;
}
