// Rounds' service worker: the run sheet opens without signal. It keeps the app itself (the page and its hashed
// bundles) for everyone, and — only while a practitioner is logged in (the page says so, and says when they log out,
// which empties that cache) — the last answers of what the run sheet reads: their user, the business's settings, and
// their visits of today and the next days. Everything is read from the network first; a kept answer is used only when
// the network fails. The page is kept from the worker's install and the bundles the page loaded before the worker was in
// charge are kept when the page lists them, so the app opens without signal from the first login on.
const APP_CACHE = 'rounds-app-v1';
const DAY_CACHE = 'rounds-day-v1';
const KEEP_DAY = '/__rounds/keep-day';
const DAYS_KEPT = 4;

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    // The page itself: every page of the app is this one (a failure leaves it to the first page fetched).
    await caches.open(APP_CACHE).then((cache) => cache.add('/')).catch(() => undefined);
    await self.skipWaiting();
  })());
});
self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) if (name !== APP_CACHE && name !== DAY_CACHE) await caches.delete(name);
    await self.clients.claim();
  })());
});

self.addEventListener('message', (event) => {
  const type = event.data && event.data.type;
  if (type === 'keep-day') event.waitUntil(caches.open(DAY_CACHE).then((cache) => cache.put(KEEP_DAY, new Response('1'))));
  if (type === 'forget-day') event.waitUntil(caches.delete(DAY_CACHE));
  // The bundles the page loaded before this worker was in charge (later ones are kept as they are fetched).
  if (type === 'keep-app' && Array.isArray(event.data.urls)) {
    event.waitUntil(caches.open(APP_CACHE).then((cache) => Promise.all(event.data.urls.filter(isAppFile).map(async (address) => {
      if (!(await cache.match(address))) await cache.add(address).catch(() => undefined);
    }))));
  }
});

/** A plain date within the days kept, from today (the phone's date; the business's differs by less than a day). */
function withinDaysKept(date) {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date || '')) return false;
  const today = new Date();
  today.setHours(0, 0, 0, 0);
  const day = new Date(`${date}T00:00:00`);
  const days = Math.round((day - today) / 86_400_000);
  return days >= -1 && days <= DAYS_KEPT;
}

/** What the run sheet reads, for the days kept. */
function isDayRead(url) {
  const path = url.pathname;
  if (['/api/auth/user', '/api/config', '/api/provider_account/current', '/api/dashboard', '/api/practitioners/all',
    '/api/appointment_types/all', '/api/business_locations/all'].includes(path)) return true;
  if (/^\/api\/(appointments|clients)\/\d+$/.test(path)) return true;
  if (path === '/api/appointments') {
    return withinDaysKept(url.searchParams.get('start_date')) && withinDaysKept(url.searchParams.get('end_date'));
  }
  if (path === '/api/appointments/travel' || path === '/api/routes') return withinDaysKept(url.searchParams.get('date'));
  return false;
}

/** What the app is made of (the hashed bundles, the manifest, the icons), on this origin. */
function isAppFile(address) {
  const url = new URL(address, self.location.origin);
  return url.origin === self.location.origin
    && (url.pathname.startsWith('/assets/') || url.pathname === '/manifest.webmanifest' || url.pathname.startsWith('/icons/'));
}

async function networkFirst(request, cacheName, key = request) {
  const cache = await caches.open(cacheName);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(key, response.clone());
    return response;
  } catch (error) {
    const kept = await cache.match(key);
    if (kept) return kept;
    throw error;
  }
}

async function dayRead(request) {
  const cache = await caches.open(DAY_CACHE);
  if (!(await cache.match(KEEP_DAY))) return fetch(request);
  // Kept by address: only one user's answers are ever in this cache (it is emptied when they log out).
  return networkFirst(request, DAY_CACHE, request.url);
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith('/api/')) {
    if (isDayRead(url)) event.respondWith(dayRead(request));
    return;
  }
  // Every page of the app is the same page: the last one fetched opens when the network fails.
  if (request.mode === 'navigate') event.respondWith(networkFirst(request, APP_CACHE, '/'));
  else if (isAppFile(request.url)) {
    event.respondWith(caches.open(APP_CACHE).then(async (cache) => (await cache.match(request)) ?? networkFirst(request, APP_CACHE)));
  }
});
