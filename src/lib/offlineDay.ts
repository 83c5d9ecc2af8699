// The run sheet without signal (public/sw.js): the service worker keeps the app for everyone (the page from its install,
// and the bundles the page had loaded before it was in charge) and, while a practitioner is logged in, the last answers
// of their day; logging out empties those. Only the built app registers it (in development Vite serves modules the
// worker does not know).
const WORKER_URL = '/sw.js';
const DAY_CACHE = 'rounds-day-v1';

const supported = () => typeof navigator !== 'undefined' && 'serviceWorker' in navigator;

export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !supported()) return;
  void navigator.serviceWorker.register(WORKER_URL).catch(() => {
    // Without the worker the app works as before, online only.
  });
  // The bundles loaded before the worker was in charge (the first visit's), so the app opens without signal from the
  // first login on; the worker keeps the later ones as they are fetched.
  const keepLoaded = () => void navigator.serviceWorker.ready.then((registration) => registration.active?.postMessage({
    type: 'keep-app',
    urls: performance.getEntriesByType('resource').map((entry) => entry.name).filter((name) => name.startsWith(`${location.origin}/assets/`)),
  }));
  keepLoaded();
  navigator.serviceWorker.addEventListener('controllerchange', keepLoaded);
}

/** Whether the worker keeps the logged-in user's day (a practitioner's) for when there is no signal. */
export function keepDayOffline(keep: boolean): void {
  if (!supported()) return;
  if (keep) {
    void navigator.serviceWorker.ready.then((registration) => registration.active?.postMessage({ type: 'keep-day' }));
  } else {
    // Straight from the page too, so nothing of this user stays even if the worker is not running yet.
    navigator.serviceWorker.controller?.postMessage({ type: 'forget-day' });
    if (typeof caches !== 'undefined') void caches.delete(DAY_CACHE).catch(() => undefined);
  }
}
