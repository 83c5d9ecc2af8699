/**
 * The load bench's day as it happens (issue 26): practitioners stepping through today's visits on their phones while
 * the coordinators keep the day schedule of today open.
 *
 * - `visitsForToday`: before the import, each active practitioner of the Cliniko sandbox with no visit today gets the
 *   visits of their nearest working day moved to today (PATCH through the sandbox's API, same clock times), so the bench
 *   has a day to step whatever weekday it runs (the sandbox books weekdays only).
 * - `SteppingPractitioner`: one practitioner's phone. It reads its run sheet (today's own visits), then steps them in
 *   order — On my way → Arrived → Done, sometimes Arrived without On my way, sometimes Could not attend with a reason —
 *   paced over the run, reading the run sheet again after each step as the web app does. `at` is when the step
 *   happened: the visit's planned time give or take the practitioner's lateness, or now when that is still ahead (a
 *   visit earlier in the day is stepped with a past time, as a phone that was offline would). Some steps are sent twice
 *   with the same idempotency key after the first answer (an outbox retry), a few twice at once through both APIs.
 * - `LiveView`: a coordinator's day schedule of today, read again every 15 s as the web app's list query does; it notes
 *   when each visit's state was first shown, by any coordinator and by each.
 * - `checkSteps`: at the end, the steps sent against the visit_steps table (lost, duplicated, stored unasked) and the
 *   visits' states, and for each stored step how long until a coordinator's poll first showed it.
 */
import pg from 'pg';
import { Temporal } from 'temporal-polyfill';

export type Call = (
  base: string, token: string, name: string, method: 'GET' | 'PUT' | 'POST', path: string, body?: unknown, expected?: number[],
) => Promise<{ status: number; ok: boolean; json: any }>;

type StepKind = 'on_my_way' | 'arrived' | 'done' | 'could_not_attend';
type VisitState = 'not_started' | StepKind;

interface DayVisit {
  id: number; starts_at: string; ends_at: string; arrive_at: string | null; status: string; visit_state?: VisitState;
  lat: number | null; lng: number | null;
}

const MINUTE = 60_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)];
const chance = (p: number) => Math.random() < p;
const quantile = (sorted: number[], q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : NaN);
const round = (value: number, digits = 1) => Number(value.toFixed(digits));

// ---- today's visits, through the sandbox ----

/**
 * Moves, in the sandbox, the visits of each active practitioner who has none on `today` from their nearest day with
 * visits (within three days either side) to `today`, at the same clock times. Returns how many practitioners and
 * visits were moved.
 */
export async function visitsForToday(sandboxUrl: string, apiKey: string, today: Temporal.PlainDate, timeZone: string) {
  // The sandbox announces its API's address (…/v1); its fault settings are beside it.
  const origin = sandboxUrl.replace(/\/v1\/?$/, '');
  const authorization = `Basic ${Buffer.from(`${apiKey}:`).toString('base64')}`;
  const headers = { authorization, accept: 'application/json', 'user-agent': 'Rounds load bench (bench@rounds.test)' };
  // The sandbox's rate limit (Cliniko's 200 a minute) is lifted for the set-up's few hundred calls, then put back.
  const faults = await (await fetch(`${origin}/__sandbox/faults`)).json() as { rateLimitPerMinute: number | null };
  const setRateLimit = (rateLimitPerMinute: number | null) =>
    fetch(`${origin}/__sandbox/faults`, { method: 'POST', body: JSON.stringify({ rateLimitPerMinute }) });
  await setRateLimit(null);
  try {
    const all = async (path: string, key: string) => {
      const records: any[] = [];
      for (let url: string | null = `${origin}/v1${path}`; url;) {
        const response = await fetch(url, { headers });
        if (!response.ok) throw new Error(`sandbox GET ${url} → ${response.status}`);
        const page = await response.json() as Record<string, any>;
        records.push(...page[key]);
        url = page.links?.next ?? null;
      }
      return records;
    };
    const active = new Set((await all('/practitioners?per_page=100', 'practitioners')).map((p) => String(p.id)));
    const from = today.subtract({ days: 3 }).toZonedDateTime({ timeZone }).toInstant().toString();
    const to = today.add({ days: 4 }).toZonedDateTime({ timeZone }).toInstant().toString();
    const visits = await all(`/individual_appointments?per_page=100&q[]=starts_at:>=${from}&q[]=starts_at:<${to}`, 'individual_appointments');
    const byPractitioner = new Map<string, Map<string, any[]>>();
    for (const visit of visits) {
      if (visit.cancelled_at || visit.archived_at || visit.deleted_at) continue;
      const practitioner = /\/practitioners\/(\d+)/.exec(visit.practitioner.links.self)![1];
      if (!active.has(practitioner)) continue;
      const day = Temporal.Instant.from(visit.starts_at).toZonedDateTimeISO(timeZone).toPlainDate().toString();
      const days = byPractitioner.get(practitioner) ?? new Map<string, any[]>();
      byPractitioner.set(practitioner, days);
      days.set(day, [...(days.get(day) ?? []), visit]);
    }
    let movedVisits = 0;
    let movedPractitioners = 0;
    for (const days of byPractitioner.values()) {
      if (days.has(today.toString())) continue;
      const nearest = [...days.keys()].sort((a, b) => {
        const distance = (day: string) => Math.abs(Temporal.PlainDate.from(day).since(today).days);
        return distance(a) - distance(b) || a.localeCompare(b);
      })[0];
      const shift = today.since(Temporal.PlainDate.from(nearest)).days;
      const move = (iso: string) => Temporal.Instant.from(iso).toZonedDateTimeISO(timeZone).add({ days: shift }).toInstant().toString();
      for (const visit of days.get(nearest)!) {
        const response = await fetch(`${origin}/v1/individual_appointments/${visit.id}`, {
          method: 'PATCH', headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ starts_at: move(visit.starts_at), ends_at: move(visit.ends_at) }),
        });
        if (!response.ok) throw new Error(`sandbox PATCH appointment ${visit.id} → ${response.status}: ${await response.text()}`);
        movedVisits += 1;
      }
      movedPractitioners += 1;
    }
    return { practitioners: byPractitioner.size, movedPractitioners, movedVisits };
  } finally {
    await setRateLimit(faults.rateLimitPerMinute);
  }
}

// ---- the steps sent ----

interface SentStep {
  key: string; appointmentId: number; step: StepKind; practitioner: number;
  /** When the first request left (ms since epoch). */
  sentAt: number;
  /** How it was sent: once, again after the answer (a retry), or twice at once. */
  mode: 'once' | 'retry' | 'concurrent';
  statuses: number[];
  /** The step's id in the first 2xx answer. */
  stepId: number | null;
}

export const stepLog = {
  sent: new Map<string, SentStep>(),
  requests: 0,
  /** Answers that break the idempotency contract: a repeat answered 201 (stored twice) or with another step. */
  contract: [] as string[],
  /** The practitioners' days as planned: their visits of today and the steps those take. */
  planned: { visits: 0, steps: 0 },
  /** Visits a practitioner left part-way (a step refused or failed three times). */
  abandoned: [] as string[],
};

/** The state a visit is in once the step is recorded. */
const RANK: Record<VisitState, number> = { not_started: 0, on_my_way: 1, arrived: 2, done: 3, could_not_attend: 3 };

/** Whether a list showing the visit in `state` shows that `step` was recorded (or a step after it). */
function shows(state: VisitState, step: StepKind): boolean {
  if (step === 'done' || step === 'could_not_attend') return state === step;
  return RANK[state] >= RANK[step];
}

// ---- a practitioner's phone ----

interface Sessions { bases: string[]; token: string }

export class SteppingPractitioner {
  finished = false;
  visits: DayVisit[] = [];
  private keys = 0;

  constructor(private readonly call: Call, private readonly index: number, private readonly sessions: Sessions, private readonly today: string) {}

  private get base() { return this.sessions.bases[this.index % this.sessions.bases.length]; }

  /** The run sheet: today's own visits (the web app's list query for the day). */
  async runSheet(): Promise<DayVisit[]> {
    const answer = await this.call(this.base, this.sessions.token, 'GET own day (practitioner)', 'GET', `/appointments?start_date=${this.today}&end_date=${this.today}`);
    return (answer.json?.appointments ?? []) as DayVisit[];
  }

  /** Steps through the day, paced over the run of `runMs`, until done or `until` (performance.now()). */
  async run(until: number, runMs: number) {
    const planned = (visit: DayVisit) => Date.parse(visit.arrive_at ?? visit.starts_at);
    this.visits = (await this.runSheet())
      .filter((visit) => visit.status === 'BOOKED' && (visit.visit_state ?? 'not_started') === 'not_started')
      .sort((a, b) => planned(a) - planned(b) || a.id - b.id);
    // The day's plan: each visit's steps and when they happened.
    const late = (Math.floor(Math.random() * 26) - 5) * MINUTE;
    let busyUntil = 0;
    const plan: { visit: DayVisit; steps: { step: StepKind; at: number; extra?: Record<string, unknown> }[] }[] = [];
    for (const visit of this.visits) {
      const arrival = Math.max(planned(visit) + late + (Math.floor(Math.random() * 7) - 3) * MINUTE, busyUntil + 4 * MINUTE);
      const leaves = Math.max(busyUntil, arrival - 12 * MINUTE);
      const duration = Date.parse(visit.ends_at) - Date.parse(visit.starts_at);
      const steps: (typeof plan)[number]['steps'] = [];
      if (chance(0.08)) {
        // Could not attend: at the door (after On my way) or a call before leaving.
        const reason = pick(['client_not_home', 'refused', 'hospital', 'other'] as const);
        const extra = { reason, ...(reason === 'other' ? { reason_text: 'Gate locked, no answer on the phone' } : {}) };
        if (chance(0.5)) steps.push({ step: 'on_my_way', at: leaves }, { step: 'could_not_attend', at: arrival + 5 * MINUTE, extra });
        else steps.push({ step: 'could_not_attend', at: leaves, extra });
        busyUntil = arrival + 5 * MINUTE;
      } else {
        // Arrived without On my way now and then (a tap forgotten).
        if (!chance(0.1)) steps.push({ step: 'on_my_way', at: leaves });
        steps.push({ step: 'arrived', at: arrival, extra: this.place(visit, chance(0.05) ? 0.01 : 0.0005) });
        busyUntil = arrival + duration;
        steps.push({ step: 'done', at: busyUntil, extra: chance(0.2) ? { note: 'All good, client in good spirits.' } : {} });
      }
      plan.push({ visit, steps });
    }
    // Paced to end at 85% of the run, so the whole day is stepped while the coordinators watch: the time left shared
    // by the steps left (the answers' own time on a busy machine counts).
    let left = plan.reduce((sum, visit) => sum + visit.steps.length, 0);
    stepLog.planned.visits += plan.length;
    stepLog.planned.steps += left;
    const stepsEnd = until - 0.15 * runMs;
    const pace = () => (left ? Math.max(0, stepsEnd - performance.now()) / left : 0);
    await sleep(Math.random() * pace());
    for (const { visit, steps } of plan) {
      for (const { step, at, extra } of steps) {
        if (performance.now() >= until) return;
        // As a phone records it: the time it happened, or now when that is still ahead.
        const body = { step, at: new Date(Math.min(at, Date.now())).toISOString(), idempotency_key: this.newKey(visit.id, step), ...extra };
        if (!(await this.send(visit.id, body))) {
          stepLog.abandoned.push(`practitioner ${this.index + 1}: visit ${visit.id} left at ${step}`);
          break;
        }
        // The web app reads the day again after each step (its list query is invalidated).
        await this.runSheet();
        left -= 1;
        await sleep(pace() * (0.5 + Math.random()));
      }
    }
    this.finished = true;
  }

  /** The phone's place near the visit's point (`spread` degrees either way), with its accuracy; none without a point. */
  private place(visit: DayVisit, spread: number) {
    if (visit.lat === null || visit.lng === null || chance(0.1)) return {};
    return { lat: visit.lat + (Math.random() - 0.5) * 2 * spread, lng: visit.lng + (Math.random() - 0.5) * 2 * spread, accuracy_m: Math.round(5 + Math.random() * 40) };
  }

  private newKey(appointmentId: number, step: StepKind) {
    this.keys += 1;
    return `bench-${this.index + 1}-${appointmentId}-${step}-${this.keys}-${Math.random().toString(36).slice(2, 8)}`;
  }

  /**
   * Sends the step once, or again with the same key after the answer (p 0.1), or twice at once through both APIs
   * (p 0.05). A failed send is tried again with the same key (as the outbox does) up to three times. True when recorded.
   */
  private async send(appointmentId: number, body: { step: StepKind; idempotency_key: string }): Promise<boolean> {
    const mode: SentStep['mode'] = chance(0.05) ? 'concurrent' : chance(0.1) ? 'retry' : 'once';
    const entry: SentStep = { key: body.idempotency_key, appointmentId, step: body.step, practitioner: this.index + 1, sentAt: Date.now(), mode, statuses: [], stepId: null };
    stepLog.sent.set(entry.key, entry);
    const path = `/appointments/${appointmentId}/steps`;
    const post = (base: string, name: string) => {
      stepLog.requests += 1;
      return this.call(base, this.sessions.token, name, 'POST', path, body);
    };
    const note = (answer: { status: number; json: any }, repeat: boolean) => {
      entry.statuses.push(answer.status);
      if (answer.status < 200 || answer.status >= 300) return;
      const id = answer.json?.step?.id ?? null;
      if (entry.stepId === null) entry.stepId = id;
      else if (id !== entry.stepId) stepLog.contract.push(`${entry.key}: answered step ${id}, first ${entry.stepId}`);
      if (repeat && answer.status !== 200) stepLog.contract.push(`${entry.key}: a repeat answered ${answer.status} (200 documented)`);
    };
    for (let attempt = 0; attempt < 3; attempt++) {
      if (attempt > 0) await sleep(2000);
      const stored = entry.stepId !== null;
      if (mode === 'concurrent' && attempt === 0) {
        const answers = await Promise.all(this.sessions.bases.map((base) => post(base, 'POST visit step (twice at once)')));
        // One of the two is first (201), the other its repeat (200); both 201 would be two rows.
        answers.forEach((answer) => note(answer, false));
        if (answers.every((answer) => answer.status === 201)) stepLog.contract.push(`${entry.key}: both sends at once answered 201`);
      } else {
        note(await post(this.base, attempt === 0 ? 'POST visit step' : 'POST visit step (resent after a failure)'), stored);
      }
      if (entry.stepId === null) continue;
      if (mode === 'retry' && attempt === 0) note(await post(this.base, 'POST visit step (same key again)'), true);
      return true;
    }
    return false;
  }
}

// ---- the coordinators' live view ----

export const LIVE_REFRESH_MS = 15_000;

export class LiveView {
  /** Visit id → state → when a coordinator's poll first showed it (ms since epoch). */
  readonly firstShown = new Map<number, Map<VisitState, number>>();
  /** Per coordinator: visit id → state → when their poll first showed it. */
  readonly shownTo: Map<number, Map<VisitState, number>>[] = [];
  polls = 0;

  constructor(private readonly call: Call, private readonly today: string) {}

  /** One coordinator's schedule of today: read now (after a random start) and every 15 s until `until`. */
  async watch(coordinator: number, base: string, token: string, until: number) {
    const mine = new Map<number, Map<VisitState, number>>();
    this.shownTo[coordinator] = mine;
    const start = performance.now() + Math.random() * LIVE_REFRESH_MS;
    for (let poll = 0; ; poll++) {
      const due = start + poll * LIVE_REFRESH_MS;
      if (due >= until) return;
      await sleep(due - performance.now());
      const answer = await this.call(base, token, 'GET appointments today (live view, every 15 s)', 'GET', `/appointments?start_date=${this.today}&end_date=${this.today}`);
      const at = Date.now();
      this.polls += 1;
      for (const visit of (answer.json?.appointments ?? []) as DayVisit[]) {
        const state = visit.visit_state ?? 'not_started';
        if (state === 'not_started') continue;
        for (const seen of [this.firstShown, mine]) {
          const states = seen.get(visit.id) ?? new Map<VisitState, number>();
          seen.set(visit.id, states);
          if (!states.has(state)) states.set(state, at);
        }
      }
    }
  }

  /** When the list first showed `step` of the visit recorded (its state, or a later one), by `seen`. */
  static shownAt(seen: Map<number, Map<VisitState, number>> | undefined, appointmentId: number, step: StepKind): number | null {
    let first: number | null = null;
    for (const [state, at] of seen?.get(appointmentId) ?? []) {
      if (shows(state, step) && (first === null || at < first)) first = at;
    }
    return first;
  }
}

// ---- at the end: the table against what was sent ----

export async function checkSteps(databaseUrl: string, live: LiveView) {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const rows = (await db.query<{ id: number; appointment_id: number; step: StepKind; idempotency_key: string; recorded_at: Date }>(
      `SELECT id, appointment_id, step, idempotency_key, recorded_at FROM visit_steps WHERE idempotency_key LIKE 'bench-%' ORDER BY id`)).rows;
    const stepped = [...new Set([...stepLog.sent.values()].map((entry) => entry.appointmentId))];
    const states = new Map((await db.query<{ id: number; visit_state: VisitState }>(
      'SELECT id, visit_state FROM appointments WHERE id = ANY($1::int[])', [stepped])).rows.map((row) => [row.id, row.visit_state]));

    const storedByKey = new Map<string, typeof rows>();
    for (const row of rows) storedByKey.set(row.idempotency_key, [...(storedByKey.get(row.idempotency_key) ?? []), row]);
    const sent = [...stepLog.sent.values()];
    const acknowledged = sent.filter((entry) => entry.stepId !== null);
    const lost = acknowledged.filter((entry) => !storedByKey.has(entry.key)).map((entry) => `${entry.key} (answered step ${entry.stepId}) is not in visit_steps`);
    const wrongId = acknowledged.filter((entry) => storedByKey.get(entry.key)?.[0] && storedByKey.get(entry.key)![0].id !== entry.stepId)
      .map((entry) => `${entry.key}: answered step ${entry.stepId}, stored ${storedByKey.get(entry.key)![0].id}`);
    const duplicatedKeys = [...storedByKey].filter(([, list]) => list.length > 1).map(([key, list]) => `${key} stored ${list.length} times`);
    const perVisitStep = new Map<string, number>();
    for (const row of rows) perVisitStep.set(`${row.appointment_id} ${row.step}`, (perVisitStep.get(`${row.appointment_id} ${row.step}`) ?? 0) + 1);
    const duplicatedSteps = [...perVisitStep].filter(([, count]) => count > 1).map(([key, count]) => `visit ${key} stored ${count} times`);
    const unasked = rows.filter((row) => !stepLog.sent.get(row.idempotency_key)?.stepId).map((row) => `${row.idempotency_key} stored but not answered 2xx`);
    // Each stepped visit ends in the state of its last step answered 2xx.
    const expected = new Map<number, VisitState>();
    for (const entry of acknowledged) expected.set(entry.appointmentId, entry.step);
    const wrongState = [...expected].filter(([id, state]) => states.get(id) !== state).map(([id, state]) => `visit ${id}: ${states.get(id)}, last step ${state}`);

    // For each stored step: how long until a coordinator's poll first showed it, and until each coordinator's did.
    const first: number[] = [];
    const each: number[] = [];
    let neverShown = 0;
    for (const row of rows) {
      const recorded = row.recorded_at.getTime();
      const shown = LiveView.shownAt(live.firstShown, row.appointment_id, row.step);
      if (shown === null) neverShown += 1;
      else first.push(Math.max(0, shown - recorded));
      for (const mine of live.shownTo) {
        const at = LiveView.shownAt(mine, row.appointment_id, row.step);
        if (at !== null) each.push(Math.max(0, at - recorded));
      }
    }
    const figures = (values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b);
      return { count: sorted.length, 'p50 s': round(quantile(sorted, 0.5) / 1000, 2), 'p95 s': round(quantile(sorted, 0.95) / 1000, 2), 'p99 s': round(quantile(sorted, 0.99) / 1000, 2), 'max s': round((sorted.at(-1) ?? NaN) / 1000, 2) };
    };
    const byMode = Object.fromEntries((['once', 'retry', 'concurrent'] as const).map((mode) => [mode, sent.filter((entry) => entry.mode === mode).length]));
    const byStep = Object.fromEntries((['on_my_way', 'arrived', 'done', 'could_not_attend'] as const).map((step) => [step, rows.filter((row) => row.step === step).length]));
    return {
      practitioners: new Set(sent.map((entry) => entry.practitioner)).size, visits: stepped.length, planned: stepLog.planned,
      stepsSent: sent.length, requests: stepLog.requests, byMode, acknowledged: acknowledged.length, stored: rows.length, byStep,
      lost, duplicatedKeys, duplicatedSteps, unasked, wrongId, wrongState, contract: stepLog.contract, abandoned: stepLog.abandoned,
      polls: live.polls, neverShown, firstShown: figures(first), eachCoordinator: figures(each),
    };
  } finally {
    await db.end();
  }
}

export type StepCheck = Awaited<ReturnType<typeof checkSteps>>;

/** The goal: every step stored once, none lost, shown to a coordinator within 15 s (p99). */
export function stepsMet(check: StepCheck): boolean {
  return check.stepsSent > 0 && check.lost.length === 0 && check.duplicatedKeys.length === 0 && check.duplicatedSteps.length === 0
    && check.unasked.length === 0 && check.wrongId.length === 0 && check.wrongState.length === 0 && check.contract.length === 0
    && check.neverShown === 0 && check.firstShown['p99 s'] <= 15;
}
