// Address text rules shared by the geocoders: normal forms for matching and cache keys, Australian states, one-line
// labels, and reading a suburb/state/postcode written into an address line.
import type { AddressParts } from './types';

const STREET_WORDS: [RegExp, string][] = [
  [/\bst\b/g, 'street'], [/\brd\b/g, 'road'], [/\btce\b/g, 'terrace'], [/\bave?\b/g, 'avenue'], [/\bdr\b/g, 'drive'],
  [/\bpde\b/g, 'parade'], [/\bcres\b/g, 'crescent'], [/\bct\b/g, 'court'], [/\bpl\b/g, 'place'], [/\bhwy\b/g, 'highway'],
  [/\bln\b/g, 'lane'], [/\bbvd\b|\bblvd\b/g, 'boulevard'], [/\bcct\b/g, 'circuit'], [/\besp\b/g, 'esplanade'],
];

/**
 * The street part of a line for an online lookup: a unit or level in front of the house number is dropped
 * ("Unit 3, 12 Smith St" and "3/12 Smith St" → "12 Smith St"), since street geocoders place the building.
 */
export function streetForLookup(line: string | null | undefined): string {
  return (line ?? '').trim()
    .replace(/^(unit|u|apartment|apt|flat|suite|shop|level|lvl)\s*\d+[a-z]?\s*[,/]?\s*/i, '')
    .replace(/^[\w-]+\s*\/\s*(?=\d)/, '')
    .trim();
}

/** The address line that names the street (a house number then a word), ready for an online lookup; '' when none. */
export function streetLine(parts: AddressParts): string {
  const lines = [parts.address_1, parts.address_2].map(streetForLookup).filter(Boolean);
  return lines.find((line) => /\d+[a-z]?\s+[a-z]/i.test(line)) ?? lines[0] ?? '';
}

/** Lower case, letters and digits only, single spaces. */
export function simplify(text: string | null | undefined): string {
  return (text ?? '').normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ').trim();
}

/** A street line in a normal form: "12 Merthyr Rd." and "12 merthyr road" read the same. */
export function normaliseStreetLine(text: string | null | undefined): string {
  let line = simplify(text);
  for (const [pattern, word] of STREET_WORDS) line = line.replace(pattern, word);
  return line;
}

/** A suburb name in the form the gazetteer indexes: "Mt Gravatt" → "mount gravatt", "Saint Lucia" → "st lucia". */
export function normaliseLocality(text: string | null | undefined): string {
  return simplify(text).replace(/\bmt\b/g, 'mount').replace(/\bsaint\b/g, 'st').replace(/\bpt\b/g, 'point');
}

const STATES: Record<string, string> = {
  qld: 'QLD', queensland: 'QLD', nsw: 'NSW', 'new south wales': 'NSW', vic: 'VIC', victoria: 'VIC',
  sa: 'SA', 'south australia': 'SA', wa: 'WA', 'western australia': 'WA', tas: 'TAS', tasmania: 'TAS',
  nt: 'NT', 'northern territory': 'NT', act: 'ACT', 'australian capital territory': 'ACT',
};

/** "Queensland", "qld" → "QLD"; null for anything else. */
export function stateCode(text: string | null | undefined): string | null {
  return STATES[simplify(text)] ?? null;
}

/** A four-digit Australian postcode, or null. */
export function postcodeOf(text: string | null | undefined): string | null {
  const digits = (text ?? '').trim();
  return /^\d{3,4}$/.test(digits) ? digits.padStart(4, '0') : null;
}

/** No country (the product's providers are Australian) or Australia. */
export function isAustralian(country: string | null | undefined): boolean {
  const name = simplify(country);
  return name === '' || name === 'au' || name === 'aus' || name === 'australia';
}

/** Whether there is anything to geocode: a street line, a suburb or a postcode. */
export function hasAddress(parts: AddressParts): boolean {
  return [parts.address_1, parts.address_2, parts.city, parts.post_code].some((part) => (part ?? '').trim() !== '');
}

/** The cache key of an address: its parts in normal form (the same address typed differently shares a key). */
export function addressKey(parts: AddressParts): string {
  return [
    normaliseStreetLine(parts.address_1), normaliseStreetLine(parts.address_2), normaliseLocality(parts.city),
    stateCode(parts.state) ?? simplify(parts.state), postcodeOf(parts.post_code) ?? simplify(parts.post_code),
    isAustralian(parts.country) ? 'australia' : simplify(parts.country),
  ].join('|').slice(0, 1000);
}

/** "12 Merthyr Road, Unit 3, New Farm QLD 4005, Australia" (what is there of it). */
export function oneLine(parts: AddressParts): string {
  const place = [parts.city, parts.state, parts.post_code].map((part) => part?.trim()).filter(Boolean).join(' ');
  return [parts.address_1, parts.address_2, place, parts.country].map((part) => part?.trim()).filter(Boolean).join(', ');
}

const STATE_PATTERN = /\b(QLD|NSW|VIC|SA|WA|TAS|NT|ACT|Queensland|New South Wales|Victoria|South Australia|Western Australia|Tasmania|Northern Territory|Australian Capital Territory)\b/i;

/**
 * The suburb, state and postcode when they are written into the address lines instead of their own fields
 * ("1 Smith St, New Farm QLD 4005"): the suburb is taken only from a segment after a comma.
 */
export function placeFromLines(parts: AddressParts): { city: string | null; state: string | null; post_code: string | null } {
  const text = [parts.address_1, parts.address_2].filter(Boolean).join(', ');
  const segments = text.split(',').map((segment) => segment.trim()).filter(Boolean);
  let last = segments.length > 1 ? segments[segments.length - 1] : (segments[0] ?? '');
  if (/^australia$/i.test(last) && segments.length > 2) last = segments[segments.length - 2];
  const postcode = last.match(/\b(\d{4})\s*$/)?.[1] ?? null;
  const state = last.match(STATE_PATTERN)?.[1] ?? null;
  let city: string | null = null;
  if (segments.length > 1) {
    const rest = last.replace(/\b\d{4}\s*$/, '').replace(STATE_PATTERN, '').trim();
    if (rest && !/\d/.test(rest)) city = rest;
  }
  return { city, state: state ? stateCode(state) : null, post_code: postcode };
}
