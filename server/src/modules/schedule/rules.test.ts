import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clientWindows, type ClientVisitTimes } from './client-windows';
import { dayIssues, newHardIssues, type CheckedVisit } from './day-check';
import { ruleBookOf, type TypeRules } from './rules';

const H = 3600;
const clock = (seconds: number) => `${String(Math.floor(seconds / H)).padStart(2, '0')}:${String(Math.floor((seconds % H) / 60)).padStart(2, '0')}`;
const rules = ruleBookOf({ tolerance_minutes: 30, client_gap_minutes: 60, availability_mode: 'hard' }, new Map<number, TypeRules>([
  [7, { tolerance_minutes: 120, same_type_gap_minutes: null, name: 'Personal care' }],
  [8, { tolerance_minutes: null, same_type_gap_minutes: 240 }],
  [9, { tolerance_minutes: null, same_type_gap_minutes: null, needs_two_practitioners: true, name: 'Personal care' }],
]));

const visit = (id: number, fields: Partial<CheckedVisit>): CheckedVisit => ({
  id, practitionerId: fields.practitionerId ?? 1, bookedPractitionerId: fields.practitionerId ?? 1, practitionerName: 'Harper Walker', clientId: 10, clientName: 'Dorothy Ryan', typeId: null,
  booked: 9 * H, duration: 45 * 60, start: 9 * H, availability: null, shift: null, leave: [], skills: null, excludedPractitionerIds: [], ...fields,
});

describe('the rule book', () => {
  it('takes a type’s tolerance over the business’s, and the same-type gap between two visits of that type', () => {
    expect(rules.toleranceOf(null)).toBe(30 * 60);
    expect(rules.toleranceOf(7)).toBe(120 * 60);
    expect(rules.gapBetween(null, 8)).toBe(60 * 60);
    expect(rules.gapBetween(8, 8)).toBe(240 * 60);
  });

  it('knows the types whose visits need two practitioners', () => {
    expect([null, 7, 8, 9, 99].map((typeId) => rules.needsTwo(typeId))).toEqual([false, false, false, true, false]);
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

  it('names a visit of a two-practitioner type booked with one practitioner only, and not one with its partner', () => {
    const issues = dayIssues([
      visit(1, { typeId: 9, clientName: 'Mrs Ryan', practitionerName: 'Amelia Brown' }),
      // Paul Murray's pair: one half of the flagged type, the other of none, with another practitioner at the same time.
      visit(2, { clientId: 12, typeId: 9 }),
      visit(3, { clientId: 12, typeId: null, practitionerId: 2, practitionerName: 'Amelia Brown' }),
      // Mei Lee's second booking at that time is with the same practitioner: no partner.
      visit(4, { clientId: 13, clientName: 'Mei Lee', typeId: 9, booked: 14 * H, start: 14 * H }),
      visit(5, { clientId: 13, clientName: 'Mei Lee', typeId: 9, booked: 14 * H, start: 14 * H }),
    ], rules, clock);
    expect(issues.filter((issue) => issue.rule === 'double-handed').map((issue) => [issue.hard, issue.appointmentIds, issue.message])).toEqual([
      [true, [1], "Mrs Ryan's Personal care at 09:00 needs two practitioners; only Amelia Brown is booked."],
      [true, [4], "Mei Lee's Personal care at 14:00 needs two practitioners; only Harper Walker is booked."],
      [true, [5], "Mei Lee's Personal care at 14:00 needs two practitioners; only Harper Walker is booked."],
    ]);
  });

  it('counts outside availability as hard only when availability is hard, and working hours as soft', () => {
    const soft = ruleBookOf({ tolerance_minutes: 30, client_gap_minutes: 60, availability_mode: 'soft' }, new Map());
    const visits = [visit(1, { availability: [{ start: 12 * H, end: 15 * H }], shift: { start: 10 * H, end: 17 * H } })];
    expect(dayIssues(visits, rules, clock).map((issue) => [issue.rule, issue.hard])).toEqual([['availability', true], ['working-hours', false]]);
    expect(dayIssues(visits, soft, clock).map((issue) => [issue.rule, issue.hard])).toEqual([['availability', false], ['working-hours', false]]);
  });
});

describe('the practitioner rules', () => {
  it('names a visit in its practitioner’s leave, with one who does not deliver its type, and with one the client asked not to see', () => {
    const issues = dayIssues([
      visit(1, { start: 13 * H, booked: 13 * H, leave: [{ start: 12 * H, end: 17 * H }] }),
      visit(2, { clientId: 11, clientName: 'Mei Lee', typeId: 7, skills: [8] }),
      visit(3, { clientId: 12, clientName: 'Paul Murray', booked: 16 * H, start: 16 * H, excludedPractitionerIds: [1] }),
      // Leave that ends as the visit starts, a practitioner who delivers the type, and one not excluded: no problem.
      visit(4, { clientId: 13, booked: 17 * H, start: 17 * H, leave: [{ start: 12 * H, end: 17 * H }], typeId: 7, skills: [7], excludedPractitionerIds: [2] }),
    ], rules, clock);
    expect(issues.map((issue) => [issue.rule, issue.hard, issue.appointmentIds])).toEqual([
      ['on-leave', true, [1]],
      ['skills', true, [2]],
      ['excluded-practitioner', true, [3]],
    ]);
    expect(issues.map((issue) => issue.message)).toEqual([
      'Dorothy Ryan 13:00–13:45 is booked with Harper Walker, who is on leave 12:00–17:00.',
      'Mei Lee 09:00–09:45 is with Harper Walker, who does not deliver Personal care.',
      'Paul Murray has asked not to be visited by Harper Walker (visit 16:00–16:45).',
    ]);
  });

  it('says the travel gap in the whole minutes the schedule shows beside the visit ("needs 6 min"), never "has 5 min … takes about 5 min"', () => {
    const day = [
      visit(1, { clientId: 11, clientName: 'Mei Lee', booked: 10 * H, start: 10 * H }),
      visit(2, { clientId: 12, clientName: 'Paul Murray', booked: 10 * H + 50 * 60, start: 10 * H + 50 * 60 }),
    ];
    // 5 min between Mei's end (10:45) and Paul's start; the journey takes 5 min 10 s, which the block rounds up to 6.
    const issues = dayIssues(day, rules, clock, () => 5 * 60 + 10);
    expect(issues.map((issue) => issue.message)).toEqual(['Harper Walker has 5 min to get from Mei Lee (ends 10:45) to Paul Murray (10:50); the journey takes about 6 min.']);
  });

  it('says "all day" of leave that covers the whole day', () => {
    const [issue] = dayIssues([visit(1, { start: 13 * H, booked: 13 * H, leave: [{ start: 0, end: 24 * H }] })], rules, clock);
    expect(issue.message).toBe('Dorothy Ryan 13:00–13:45 is booked with Harper Walker, who is on leave all day.');
  });

  it('names too little time to travel between a practitioner’s consecutive visits, as a soft problem', () => {
    const day = [
      visit(1, { booked: 9 * H, start: 9 * H }),
      visit(2, { clientId: 11, clientName: 'Mei Lee', booked: 10 * H, start: 10 * H }),
      visit(3, { clientId: 12, clientName: 'Paul Murray', booked: 11 * H, start: 11 * H }),
      visit(4, { clientId: 13, practitionerId: 2, practitionerName: 'Amelia Brown', booked: 9 * H + 50 * 60, start: 9 * H + 50 * 60 }),
    ];
    // 15 minutes' travel between visits, 40 to Paul's: Harper has 15 minutes before Mei's (enough) and before Paul's (not).
    const travel = (_from: CheckedVisit, to: CheckedVisit) => (to.id === 3 ? 40 * 60 : 15 * 60);
    const issues = dayIssues(day, rules, clock, travel);
    expect(issues.map((issue) => [issue.rule, issue.hard, issue.appointmentIds])).toEqual([['travel-time', false, [2, 3]]]);
    expect(issues[0].message).toBe('Harper Walker has 15 min to get from Mei Lee (ends 10:45) to Paul Murray (11:00); the journey takes about 40 min.');
    // Without travel times the rule is not checked; an unknown leg (no map point) is no problem.
    expect(dayIssues(day, rules, clock)).toEqual([]);
    expect(dayIssues(day, rules, clock, () => null)).toEqual([]);
  });

  it('counts a visit newly put in leave, with a practitioner without the skill, or an excluded one as worse; a new travel problem is not', () => {
    const before = dayIssues([visit(1, {}), visit(2, { clientId: 11, start: 10 * H, booked: 10 * H })], rules, clock, () => 30 * 60);
    const after = dayIssues([
      visit(1, { leave: [{ start: 8 * H, end: 9.5 * H }], skills: [8], typeId: 7, excludedPractitionerIds: [1] }),
      visit(2, { clientId: 11, start: 9 * H + 50 * 60, booked: 9 * H + 50 * 60 }),
    ], rules, clock, () => 30 * 60);
    expect(newHardIssues(before, after).map((issue) => issue.rule)).toEqual(['on-leave', 'skills', 'excluded-practitioner']);
    expect(after.some((issue) => issue.rule === 'travel-time')).toBe(true);
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

  it('keeps a visit that needs two practitioners at its time, alone or not, and leaves room around it for the client’s others', () => {
    const [flagged, later] = clientWindows([
      times({ typeId: 9 }),
      times({ booked: 12 * H, current: 12 * H, own: [{ start: 10 * H, end: 12.5 * H }] }),
    ], rules);
    expect(flagged).toBeNull();
    expect(later).toEqual([{ start: 9 * H + 45 * 60 + 60 * 60, end: 12.5 * H }]);
  });

  // Any starts inside the windows leave the client's day no worse by the checker than it is now.
  it('never lets a plan break a client rule the day does not already break (property)', () => {
    const visitArb = fc.record({
      booked: fc.integer({ min: 6 * 12, max: 18 * 12 }).map((step) => step * 300),
      shift: fc.integer({ min: -8, max: 8 }).map((steps) => steps * 900),
      duration: fc.integer({ min: 2, max: 18 }).map((steps) => steps * 300),
      typeId: fc.constantFrom(null, 7, 8, 9),
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
        leave: [], skills: null, excludedPractitionerIds: [],
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
