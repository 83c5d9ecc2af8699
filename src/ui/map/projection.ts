// The built-in map's projection: equirectangular over the bounding box of what is drawn, with longitude
// scaled by cos(latitude) so distances look right at the box's latitude.
import { DEFAULT_MAP_CENTER, DEFAULT_MAP_ZOOM, type LatLng } from '../../lib/map/mapTypes';

export interface Projection {
  project: (point: LatLng) => { x: number; y: number };
  /** The point drawn at (x, y). */
  unproject: (point: { x: number; y: number }) => LatLng;
  /** The geographic box drawn, after padding and aspect fitting. */
  bounds: { south: number; west: number; north: number; east: number };
}

/** Degrees of latitude a web map at `zoom` shows over `heightPx` (256 px tiles). */
function latitudeSpanAtZoom(zoom: number, heightPx: number): number {
  return (heightPx / 256) * (360 / 2 ** zoom) * 0.5;
}

export function fitProjection(points: readonly LatLng[], width: number, height: number, padding = 24, center: LatLng = DEFAULT_MAP_CENTER): Projection {
  const anchor = points.length > 0 ? points : [center];
  let south = Math.min(...anchor.map((point) => point.lat));
  let north = Math.max(...anchor.map((point) => point.lat));
  let west = Math.min(...anchor.map((point) => point.lng));
  let east = Math.max(...anchor.map((point) => point.lng));

  const midLat = (south + north) / 2;
  const lngScale = Math.max(Math.cos((midLat * Math.PI) / 180), 0.01);
  // A single point (or a tight cluster) is shown at the default zoom rather than infinitely magnified.
  const minLatSpan = latitudeSpanAtZoom(DEFAULT_MAP_ZOOM, height);
  if (north - south < minLatSpan) {
    const middle = (north + south) / 2;
    south = middle - minLatSpan / 2;
    north = middle + minLatSpan / 2;
  }
  if ((east - west) * lngScale < minLatSpan * (width / height) * 0.01) {
    const middle = (east + west) / 2;
    west = middle - 1e-6;
    east = middle + 1e-6;
  }

  const innerWidth = Math.max(width - 2 * padding, 1);
  const innerHeight = Math.max(height - 2 * padding, 1);
  // Same scale on both axes (in "scaled degrees"), whichever axis is the tighter fit.
  const scale = Math.min(innerWidth / ((east - west) * lngScale), innerHeight / (north - south));
  const centreLat = (south + north) / 2;
  const centreLng = (west + east) / 2;

  const project = ({ lat, lng }: LatLng) => ({
    x: width / 2 + (lng - centreLng) * lngScale * scale,
    y: height / 2 - (lat - centreLat) * scale,
  });
  const unproject = ({ x, y }: { x: number; y: number }) => ({
    lat: centreLat - (y - height / 2) / scale,
    lng: centreLng + (x - width / 2) / (lngScale * scale),
  });
  const halfLng = width / 2 / (lngScale * scale);
  const halfLat = height / 2 / scale;
  return {
    project,
    unproject,
    bounds: { south: centreLat - halfLat, north: centreLat + halfLat, west: centreLng - halfLng, east: centreLng + halfLng },
  };
}

/** Round-number grid lines (in degrees) that fall inside [from, to], about `count` of them. */
export function gridLines(from: number, to: number, count = 5): number[] {
  const span = to - from;
  if (!(span > 0)) return [];
  const rough = span / count;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((factor) => factor * magnitude).find((candidate) => candidate >= rough) ?? rough;
  const lines: number[] = [];
  for (let value = Math.ceil(from / step) * step; value <= to; value += step) lines.push(Number(value.toFixed(10)));
  return lines;
}
