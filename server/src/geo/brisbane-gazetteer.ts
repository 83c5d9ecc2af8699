/**
 * Bundled Brisbane gazetteer: suburbs (with post codes and approximate centroids) and a handful of real
 * street names per suburb, so the product can place Brisbane addresses on a map with no network.
 *
 * Accuracy: suburb centroids are approximate (within roughly a kilometre). Street geometry is NOT surveyed:
 * each street is modelled as a straight segment near its suburb's centroid whose position, bearing and
 * length are derived deterministically from the street name, and house numbers are interpolated along it.
 * That is enough for realistic demo routes and for consistent geocoding (the same address always gives the
 * same point), not for navigation.
 */

export interface GazetteerStreet {
  name: string;
  /** Start point of the modelled street segment (house number 1). */
  lat: number;
  lng: number;
  /** Direction of increasing house numbers, degrees clockwise from north. */
  bearingDeg: number;
  lengthM: number;
}

export interface GazetteerSuburb {
  name: string;
  postCode: string;
  state: 'QLD';
  lat: number;
  lng: number;
  streets: GazetteerStreet[];
}

export interface GeocodeResult {
  lat: number;
  lng: number;
  /** 'street' when the street was found in the suburb, 'suburb' when only the suburb (or post code) was. */
  precision: 'street' | 'suburb';
  suburb: string;
  postCode: string;
}

/** The highest house number the interpolation assumes on a modelled street. */
export const MAX_HOUSE_NUMBER = 200;

type SuburbRow = [name: string, postCode: string, lat: number, lng: number, streets: string[]];

const SUBURB_ROWS: SuburbRow[] = [
  ['Brisbane City', '4000', -27.4698, 153.0251, ['Queen Street', 'Adelaide Street', 'Ann Street', 'George Street', 'Elizabeth Street']],
  ['Spring Hill', '4000', -27.4617, 153.0234, ['Leichhardt Street', 'Boundary Street', 'Wickham Terrace', 'Upper Edward Street']],
  ['Fortitude Valley', '4006', -27.457, 153.034, ['Brunswick Street', 'Wickham Street', 'McLachlan Street', 'James Street']],
  ['New Farm', '4005', -27.4672, 153.049, ['Merthyr Road', 'Sydney Street', 'Lamington Street', 'Oxlade Drive', 'Heal Street']],
  ['Newstead', '4006', -27.449, 153.044, ['Breakfast Creek Road', 'Evelyn Street', 'Doggett Street']],
  ['Teneriffe', '4005', -27.456, 153.047, ['Vernon Terrace', 'Macquarie Street', 'Commercial Road']],
  ['Kangaroo Point', '4169', -27.477, 153.036, ['Main Street', 'Lambert Street', 'Shafston Avenue', 'Leopard Street']],
  ['South Brisbane', '4101', -27.481, 153.02, ['Grey Street', 'Melbourne Street', 'Russell Street', 'Merivale Street']],
  ['West End', '4101', -27.483, 153.009, ['Boundary Street', 'Montague Road', 'Vulture Street', 'Hardgrave Road', 'Thomas Street']],
  ['Highgate Hill', '4101', -27.489, 153.017, ['Gladstone Road', 'Dornoch Terrace', 'Hampstead Road']],
  ['Woolloongabba', '4102', -27.49, 153.036, ['Logan Road', 'Stanley Street', 'Ipswich Road', 'Main Street']],
  ['East Brisbane', '4169', -27.484, 153.045, ['Wellington Road', 'Lytton Road', 'Mowbray Terrace', 'Stanley Street East']],
  ['Coorparoo', '4151', -27.497, 153.058, ['Old Cleveland Road', 'Cavendish Road', 'Holdsworth Street', 'Harries Road']],
  ['Greenslopes', '4120', -27.508, 153.049, ['Logan Road', 'Chatsworth Road', 'Plimsoll Street', 'Juliette Street']],
  ['Annerley', '4103', -27.512, 153.033, ['Ipswich Road', 'Cracknell Road', 'Waldheim Street', 'Annerley Road']],
  ['Fairfield', '4103', -27.509, 153.022, ['Fairfield Road', 'Venner Road', 'Brisbane Corso']],
  ['Yeronga', '4104', -27.516, 153.016, ['Park Road', 'Ortive Street', 'School Road', 'Honour Avenue']],
  ['Moorooka', '4105', -27.534, 153.025, ['Beaudesert Road', 'Muriel Avenue', 'Kent Street', 'Sherley Street']],
  ['Holland Park', '4121', -27.523, 153.068, ['Logan Road', 'Abbotsleigh Street', 'Nursery Road', 'Marshall Road']],
  ['Camp Hill', '4152', -27.493, 153.075, ['Old Cleveland Road', 'Martha Street', 'Bapaume Road', 'Boundary Road']],
  ['Carina', '4152', -27.49, 153.092, ['Creek Road', 'Mayfield Road', 'Stanley Road', 'Broadway Street']],
  ['Bulimba', '4171', -27.452, 153.058, ['Oxford Street', 'Riding Road', 'Barramul Street', 'Quay Street']],
  ['Hawthorne', '4171', -27.464, 153.059, ['Hawthorne Road', 'Virginia Avenue', 'Beauvardia Street']],
  ['Morningside', '4170', -27.462, 153.073, ['Wynnum Road', 'Thynne Road', 'Pashen Street', 'Junction Road']],
  ['Norman Park', '4170', -27.479, 153.063, ['Bennetts Road', 'Agnew Street', 'Wynnum Road']],
  ['Cannon Hill', '4170', -27.47, 153.088, ['Barrack Road', 'Creek Road', 'Lang Street']],
  ['Paddington', '4064', -27.46, 153.0, ['Given Terrace', 'Latrobe Terrace', 'Caxton Street', 'Enoggera Terrace']],
  ['Red Hill', '4059', -27.455, 153.004, ['Musgrave Road', 'Waterworks Road', 'Windsor Road']],
  ['Milton', '4064', -27.47, 153.003, ['Park Road', 'Milton Road', 'Baroona Road', 'Railway Terrace']],
  ['Toowong', '4066', -27.485, 152.993, ['High Street', 'Sherwood Road', 'Jephson Street', 'Miskin Street', 'Dean Street']],
  ['Auchenflower', '4066', -27.476, 152.992, ['Haig Road', 'Lang Parade', 'Birdwood Terrace', 'Dunmore Terrace']],
  ['St Lucia', '4067', -27.498, 153.0, ['Hawken Drive', 'Swann Road', 'Carmody Road', 'Munro Street']],
  ['Indooroopilly', '4068', -27.499, 152.974, ['Moggill Road', 'Station Road', 'Lambert Road', 'Coonan Street']],
  ['Taringa', '4068', -27.491, 152.98, ['Indooroopilly Road', 'Morrow Street', 'Ryans Road']],
  ['Chelmer', '4068', -27.513, 152.976, ['Queenscroft Street', 'Laurel Avenue', 'Bank Road']],
  ['Kelvin Grove', '4059', -27.448, 153.013, ['Kelvin Grove Road', 'Blamey Street', 'Prospect Terrace']],
  ['Herston', '4006', -27.445, 153.02, ['Herston Road', 'Butterfield Street', 'Wyndham Street']],
  ['Windsor', '4030', -27.436, 153.029, ['Lutwyche Road', 'Newmarket Road', 'Bowen Bridge Road', 'Mabel Street']],
  ['Wilston', '4051', -27.433, 153.019, ['Wilston Road', 'Kedron Brook Road', 'Murray Street', 'Primrose Street']],
  ['Grange', '4051', -27.423, 153.015, ['Days Road', 'Thomas Street', 'Evelyn Street']],
  ['Ashgrove', '4060', -27.443, 152.987, ['Stewart Road', 'Glory Street', 'Jubilee Terrace', 'Harcourt Street']],
  ['The Gap', '4061', -27.446, 152.947, ['Settlement Road', 'Kaloma Road', 'Payne Road', 'Michaelmas Street']],
  ['Enoggera', '4051', -27.42, 152.996, ['South Pine Road', 'Wardell Street', 'Samford Road']],
  ['Alderley', '4051', -27.425, 153.0, ['Pickering Street', 'Hurdcotte Street', 'Ellena Street']],
  ['Lutwyche', '4030', -27.423, 153.034, ['Chalk Street', 'Kedron Park Road', 'Brookes Street']],
  ['Wooloowin', '4030', -27.422, 153.043, ['Kent Road', 'Bonney Avenue', 'Rose Street']],
  ['Albion', '4010', -27.431, 153.044, ['Sandgate Road', 'Hudson Road', 'Crosby Road']],
  ['Clayfield', '4011', -27.418, 153.058, ['Bellevue Terrace', 'Oriel Road', 'Alexandra Road', 'Adelaide Street']],
  ['Ascot', '4007', -27.431, 153.06, ['Racecourse Road', 'Lancaster Road', 'Nudgee Road']],
  ['Hamilton', '4007', -27.438, 153.064, ['Kingsford Smith Drive', 'Toorak Road', 'Windermere Road']],
  ['Nundah', '4012', -27.401, 153.06, ['Buckland Road', 'Bage Street', 'Station Street', 'Eton Street']],
  ['Wavell Heights', '4012', -27.394, 153.047, ['Edinburgh Castle Road', 'Shaw Road', 'Minimine Street']],
  ['Kedron', '4031', -27.403, 153.029, ['Gympie Road', 'Turner Road', 'Leckie Road', 'Hamilton Road']],
  ['Chermside', '4032', -27.386, 153.03, ['Kittyhawk Drive', 'Murphy Road', 'Hall Street', 'Playfield Street']],
  ['Aspley', '4034', -27.367, 153.019, ['Robinson Road', 'Albany Creek Road', 'Zillmere Road', 'Maundrell Terrace']],
  ['Stafford', '4053', -27.41, 153.01, ['Stafford Road', 'Webster Road', 'Appleby Road']],
  ['Everton Park', '4053', -27.401, 152.99, ['Flockton Street', 'Pullen Road', 'Grass Tree Road']],
  ['Mitchelton', '4053', -27.417, 152.973, ['Blackwood Street', 'Osborne Road', 'Dawson Parade', 'Samford Road']],
  ['Mount Gravatt', '4122', -27.54, 153.08, ['Klumpp Road', 'Broadwater Road', 'Gaskell Street']],
  ['Upper Mount Gravatt', '4122', -27.553, 153.085, ['Kessels Road', 'Mains Road', 'Newnham Road']],
  ['Salisbury', '4107', -27.552, 153.033, ['Evans Road', 'Lillian Avenue', 'Golda Avenue']],
  ['Sunnybank', '4109', -27.578, 153.06, ['McCullough Street', 'Beenleigh Road', 'Gager Street', 'Troughton Road']],
  ['Sherwood', '4075', -27.532, 152.981, ['Oxley Road', 'Dewar Terrace', 'Thallon Street']],
  ['Corinda', '4075', -27.538, 152.982, ['Clewley Street', 'Cliveden Avenue', 'Consort Street']],
  ['Kenmore', '4069', -27.508, 152.939, ['Brookfield Road', 'Kenmore Road', 'Branton Street']],
  ['Wynnum', '4178', -27.444, 153.172, ['Tingal Road', 'Edith Street', 'Bay Terrace', 'Florence Street']],
  ['Manly', '4179', -27.456, 153.186, ['Cambridge Parade', 'Kingsley Terrace', 'Stradbroke Avenue']],
];

const METRES_PER_DEGREE_LAT = 111_320;

/** FNV-1a: stable 32-bit hash so modelled street geometry never changes between runs. */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function offsetPoint(lat: number, lng: number, bearingDeg: number, distanceM: number): { lat: number; lng: number } {
  const bearing = (bearingDeg * Math.PI) / 180;
  const dLat = (distanceM * Math.cos(bearing)) / METRES_PER_DEGREE_LAT;
  const dLng = (distanceM * Math.sin(bearing)) / (METRES_PER_DEGREE_LAT * Math.cos((lat * Math.PI) / 180));
  return { lat: round6(lat + dLat), lng: round6(lng + dLng) };
}

function round6(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

function modelStreet(suburbName: string, lat: number, lng: number, streetName: string): GazetteerStreet {
  const h = hash32(`${suburbName}|${streetName}`);
  const startBearing = h % 360;
  const startDistance = 150 + ((h >>> 9) % 550);
  const start = offsetPoint(lat, lng, startBearing, startDistance);
  return {
    name: streetName,
    lat: start.lat,
    lng: start.lng,
    // Point the street back across the suburb so its numbers stay near the centroid.
    bearingDeg: (startBearing + 150 + ((h >>> 18) % 60)) % 360,
    lengthM: 500 + ((h >>> 23) % 900),
  };
}

export const BRISBANE_SUBURBS: readonly GazetteerSuburb[] = SUBURB_ROWS.map(([name, postCode, lat, lng, streets]) => ({
  name,
  postCode,
  state: 'QLD' as const,
  lat,
  lng,
  streets: streets.map((street) => modelStreet(name, lat, lng, street)),
}));

/** The point of a house number on a modelled street (numbers above MAX_HOUSE_NUMBER clamp to the end). */
export function pointOnStreet(street: GazetteerStreet, houseNumber: number): { lat: number; lng: number } {
  const fraction = Math.min(Math.max(houseNumber, 1), MAX_HOUSE_NUMBER) / MAX_HOUSE_NUMBER;
  return offsetPoint(street.lat, street.lng, street.bearingDeg, fraction * street.lengthM);
}

function normalise(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9 ]+/g, ' ')
    .replace(/\b(st)\b/g, 'street')
    .replace(/\b(rd)\b/g, 'road')
    .replace(/\b(tce)\b/g, 'terrace')
    .replace(/\b(ave|av)\b/g, 'avenue')
    .replace(/\b(dr)\b/g, 'drive')
    .replace(/\b(pde)\b/g, 'parade')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Normal forms of the suburbs' names and streets, computed once (imports look up every patient). */
const SUBURB_KEYS = new Map(BRISBANE_SUBURBS.map((suburb) => [suburb, normalise(suburb.name)]));
const STREET_KEYS = new Map(BRISBANE_SUBURBS.flatMap((suburb) => suburb.streets.map((street) => [street, ` ${normalise(street.name)} `] as const)));

export function findSuburb(city: string | null | undefined, postCode?: string | null): GazetteerSuburb | null {
  const wanted = city ? normalise(city) : '';
  if (wanted) {
    const byName = BRISBANE_SUBURBS.filter((s) => SUBURB_KEYS.get(s) === wanted);
    if (byName.length > 0) return byName.find((s) => !postCode || s.postCode === postCode.trim()) ?? byName[0];
  }
  if (postCode) return BRISBANE_SUBURBS.find((s) => s.postCode === postCode.trim()) ?? null;
  return null;
}

/**
 * Geocodes a Brisbane address by the gazetteer: street level when `address_1` (or `address_2`) names a
 * street of the suburb ("12 Merthyr Road", "Unit 3, 12 Merthyr Rd"), suburb level otherwise; null when
 * neither the suburb nor the post code is known.
 */
export function geocodeBrisbaneAddress(address: {
  address_1?: string | null;
  address_2?: string | null;
  city?: string | null;
  post_code?: string | null;
}): GeocodeResult | null {
  const suburb = findSuburb(address.city, address.post_code);
  if (!suburb) return null;
  for (const line of [address.address_1, address.address_2]) {
    if (!line) continue;
    const normalisedLine = normalise(line);
    const street = suburb.streets.find((s) => ` ${normalisedLine} `.includes(STREET_KEYS.get(s)!));
    if (!street) continue;
    const numberMatch = normalisedLine.match(/(\d+)[a-z]?\s+[a-z]/);
    const houseNumber = numberMatch ? Number(numberMatch[1]) : 1;
    const point = pointOnStreet(street, houseNumber);
    return { ...point, precision: 'street', suburb: suburb.name, postCode: suburb.postCode };
  }
  return { lat: suburb.lat, lng: suburb.lng, precision: 'suburb', suburb: suburb.name, postCode: suburb.postCode };
}
