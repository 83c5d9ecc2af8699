// Only the future moves: a visit that has started, or starts within the optimisation settings' fixed_before_minutes,
// keeps its time and practitioner (the server refuses to move it; the web app does not offer it).

/** Why a visit arriving at `arrival` (ISO) cannot be moved now, in the server's words; null when it can. */
export function fixedVisitReason(arrival: string, fixedBeforeMinutes: number, now = Date.now()): string | null {
  return Date.parse(arrival) <= now + fixedBeforeMinutes * 60_000
    ? `This visit has started (or starts within ${fixedBeforeMinutes} minutes): its time and practitioner stay as they are.`
    : null;
}
