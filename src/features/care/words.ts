// Travel as the open visits page says it.

/** 0 → "0 min", 754 → "13 min", 3900 → "1 h 5 min". */
export function travelText(seconds: number): string {
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const rest = minutes % 60;
  return rest ? `${Math.floor(minutes / 60)} h ${rest} min` : `${minutes / 60} h`;
}

/** A server's line about one field ("starts_at: the visit must …") as a sentence on its own ("The visit must …"). */
export function sentenceOf(line: string): string {
  const match = /^[a-z][a-z0-9_]*(?:\.[a-z0-9_]+)*:\s+(\S.*)$/.exec(line);
  if (!match) return line;
  return match[1].charAt(0).toUpperCase() + match[1].slice(1);
}
