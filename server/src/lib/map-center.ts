// A business's map centre: the one it saved, else the spec's default (Brisbane).

/** The spec's default map centre (Brisbane), used while the business has saved none. */
const DEFAULT_MAP_CENTER = { lat: -27.4795412, lng: 153.0160444 } as const;

export const mapCenterOf = (row: { map_center_lat: number | null; map_center_lng: number | null }): { lat: number; lng: number } =>
  (row.map_center_lat === null || row.map_center_lng === null
    ? { ...DEFAULT_MAP_CENTER }
    : { lat: row.map_center_lat, lng: row.map_center_lng });
