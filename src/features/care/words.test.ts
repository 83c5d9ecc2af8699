import { describe, expect, it } from 'vitest';
import { sentenceOf, travelText } from './words';

describe('the open visits page’s words', () => {
  it('reads a server line about a field as a sentence, and leaves other lines as they are', () => {
    expect(sentenceOf('starts_at: the visit must take place inside its window (Monday 14 December, 07:30–09:00).'))
      .toBe('The visit must take place inside its window (Monday 14 December, 07:30–09:00).');
    expect(sentenceOf('Pat Nguyen is already at Peter Cooper’s at 07:45.')).toBe('Pat Nguyen is already at Peter Cooper’s at 07:45.');
    expect(sentenceOf('Note: nothing')).toBe('Note: nothing');
  });

  it('says travel in minutes, then hours and minutes', () => {
    expect(travelText(0)).toBe('0 min');
    expect(travelText(754)).toBe('13 min');
    expect(travelText(3600)).toBe('1 h');
    expect(travelText(3900)).toBe('1 h 5 min');
  });
});
