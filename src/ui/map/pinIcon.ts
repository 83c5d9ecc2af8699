// The pins' shapes, shared by the renderers: a teardrop for stops and single pins (its tip on the point), a square with
// a dark edge for start and end places (centred on the point), each with its label in white.
import type { DrawnPin } from '../../lib/map/mapModel';

/** A teardrop 18 × 26 px whose tip is at (0, 0). */
export const TEARDROP_PATH = 'M0 0 C-7 -10 -9 -13 -9 -17 A9 9 0 1 1 9 -17 C9 -13 7 -10 0 0 Z';
const SQUARE = { x: -9, y: -9, size: 18, radius: 3 };
const PLACE_EDGE = '#0f172a';

export interface PinShape {
  /** Where the point is in the icon, px from its top left (the anchor). */
  anchor: { x: number; y: number };
  width: number;
  height: number;
  /** The label's baseline in the icon's own coordinates (the point at 0, 0). */
  textY: number;
  fontSize: number;
  isPlace: boolean;
}

export function pinShape(pin: Pick<DrawnPin, 'kind' | 'label'>): PinShape {
  const isPlace = pin.kind === 'start' || pin.kind === 'end' || pin.kind === 'startEnd';
  const fontSize = pin.label.length > 2 ? 7 : 10;
  return isPlace
    ? { anchor: { x: 10, y: 10 }, width: 20, height: 20, textY: fontSize / 2 - 1, fontSize, isPlace }
    : { anchor: { x: 10, y: 28 }, width: 20, height: 29, textY: -13, fontSize, isPlace };
}

const escapeXml = (text: string) => text.replace(/[<>&"']/g, (character) => `&#${character.charCodeAt(0)};`);

/** The pin as a standalone SVG document (MapLibre's marker element, Google's icon). */
export function pinSvg(pin: Pick<DrawnPin, 'kind' | 'label' | 'color'>): string {
  const shape = pinShape(pin);
  const body = shape.isPlace
    ? `<rect x="${SQUARE.x}" y="${SQUARE.y}" width="${SQUARE.size}" height="${SQUARE.size}" rx="${SQUARE.radius}" fill="${escapeXml(pin.color)}" stroke="${PLACE_EDGE}" stroke-width="2"/>`
    : `<path d="${TEARDROP_PATH}" fill="${escapeXml(pin.color)}" stroke="white" stroke-width="1.5"/>`;
  const label = pin.label
    ? `<text y="${shape.textY}" text-anchor="middle" font-family="system-ui, sans-serif" font-size="${shape.fontSize}" font-weight="600" fill="white">${escapeXml(pin.label)}</text>`
    : shape.isPlace ? '' : '<circle cy="-17" r="3" fill="white"/>';
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${shape.width}" height="${shape.height}" viewBox="${-shape.anchor.x} ${-shape.anchor.y} ${shape.width} ${shape.height}">${body}${label}</svg>`;
}

export const PLACE_SQUARE = SQUARE;
export const PLACE_EDGE_COLOR = PLACE_EDGE;
