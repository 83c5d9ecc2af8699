// A pin as a DOM element, for the MapLibre map's markers: a button when pins can be clicked (reachable with the
// keyboard), else an image, named by the pin's title either way.
import { densityRadius, densityTitle, type DensityCell } from './density';
import type { DrawnPin } from '../../lib/map/mapModel';
import { pinShape, pinSvg } from './pinIcon';

export function pinElement(pin: DrawnPin, clickable: boolean): HTMLElement {
  const element = document.createElement(clickable ? 'button' : 'div');
  if (element instanceof HTMLButtonElement) element.type = 'button';
  else element.setAttribute('role', 'img');
  const shape = pinShape(pin);
  if (pin.title) {
    element.setAttribute('aria-label', pin.title);
    element.title = pin.title;
  }
  element.dataset.testid = 'map-marker';
  element.dataset.kind = pin.kind;
  element.dataset.label = pin.label;
  element.style.width = `${shape.width}px`;
  element.style.height = `${shape.height}px`;
  element.style.padding = '0';
  element.style.border = '0';
  element.style.background = 'none';
  element.style.cursor = clickable ? 'pointer' : pin.movable ? 'grab' : 'default';
  element.innerHTML = pinSvg(pin);
  return element;
}

/** A density view's counted circle (see density.ts) as a button: a click zooms to its pins. */
export function densityElement(cell: DensityCell): HTMLElement {
  const element = document.createElement('button');
  element.type = 'button';
  const size = 2 * densityRadius(cell.count);
  const title = densityTitle(cell);
  element.setAttribute('aria-label', title);
  element.title = title;
  element.dataset.testid = 'map-density-cell';
  element.dataset.count = String(cell.count);
  element.textContent = String(cell.count);
  Object.assign(element.style, {
    width: `${size}px`, height: `${size}px`, borderRadius: '50%', border: '2px solid white', background: cell.color, opacity: '0.85',
    color: 'white', font: '600 11px system-ui, sans-serif', cursor: 'zoom-in', padding: '0',
  });
  return element;
}
