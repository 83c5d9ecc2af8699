// Words on a colour someone chose (an appointment type's, a practitioner's): white or black, whichever reads better
// (WCAG contrast), so a light or mid colour does not leave white words under 4.5:1.

const channel = (value: number) => {
  const c = value / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
};

/** The text colour that reads best on `background` (#rrggbb; anything else: white, as before). */
export function textColorOn(background: string): '#ffffff' | '#000000' {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(background.trim());
  if (!match) return '#ffffff';
  const [r, g, b] = match.slice(1).map((hex) => channel(parseInt(hex, 16)));
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  const onWhite = 1.05 / (luminance + 0.05);
  const onBlack = (luminance + 0.05) / 0.05;
  return onWhite >= onBlack ? '#ffffff' : '#000000';
}
