// The phone's position for a visit step, when the practitioner allows it: never waits long (a step must not hang on a
// weak GPS), and never fails (no position is a step without a place).

export interface PhonePosition { lat: number; lng: number; accuracy_m: number }

/** The device's position within `timeoutMs` (a fix up to a minute old will do), or null when refused, unknown or slow. */
export function currentPosition(timeoutMs = 8000): Promise<PhonePosition | null> {
  const geolocation = typeof navigator === 'undefined' ? undefined : navigator.geolocation;
  if (!geolocation) return Promise.resolve(null);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), timeoutMs + 500);
    geolocation.getCurrentPosition(
      (position) => {
        clearTimeout(timer);
        resolve({ lat: position.coords.latitude, lng: position.coords.longitude, accuracy_m: Math.round(position.coords.accuracy) });
      },
      () => {
        clearTimeout(timer);
        resolve(null);
      },
      { enableHighAccuracy: true, timeout: timeoutMs, maximumAge: 60_000 },
    );
  });
}
