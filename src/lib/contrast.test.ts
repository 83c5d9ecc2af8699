import { describe, expect, it } from 'vitest';
import { textColorOn } from './contrast';

const luminance = (hex: string) => {
  const [r, g, b] = [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16) / 255).map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
const contrast = (a: string, b: string) => {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
};

describe('words on a chosen colour', () => {
  it('are white on dark colours and black on light ones', () => {
    expect(textColorOn('#1d4ed8')).toBe('#ffffff');
    expect(textColorOn('#4f46e5')).toBe('#ffffff');
    expect(textColorOn('#fde047')).toBe('#000000');
    expect(textColorOn('#ef4444')).toBe('#000000');
  });

  it('read at 4.5:1 or better on every colour a type or practitioner gets by default, and on a sweep of greys and hues', () => {
    const colours = ['#0284c7', '#16a34a', '#9333ea', '#ea580c', '#db2777', '#0d9488', '#ca8a04', '#4f46e5', '#ef4444'];
    for (let value = 0; value < 256; value += 17) {
      const hex = value.toString(16).padStart(2, '0');
      colours.push(`#${hex}${hex}${hex}`, `#${hex}0000`, `#00${hex}00`, `#0000${hex}`);
    }
    for (const colour of colours) expect(contrast(colour, textColorOn(colour)), colour).toBeGreaterThanOrEqual(4.5);
  });

  it('stay white for what is not a #rrggbb colour', () => {
    expect(textColorOn('red')).toBe('#ffffff');
  });
});
