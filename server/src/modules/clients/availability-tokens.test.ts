import { describe, expect, it } from 'vitest';
import { hashToken } from '../../auth/tokens';
import { issueAvailabilityToken, verifiedTokenHash } from './availability-tokens';

const SECRET = 'a-secret-of-at-least-thirty-two-characters';

describe('availability link tokens', () => {
  it('verifies a token it issued and gives the stored hash', () => {
    const { token, tokenHash } = issueAvailabilityToken(SECRET);
    expect(tokenHash).toBe(hashToken(token));
    expect(verifiedTokenHash(SECRET, token)).toBe(tokenHash);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{32}$/);
  });

  it('issues a different token every time', () => {
    expect(issueAvailabilityToken(SECRET).token).not.toBe(issueAvailabilityToken(SECRET).token);
  });

  it('refuses tokens signed with another secret, tampered with, or malformed', () => {
    const { token } = issueAvailabilityToken(SECRET);
    const [random, signature] = token.split('.');
    expect(verifiedTokenHash('another-secret-of-at-least-thirty-two-chars', token)).toBeNull();
    expect(verifiedTokenHash(SECRET, `${random.startsWith('A') ? 'B' : 'A'}${random.slice(1)}.${signature}`)).toBeNull();
    expect(verifiedTokenHash(SECRET, `${random}.${signature.slice(0, -1)}`)).toBeNull();
    for (const bad of ['', '.', random, `${token}.extra`, `.${signature}`]) expect(verifiedTokenHash(SECRET, bad)).toBeNull();
  });
});
