/**
 * `npm run bench:demo-plans -- [--days 5] [--search-ms 5000] [--seed 1]`: what a coordinator would be asked to apply on the demo.
 *
 * Starts the product as `npm start` does (embedded database, the demo's Cliniko sandbox), logs in as the demo's
 * administrator and asks for a proposal (not applied) of each of the next `--days` weekdays in both modes, then one
 * Monday-to-Sunday run reassigning. From the API alone (no product code) it reports, per mode:
 * - the minutes each changed visit moves from the client's agreed time (p50, p90, max; moves of 30+ and 60+ min),
 *   the travel saved, and travel saved per client-minute moved;
 * - lanes with a move of 30 min or more that fixes no rule and whose travel falls by less than 5 min ("moves that buy
 *   little", each named);
 * - visits given to a practitioner who does not deliver their type (by the practitioner's qualifications as the
 *   settings API gives them; a practitioner whose qualifications are unknown counts as delivering none) and visits
 *   given to a practitioner of another profession;
 * - for the week: practitioners called in on a day they had nothing booked, and distinct carers per client before →
 *   after.
 * OPTIMIZER_MAX_SEARCH_MS caps each day's search (`--search-ms`); every run searches with `--seed`, so a run is
 * reproduced by the same command.
 */
import { Temporal } from 'temporal-polyfill';
import { apiAs, type Api } from '../tests/e2e/support/api';
import { startProduct } from '../tests/e2e/support/server';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const dayCount = Number(arg('days') ?? 5);
const searchMs = arg('search-ms') ?? '5000';
const seed = Number(arg('seed') ?? 1);
const ZONE = 'Australia/Brisbane';

interface Visit { id: number; starts_at: string; agreed_starts_at?: string; practitioner_id: number; client_id: number | null; appointment_type_id: number | null; status: string }
interface PractitionerSettings {
  id: number; full_name: string; profession: string | null;
  skill_appointment_type_ids: number[] | null; qualified_appointment_type_ids?: number[] | null;
}
interface Stop { appointment_id: number }
interface Lane { practitioner_id: number; before: { stops: Stop[]; metrics: { travel_seconds: number } }; after: { stops: Stop[]; metrics: { travel_seconds: number } } }
interface Change { appointment_id: number; new_arrive_at: string; old_practitioner_id: number; new_practitioner_id: number; reasons?: { kind: string }[] }
interface Proposal { date: string; lanes: Lane[]; changes: Change[]; unplaced: unknown[]; search?: { elapsed_ms: number; iterations: number; stopped_by: string; seed?: number } }
interface Run { id: number; status: string; error_message: string | null; days: Proposal[] | null }

const quantile = (sorted: number[], q: number) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]);

function weekdaysAhead(count: number): string[] {
  const days: string[] = [];
  for (let day = Temporal.Now.plainDateISO(ZONE).add({ days: 2 }); days.length < count; day = day.add({ days: 1 })) {
    if (day.dayOfWeek <= 5) days.push(day.toString());
  }
  return days;
}

async function propose(api: Api, date: string, endDate: string, mode: string): Promise<Proposal[]> {
  const { optimization } = await api<{ optimization: Run }>('/optimizations', { method: 'POST', body: JSON.stringify({ date, end_date: endDate, mode, seed }) });
  for (;;) {
    const { optimization: run } = await api<{ optimization: Run }>(`/optimizations/${optimization.id}`);
    if (run.status === 'COMPLETE') {
      await api(`/optimizations/${run.id}/discard`, { method: 'POST' }).catch(() => undefined);
      return run.days ?? [];
    }
    if (run.status === 'ERROR' || run.status === 'CANCELLED') throw new Error(`${date}…${endDate} ${mode}: ${run.status} ${run.error_message}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

interface Figures {
  changes: number; moved: number[]; travelSavedSeconds: number; littleBoughtLanes: number; littleBought: string[]; lanes: number;
  unqualified: number; otherProfession: number; reassigned: number; calledIn: string[]; searches: NonNullable<Proposal['search']>[];
}
const emptyFigures = (): Figures => ({ changes: 0, moved: [], travelSavedSeconds: 0, littleBoughtLanes: 0, littleBought: [], lanes: 0, unqualified: 0, otherProfession: 0, reassigned: 0, calledIn: [], searches: [] });

function measure(figures: Figures, proposal: Proposal, visits: Map<number, Visit>, staff: Map<number, PractitionerSettings>): void {
  const movedOf = (change: Change) => {
    const visit = visits.get(change.appointment_id)!;
    return Math.abs(Date.parse(change.new_arrive_at) - Date.parse(visit.agreed_starts_at ?? visit.starts_at)) / 60_000;
  };
  if (proposal.search) figures.searches.push(proposal.search);
  for (const change of proposal.changes) {
    figures.changes++;
    figures.moved.push(movedOf(change));
    if (change.new_practitioner_id === change.old_practitioner_id) continue;
    figures.reassigned++;
    const visit = visits.get(change.appointment_id)!;
    const to = staff.get(change.new_practitioner_id)!;
    const delivers = to.qualified_appointment_type_ids ?? to.skill_appointment_type_ids ?? [];
    if (visit.appointment_type_id !== null && !delivers.includes(visit.appointment_type_id)) figures.unqualified++;
    if (to.profession !== staff.get(change.old_practitioner_id)?.profession) figures.otherProfession++;
  }
  for (const lane of proposal.lanes) {
    figures.lanes++;
    const saved = lane.before.metrics.travel_seconds - lane.after.metrics.travel_seconds;
    figures.travelSavedSeconds += saved;
    const onLane = new Set(lane.after.stops.map((stop) => stop.appointment_id));
    // A move that fixes a rule (or leaves a practitioner's leave) is worth its minutes whatever the travel.
    const fixes = (change: Change) => (change.reasons ?? []).some((reason) => reason.kind === 'rule-fixed' || reason.kind === 'leave');
    const bigMove = proposal.changes.find((change) => onLane.has(change.appointment_id) && movedOf(change) >= 30 && !fixes(change));
    if (bigMove && saved < 5 * 60) {
      figures.littleBoughtLanes++;
      figures.littleBought.push(`${proposal.date} ${staff.get(lane.practitioner_id)?.full_name}: visit ${bigMove.appointment_id} moved ${Math.round(movedOf(bigMove))} min, lane travel ${Math.round(-saved / 60)} min`);
    }
    if (lane.before.stops.length === 0 && lane.after.stops.length > 0) {
      figures.calledIn.push(`${staff.get(lane.practitioner_id)?.full_name} on ${proposal.date} (${lane.after.stops.length} visits)`);
    }
  }
}

function report(label: string, figures: Figures): void {
  const moved = [...figures.moved].sort((a, b) => a - b);
  const totalMoved = moved.reduce((sum, minutes) => sum + minutes, 0);
  const round = (value: number) => Math.round(value * 10) / 10;
  console.log(`${label}: ${figures.changes} changes · minutes moved from the agreed time p50 ${round(quantile(moved, 0.5))} / p90 ${round(quantile(moved, 0.9))} / max ${round(moved.at(-1) ?? 0)}`
    + ` · moves ≥30 min ${moved.filter((m) => m >= 30).length}, ≥60 min ${moved.filter((m) => m >= 60).length}`
    + ` · travel saved ${round(figures.travelSavedSeconds / 60)} min (${totalMoved ? (figures.travelSavedSeconds / 60 / totalMoved).toFixed(3) : 0} per client-minute moved)`
    + ` · lanes with a move ≥30 min saving <5 min ${figures.littleBoughtLanes} of ${figures.lanes}`
    + ` · reassigned ${figures.reassigned}: unqualified ${figures.unqualified}, another profession ${figures.otherProfession}`
    + (figures.calledIn.length ? ` · called in ${figures.calledIn.length}: ${figures.calledIn.join('; ')}` : ''));
  for (const line of figures.littleBought) console.log(`  moves that buy little: ${line}`);
  const elapsed = figures.searches.map((search) => search.elapsed_ms).sort((a, b) => a - b);
  console.log(`  searches: ${elapsed.length}, elapsed p50 ${quantile(elapsed, 0.5)} ms / max ${elapsed.at(-1)} ms, stopped by ${[...new Set(figures.searches.map((search) => search.stopped_by))].join(', ')}`);
}

async function main() {
  const product = await startProduct({ OPTIMIZER_MAX_SEARCH_MS: searchMs }, { api: true });
  try {
    const api = await apiAs(product.url, 'admin@demo.test');
    const { practitioners } = await api<{ practitioners: PractitionerSettings[] }>('/practitioners');
    const staff = new Map(practitioners.map((p) => [p.id, p]));
    const visitsOn = async (from: string, to: string) => {
      const { appointments } = await api<{ appointments: Visit[] }>(`/appointments?start_date=${from}&end_date=${to}`);
      return new Map(appointments.filter((visit) => visit.status === 'BOOKED').map((visit) => [visit.id, visit]));
    };
    const days = weekdaysAhead(dayCount);
    console.log(`demo weekdays ${days[0]} … ${days.at(-1)}, search capped at ${searchMs} ms a day`);
    for (const mode of ['keep_practitioners', 'reassign']) {
      const figures = emptyFigures();
      for (const date of days) {
        const visits = await visitsOn(date, date);
        for (const proposal of await propose(api, date, date, mode)) measure(figures, proposal, visits, staff);
      }
      report(mode, figures);
    }
    // The week: Monday to Sunday, reassigning.
    let monday = Temporal.Now.plainDateISO(ZONE).add({ days: 7 });
    monday = monday.subtract({ days: monday.dayOfWeek - 1 });
    const sunday = monday.add({ days: 6 });
    const visits = await visitsOn(monday.toString(), sunday.toString());
    const figures = emptyFigures();
    let proposals: Proposal[] = [];
    try {
      proposals = await propose(api, monday.toString(), sunday.toString(), 'reassign');
      for (const proposal of proposals) measure(figures, proposal, visits, staff);
      report(`week ${monday}…${sunday} reassign`, figures);
    } catch (error) {
      console.log(`week ${monday}…${sunday} reassign: refused — ${(error as Error).message.slice(0, 300)}`);
    }
    const carers = (assigned: Map<number, number>) => {
      const byClient = new Map<number, Set<number>>();
      for (const [visitId, practitionerId] of assigned) {
        const clientId = visits.get(visitId)?.client_id;
        if (clientId == null) continue;
        byClient.set(clientId, (byClient.get(clientId) ?? new Set()).add(practitionerId));
      }
      const counts = [...byClient.values()].map((set) => set.size);
      return counts.length ? Math.round((counts.reduce((a, b) => a + b, 0) / counts.length) * 100) / 100 : 0;
    };
    const before = new Map([...visits].map(([id, visit]) => [id, visit.practitioner_id]));
    const after = new Map(before);
    for (const proposal of proposals) for (const change of proposal.changes) after.set(change.appointment_id, change.new_practitioner_id);
    if (proposals.length) console.log(`week distinct carers per client (mean): ${carers(before)} → ${carers(after)}`);
  } finally {
    await product.stop();
  }
}

await main();
