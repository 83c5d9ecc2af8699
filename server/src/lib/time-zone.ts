// The one rule for a time zone the API accepts: an IANA name (e.g. "Australia/Brisbane"), stored in its canonical
// spelling. Offsets such as "+10:00" are refused: they do not follow daylight saving.

/** The canonical spelling of an IANA time zone name ("australia/brisbane" → "Australia/Brisbane"); null when it is none. */
export function canonicalTimeZone(name: string): string | null {
  // Building an Intl.DateTimeFormat is slow and the answer never changes: each name is resolved once.
  let canonical = canonicalNames.get(name);
  if (canonical === undefined) {
    canonical = resolveTimeZone(name);
    if (canonicalNames.size >= 1000) canonicalNames.clear();
    canonicalNames.set(name, canonical);
  }
  return canonical;
}

const canonicalNames = new Map<string, string | null>();

function resolveTimeZone(name: string): string | null {
  if (!/^[A-Za-z]/.test(name.trim())) return null;
  try {
    return new Intl.DateTimeFormat('en', { timeZone: name.trim() }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}
