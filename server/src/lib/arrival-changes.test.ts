import { describe, expect, it } from 'vitest';
import { etaReplanMinutesProblem, isToldArrivalChange } from './arrival-changes';

const at = (clock: string) => `2026-12-01T${clock}:00.000Z`;
const NOW = at('11:00');

describe('which clients a re-plan tells', () => {
  it('tells a move of at least the setting, either way, while the new arrival is ahead', () => {
    expect(isToldArrivalChange({ before: at('13:00'), after: at('13:15') }, 15, NOW)).toBe(true);
    expect(isToldArrivalChange({ before: at('13:00'), after: at('12:45') }, 15, NOW)).toBe(true);
    expect(isToldArrivalChange({ before: at('13:00'), after: at('13:14') }, 15, NOW)).toBe(false);
    expect(isToldArrivalChange({ before: at('13:00'), after: at('13:14') }, 10, NOW)).toBe(true);
  });

  it('tells a client whose practitioner changes, however little the arrival moves', () => {
    expect(isToldArrivalChange({ before: at('13:00'), after: at('13:05'), practitionerBefore: 1, practitionerAfter: 2 }, 15, NOW)).toBe(true);
    expect(isToldArrivalChange({ before: at('13:00'), after: at('13:00'), practitionerBefore: 1, practitionerAfter: 2 }, 15, NOW)).toBe(true);
    expect(isToldArrivalChange({ before: at('13:00'), after: at('13:05'), practitionerBefore: 1, practitionerAfter: 1 }, 15, NOW)).toBe(false);
    expect(isToldArrivalChange({ before: at('12:00'), after: at('10:30'), practitionerBefore: 1, practitionerAfter: 2 }, 15, NOW)).toBe(false);
  });

  it('does not tell an arrival already passed', () => {
    expect(isToldArrivalChange({ before: at('12:00'), after: at('10:30') }, 15, NOW)).toBe(false);
    expect(isToldArrivalChange({ before: at('12:00'), after: NOW }, 15, NOW)).toBe(false);
  });

  it('keeps the setting to whole minutes from 5 to 240, naming the field', () => {
    for (const good of [5, 15, 240]) expect(etaReplanMinutesProblem(good)).toBeNull();
    for (const bad of [4, 241, 7.5, '15', null]) expect(etaReplanMinutesProblem(bad)).toContain('eta_replan_minutes');
  });
});
