import { describe, expect, it } from 'vitest';
import { plural } from './plural';

describe('plural', () => {
  it('says one thing in the singular, and none or several in the plural', () => {
    expect(plural(1, 'visit')).toBe('1 visit');
    expect(plural(0, 'visit')).toBe('0 visits');
    expect(plural(4, 'visit')).toBe('4 visits');
    expect(plural(1221, 'appointment')).toBe('1,221 appointments');
    expect(plural(2, 'visit changes', 'visits change')).toBe('2 visits change');
    expect(plural(1, 'visit changes', 'visits change')).toBe('1 visit changes');
  });
});
