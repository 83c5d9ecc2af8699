// The one form of an email address Rounds stores, looks users up by and keys the login and reset throttles with, so
// that every spelling reaching an account is one string, compared by equality: compatibility forms folded (NFKC:
// full-width letters, ligatures such as ﬁ, composed and decomposed accents), surrounding spaces trimmed, and each
// character lower-cased on its own (Unicode's default mapping: İ → i̇, ẞ → ß, Σ → σ wherever it stands). SQL's lower()
// is never used for it: its answer depends on the database's locale and differs from this for İ, Σ and others.
// Migration 0095 computes the same in SQL for the addresses stored before it (tests/api/email-normal-form.test.ts).
export function normalEmail(typed: string): string {
  const compatible = typed.normalize('NFKC').trim();
  let lowered = '';
  for (const character of compatible) lowered += character.toLowerCase();
  return lowered.normalize('NFKC');
}
