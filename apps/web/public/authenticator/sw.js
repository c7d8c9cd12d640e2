/*
 * Service worker of the Portal Authenticator (scope: the app's folder). It keeps the app shell so
 * passcodes show offline: the content-hashed files under static/ cache-first (their names change
 * with their content), the page and the translation file network-first (fresh when online, the
 * last copy offline). The app's API is never cached. It also turns a Web Push message into a
 * notification: the payload names a request, never its number (the app fetches the rest, signed).
 */
const CACHE_NAME = 'portal-authenticator-v1';
const MAX_ENTRIES = 60;
const scopePath = new URL(self.registration.scope).pathname;
const staticPrefix = `${scopePath}static/`;
const apiPrefix = `${scopePath}api/`;
// The portal's base path is the scope without the app's folder; the app's translations live there.
const localesPrefix = `${scopePath.replace(/authenticator\/$/, '')}locales/`;

/** The shell: the page and what it loads (read from the page itself, so no build step lists them). */
async function precache() {
  const cache = await caches.open(CACHE_NAME);
  const page = await fetch(scopePath, { cache: 'no-store' });
  if (!page.ok) return;
  const html = await page.clone().text();
  await cache.put(scopePath, page);
  const assets = [...html.matchAll(/(?:src|href)="\.?\/?((?:static|icons)\/[^"]+)"/g)].map(
    (m) => new URL(m[1], self.registration.scope).href,
  );
  // The texts too (English is the only language), so a first visit already works offline.
  assets.push(new URL(`${localesPrefix}en/authenticator.json`, self.location.origin).href);
  await Promise.all(
    assets.map((url) =>
      fetch(url)
        .then((res) => (res.ok ? cache.put(url, res) : undefined))
        .catch(() => undefined),
    ),
  );
}

self.addEventListener('install', (event) => {
  event.waitUntil(
    precache()
      .catch(() => undefined)
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(
          names.filter((name) => name.startsWith('portal-authenticator-') && name !== CACHE_NAME).map((name) => caches.delete(name)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

async function trim(cache) {
  const keys = await cache.keys();
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

async function networkFirst(request, key) {
  const cache = await caches.open(CACHE_NAME);
  try {
    const response = await fetch(request);
    if (response.ok && response.type === 'basic') await cache.put(key, response.clone());
    return response;
  } catch (err) {
    const hit = await cache.match(key);
    if (hit) return hit;
    throw err;
  }
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || url.pathname.startsWith(apiPrefix)) return;
  if (request.mode === 'navigate' && url.pathname.startsWith(scopePath)) {
    // Every page of the app is its one page (the activation token rides in the fragment).
    event.respondWith(networkFirst(request, scopePath));
  } else if (url.pathname.startsWith(staticPrefix) && !url.search) {
    event.respondWith(cacheFirst(request));
  } else if (url.pathname.startsWith(localesPrefix) || url.pathname.startsWith(`${scopePath}icons/`)) {
    event.respondWith(networkFirst(request, url.href));
  }
});

const KIND_TITLES = {
  sign_in: 'Sign-in request',
  step_up: 'Confirm a change',
  device_test: 'Check this phone',
  helpdesk_check: 'Helpdesk check',
};

self.addEventListener('push', (event) => {
  let payload = {};
  try {
    payload = event.data ? event.data.json() : {};
  } catch {
    payload = {};
  }
  if (payload.type !== 'push_request') return;
  const title = KIND_TITLES[payload.kind] || 'Sign-in request';
  const body = payload.account
    ? `For ${payload.account}. Open to see the details and type the number.`
    : 'Open to see the details and type the number.';
  event.waitUntil(
    self.registration.showNotification(title, {
      body,
      tag: payload.requestId || 'push-request',
      renotify: true,
      requireInteraction: true,
      icon: `${scopePath}icons/icon-192.png`,
      badge: `${scopePath}icons/icon-192.png`,
      data: { requestId: payload.requestId },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      const open = windows.find((w) => new URL(w.url).pathname.startsWith(scopePath));
      if (open) return open.focus();
      return self.clients.openWindow(scopePath);
    }),
  );
});
