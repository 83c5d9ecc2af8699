import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clientWindows, type ClientVisitTimes } from './client-windows';
import { dayIssues, newHardIssues, type CheckedVisit } from './day-check';
import { ruleBookOf, type TypeRules } from './rules';

const H = 3600;
const clock = (seconds: number) => `${String(Math.floor(seconds / H)).padStart(2, '0')}:${String(Math.floor((seconds % H) / 60)).padStart(2, '0')}`;
const rules = ruleBookOf({ tolerance_minutes: 30, client_gap_minutes: 60, availability_mode: 'hard' }, new Map<number, TypeRules>([
  [7, { tolerance_minutes: 120, same_type_gap_minutes: null }],
  [8, { tolerance_minutes: null, same_type_gap_minutes: 240 }],
]));

const visit = (id: number, fields: Partial<CheckedVisit>): CheckedVisit => ({
  id, practitionerId: fields.practitionerId ?? 1, bookedPractitionerId: fields.practitionerId ?? 1, practitionerName: 'Harper Walker', clientId: 10, clientName: 'Dorothy Ryan', typeId: null,
  booked: 9 * H, duration: 45 * 60, start: 9 * H, availability: null, shift: null, ...fields,
});

describe('the rule book', () => {
  it('takes a type’s tolerance over the business’s, and the same-type gap between two visits of that type', () => {
    expect(rules.toleranceOf(null)).toBe(30 * 60);
    expect(rules.toleranceOf(7)).toBe(120 * 60);
    expect(rules.gapBetween(null, 8)).toBe(60 * 60);
    expect(rules.gapBetween(8, 8)).toBe(240 * 60);
  });
});

describe('the day checker', () => {
  it('names two practitioners in one client’s home at once, and a visit moved hours from its booking', () => {
    const issues = dayIssues([
      visit(1, { booked: 13 * H, start: 13 * H + 5 * 60 }),
      visit(2, { practitionerId: 2, practitionerName: 'Amelia Brown', booked: 15 * H, start: 13 * H + 15 * 60 }),
      visit(3, { clientId: 11, clientName: 'Mei Lee', booked: 8 * H, start: 16 * H + 20 * 60 }),
    ], rules, clock);
    expect(issues.map((issue) => [issue.rule, issue.hard, issue.appointmentIds])).toEqual([
      ['client-overlap', true, [1, 2]],
      ['tolerance', true, [2]],
      ['tolerance', true, [3]],
    ]);
    expect(issues[0].message).toBe('Dorothy Ryan has two visits at once: 13:05–13:50 with Harper Walker and 13:15–14:00 with Amelia Brown.');
    expect(issues[2].message).toBe("Mei Lee's visit booked 08:00 arrives 16:20: more than 30 min from the booked time.");
  });

  it('holds a client’s visits in booked order, apart by the gap, and a two-carer visit together', () => {
    const issues = dayIssues([
      visit(1, { booked: 8 * H + 30 * 60, start: 12 * H + 50 * 60, typeId: 7 }),
      visit(2, { booked: 12 * H + 35 * 60, start: 12 * H + 35 * 60 - 45 * 60 - 10 * 60, practitionerId: 2, practitionerName: 'Amelia Brown' }),
      visit(3, { clientId: 12, clientName: 'Paul Murray', booked: 10 * H, start: 10 * H }),
      visit(4, { clientId: 12, clientName: 'Paul Murray', booked: 10 * H, start: 10 * H + 10 * 60, practitionerId: 2, practitionerName: 'Amelia Brown' }),
    ], rules, clock);
    expect(issues.filter((issue) => issue.rule === 'spacing').map((issue) => issue.message)).toEqual([
      "Dorothy Ryan's visits are out of their booked order: the one booked 12:35 is now before the one booked 08:30.",
    ]);
    expect(issues.filter((issue) => issue.rule === 'double-handed').map((issue) => issue.message)).toEqual([
      "Paul Murray's two-carer visit booked 10:00: Harper Walker arrives 10:00, Amelia Brown 10:10.",
    ]);
    expect(issues.some((issue) => issue.rule === 'client-overlap')).toBe(false);
  });

  it('counts outside availability as hard only when availability is hard, and working hours as soft', () => {
    const soft = ruleBookOf({ tolerance_minutes: 30, client_gap_minutes: 60, availability_mode: 'soft' }, new Map());
    const visits = [visit(1, { availability: [{ start: 12 * H, end: 15 * H }], shift: { start: 10 * H, end: 17 * H } })];
    expect(dayIssues(visits, rules, clock).map((issue) => [issue.rule, issue.hard])).toEqual([['availability', true], ['working-hours', false]]);
    expect(dayIssues(visits, soft, clock).map((issue) => [issue.rule, issue.hard])).toEqual([['availability', false], ['working-hours', false]]);
  });
});

describe('client windows', () => {
  const times = (fields: Partial<ClientVisitTimes>): ClientVisitTimes => ({
    clientId: 10, typeId: null, booked: 9 * H, duration: 45 * 60, current: 9 * H, own: [{ start: 8.5 * H, end: 9.5 * H }], ...fields,
  });

  it('splits the room between two visits that are far enough apart, so neither can come closer', () => {
    const [first, second] = clientWindows([
      times({ booked: 9 * H, current: 9 * H, own: [{ start: 8.5 * H, end: 9.5 * H }] }),
      times({ booked: 10 * H + 50 * 60, current: 10 * H + 50 * 60, own: [{ start: 10 * H + 20 * 60, end: 11 * H + 20 * 60 }] }),
    ], rules);
    expect(first).toEqual([{ start: 8.5 * H, end: 9 * H + 2.5 * 60 }]);
    expect(second).toEqual([{ start: 9 * H + 2.5 * 60 + 105 * 60, end: 11 * H + 20 * 60 }]);
  });

  it('keeps both visits of a pair at their times when they cannot be kept apart, and two visits booked at one time as they are', () => {
    expect(clientWindows([times({}), times({ booked: 9.5 * H, current: 9.5 * H, own: [{ start: 9 * H, end: 10 * H }] })], rules)).toEqual([null, null]);
    // Room enough to part them (tolerance 3 h), yet booked together: a two-carer visit, or one practitioner's two services.
    const wide = [{ start: 6 * H, end: 12 * H }];
    expect(clientWindows([times({ own: wide, duration: 15 * 60 }), times({ own: wide, duration: 15 * 60 })], rules)).toEqual([null, null]);
  });

  // Any starts inside the windows leave the client's day no worse by the checker than it is now.
  it('never lets a plan break a client rule the day does not already break (property)', () => {
    const visitArb = fc.record({
      booked: fc.integer({ min: 6 * 12, max: 18 * 12 }).map((step) => step * 300),
      shift: fc.integer({ min: -8, max: 8 }).map((steps) => steps * 900),
      duration: fc.integer({ min: 2, max: 18 }).map((steps) => steps * 300),
      typeId: fc.constantFrom(null, 7, 8),
      practitionerId: fc.integer({ min: 1, max: 3 }),
      kept: fc.boolean(),
      clientId: fc.integer({ min: 1, max: 3 }),
    });
    fc.assert(fc.property(fc.array(visitArb, { minLength: 1, maxLength: 7 }), fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 7, maxLength: 7 }), (drawn, picks) => {
      const input: ClientVisitTimes[] = drawn.map((v) => {
        const tolerance = rules.toleranceOf(v.typeId);
        return {
          clientId: v.clientId, typeId: v.typeId, booked: v.booked, duration: v.duration,
          current: v.booked + v.shift, own: v.kept ? null : [{ start: v.booked - tolerance, end: v.booked + tolerance }],
        };
      });
      const windows = clientWindows(input, rules);
      const checked = (starts: number[]) => input.map((v, index): CheckedVisit => ({
        id: index + 1, practitionerId: drawn[index].practitionerId, bookedPractitionerId: drawn[index].practitionerId,
        practitionerName: `P${drawn[index].practitionerId}`, clientId: v.clientId, clientName: `C${v.clientId}`,
        typeId: v.typeId, booked: v.booked, duration: v.duration, start: starts[index], availability: null, shift: null,
      }));
      const starts = input.map((v, index) => {
        const own = windows[index];
        if (own === null) return v.current;
        const window = own[Math.floor(picks[index] * own.length) % own.length];
        return window.start + picks[index] * (window.end - window.start);
      });
      const before = dayIssues(checked(input.map((v) => v.current)), rules, clock).filter((issue) => issue.rule !== 'practitioner-overlap');
      const after = dayIssues(checked(starts), rules, clock).filter((issue) => issue.rule !== 'practitioner-overlap');
      expect(newHardIssues(before, after)).toEqual([]);
    }), { seed: 24, numRuns: 2000 });
  });
});
