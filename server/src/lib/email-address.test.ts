import { describe, expect, it } from 'vitest';
import { normalEmail } from './email-address';

describe('normalEmail', () => {
  it('writes each spelling of one address the same way, and other letters apart', () => {
    expect(normalEmail('  Mirin@Demo.TEST ')).toBe('mirin@demo.test');
    expect(normalEmail('ｍｉｒｉｎ＠ｄｅｍｏ．ｔｅｓｔ')).toBe('mirin@demo.test');
    expect(normalEmail('ﬁona@demo.test')).toBe('fiona@demo.test');
    expect(normalEmail('JOSE\u0301@demo.test')).toBe(normalEmail('josé@demo.test'));
    expect(normalEmail('STRAẞE@demo.test')).toBe('straße@demo.test');
    expect(normalEmail('ΟΔΟΣ@demo.test')).toBe('οδοσ@demo.test');
    // The capital dotted İ is i with a dot above, the dotless ı another letter: neither is plain i.
    expect(normalEmail('mİrin@demo.test')).toBe('mi\u0307rin@demo.test');
    expect(normalEmail('mırin@demo.test')).toBe('mırin@demo.test');
    expect(normalEmail('strasse@demo.test')).not.toBe(normalEmail('straße@demo.test'));
  });

  it('is its own normal form for every character (stored addresses are looked up by the same function)', () => {
    for (let codePoint = 0; codePoint <= 0x10ffff; codePoint++) {
      if (codePoint >= 0xd800 && codePoint <= 0xdfff) continue;
      const once = normalEmail(`a${String.fromCodePoint(codePoint)}b`);
      if (normalEmail(once) !== once) expect.fail(`U+${codePoint.toString(16)}: ${once} → ${normalEmail(once)}`);
    }
  });
});
