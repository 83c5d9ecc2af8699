import { readFileSync } from 'node:fs';
import type { Problem } from '../../server/src/optimizer/types';

export interface SolomonInstance {
  name: string;
  fleet: number;
  capacity: number;
  problem: Problem;
}

/**
 * Parses a Solomon-format instance into an optimizer problem: planar coordinates (Euclidean travel,
 * time = distance), the fleet as identical practitioners at the depot whose shift is the depot's
 * window, cost = distance only, service must start within [READY, DUE], no arrival rounding.
 */
export function parseSolomon(text: string, fallbackName: string): SolomonInstance {
  const lines = text.split(/\r?\n/).map((l) => l.trim());
  const name = lines.find((l) => l.length > 0) ?? fallbackName;
  const vehIdx = lines.findIndex((l) => /^VEHICLE/i.test(l));
  const [fleet, capacity] = (lines.slice(vehIdx + 1).find((l) => /^\d/.test(l)) ?? '').split(/\s+/).map(Number);
  const custIdx = lines.findIndex((l) => /^CUSTOMER/i.test(l));
  const rows = lines
    .slice(custIdx + 1)
    .filter((l) => /^\d/.test(l))
    .map((l) => l.split(/\s+/).map(Number));
  if (!rows.length || !Number.isFinite(fleet) || !Number.isFinite(capacity)) {
    throw new Error(`${fallbackName}: not a Solomon-format instance`);
  }
  const [, dx, dy, , ready0, due0] = rows[0];
  const depot = { lat: dy, lng: dx };
  const problem: Problem = {
    coordinates: 'planar',
    arrivalStepSeconds: 0,
    visits: rows.slice(1).map(([id, x, y, demand, ready, due, service]) => ({
      id: String(id),
      location: { lat: y, lng: x },
      duration: service,
      demand,
      timeWindows: [{ start: ready, end: due }],
    })),
    practitioners: Array.from({ length: fleet }, (_, k) => ({
      id: `v${k + 1}`,
      startLocation: depot,
      shift: { start: ready0, end: due0 },
      capacity,
      costPerHour: 0,
      costPerKm: 1000,
    })),
  };
  return { name, fleet, capacity, problem };
}

export function loadSolomon(path: string): SolomonInstance {
  return parseSolomon(readFileSync(path, 'utf8'), path);
}

/** bks.csv: instance → best known distance (distance-only objective, fleet capped). */
export function loadBks(path: string): Map<string, { distance: number; vehicles: number }> {
  const out = new Map<string, { distance: number; vehicles: number }>();
  const [header, ...rows] = readFileSync(path, 'utf8').trim().split(/\r?\n/);
  const cols = header.split(',');
  const iName = cols.indexOf('instance');
  const iDist = cols.indexOf('bks_distance');
  const iVeh = cols.indexOf('bks_distance_vehicles');
  for (const row of rows) {
    const f = row.split(',');
    out.set(f[iName], { distance: Number(f[iDist]), vehicles: Number(f[iVeh]) });
  }
  return out;
}
