// A pin as a DOM element, for the MapLibre map's markers: a button when pins can be clicked (reachable with the
// keyboard), else an image, named by the pin's title either way.
import type { DrawnPin } from './mapModel';
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
