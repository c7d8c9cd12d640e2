/*
 * Production service worker of the MFA self-service portal. Deliberately small: it serves the
 * content-hashed files under <base>/static/ cache-first (their names change whenever their content
 * does) and leaves everything else (pages, settings, account API, translations, identity provider)
 * to the network, untouched.
 */
const CACHE_NAME = 'mfa-portal-static-v1';
const MAX_ENTRIES = 80;
const scopePath = new URL(self.registration.scope).pathname;
const staticPrefix = `${scopePath}static/`;

self.addEventListener('install', () => {
  self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name !== CACHE_NAME).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

async function trim(cache) {
  const keys = await cache.keys();
  // Oldest first: drop what exceeds the bound (old builds' hashed files).
  await Promise.all(keys.slice(0, Math.max(0, keys.length - MAX_ENTRIES)).map((key) => cache.delete(key)));
}

async function cacheFirst(request) {
  const cache = await caches.open(CACHE_NAME);
  const hit = await cache.match(request);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok && response.type === 'basic') {
    await cache.put(request, response.clone());
    await trim(cache);
  }
  return response;
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || !url.pathname.startsWith(staticPrefix) || url.search) return;
  event.respondWith(cacheFirst(request));
});
