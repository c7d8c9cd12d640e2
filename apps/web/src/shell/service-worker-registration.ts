import { API_PATHS } from '@mfa-portal/shared';
import { basePathFrom, underBase } from './base-path';

export const OFFLINE_MESSAGE = 'No internet connection found. App is running in offline mode.';

/** localhost, [::1] and 127.0.0.0/8 (the create-react-app definition). */
export function isLocalhost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(?:\.(?:25[0-5]|2[0-4]\d|[01]?\d?\d)){3}$/.test(hostname);
}

interface SwDeps {
  fetchImpl?: typeof fetch;
  container?: ServiceWorkerContainer;
  reload?: () => void;
  log?: (message: string) => void;
}

async function registerValid(swUrl: string, scope: string, container: ServiceWorkerContainer): Promise<void> {
  try {
    await container.register(swUrl, { scope });
  } catch (error) {
    // Not fatal: the portal works without it (e.g. browsers refuse workers over an untrusted certificate).
    console.warn('The service worker could not be registered.', error);
  }
}

/**
 * On localhost a stale worker from another project may be serving this origin: check that our
 * /service-worker.js exists and is JavaScript; if not, unregister the worker and reload. Offline,
 * just say so. Returns what it did (for tests).
 */
export async function checkValidServiceWorker(
  swUrl: string,
  scope: string,
  deps: SwDeps = {},
): Promise<'registered' | 'unregistered' | 'offline'> {
  const fetchImpl = deps.fetchImpl ?? fetch;
  const container = deps.container ?? navigator.serviceWorker;
  const reload = deps.reload ?? (() => window.location.reload());
  const log = deps.log ?? ((message: string) => console.log(message));
  let response: Response;
  try {
    response = await fetchImpl(swUrl, { headers: { 'Service-Worker': 'script' }, cache: 'no-store' });
  } catch {
    log(OFFLINE_MESSAGE);
    return 'offline';
  }
  const contentType = response.headers.get('content-type');
  if (response.status === 404 || (contentType !== null && !contentType.includes('javascript'))) {
    const registration = await container.getRegistration(scope);
    if (registration) {
      await registration.unregister();
      reload();
    }
    return 'unregistered';
  }
  await registerValid(swUrl, scope, container);
  return 'registered';
}

/**
 * Registers the production service worker under the base path (create-react-app pattern). Does
 * nothing in development builds or browsers without service workers.
 */
export function registerServiceWorker({ production }: { production: boolean }): void {
  if (!production || !('serviceWorker' in navigator)) return;
  const scope = basePathFrom();
  const swUrl = underBase(API_PATHS.serviceWorker, scope);
  const run = () => {
    if (isLocalhost(window.location.hostname)) void checkValidServiceWorker(swUrl, scope);
    else void registerValid(swUrl, scope, navigator.serviceWorker);
  };
  if (document.readyState === 'complete') run();
  else window.addEventListener('load', run, { once: true });
}
