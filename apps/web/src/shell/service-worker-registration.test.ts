import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkValidServiceWorker, isLocalhost, OFFLINE_MESSAGE, registerServiceWorker } from './service-worker-registration';

function fakeContainer(registered: boolean) {
  const unregister = vi.fn(async () => true);
  const container = {
    getRegistration: vi.fn(async () => (registered ? ({ unregister } as unknown as ServiceWorkerRegistration) : undefined)),
    register: vi.fn(async () => ({}) as ServiceWorkerRegistration),
  };
  return { container: container as unknown as ServiceWorkerContainer, unregister, register: container.register };
}

describe('service worker on localhost', () => {
  it('knows what localhost is', () => {
    expect(isLocalhost('localhost')).toBe(true);
    expect(isLocalhost('127.0.0.1')).toBe(true);
    expect(isLocalhost('[::1]')).toBe(true);
    expect(isLocalhost('portal.example.com')).toBe(false);
    expect(isLocalhost('127.0.0.1.example.com')).toBe(false);
  });

  it('registers the worker when /service-worker.js is JavaScript', async () => {
    const { container, register } = fakeContainer(false);
    const fetchImpl = vi.fn(
      async () => new Response('self.addEventListener', { status: 200, headers: { 'content-type': 'application/javascript' } }),
    );
    await expect(checkValidServiceWorker('/portal/service-worker.js', '/portal/', { fetchImpl, container })).resolves.toBe('registered');
    expect(register).toHaveBeenCalledWith('/portal/service-worker.js', { scope: '/portal/' });
  });

  it('unregisters and reloads when the worker is missing (404)', async () => {
    const { container, unregister, register } = fakeContainer(true);
    const reload = vi.fn();
    const fetchImpl = vi.fn(
      async () => new Response('{"code":"route.not_found"}', { status: 404, headers: { 'content-type': 'application/json' } }),
    );
    await expect(checkValidServiceWorker('/service-worker.js', '/', { fetchImpl, container, reload })).resolves.toBe('unregistered');
    expect(unregister).toHaveBeenCalled();
    expect(reload).toHaveBeenCalled();
    expect(register).not.toHaveBeenCalled();
  });

  it('unregisters when the answer is not JavaScript (e.g. an HTML page)', async () => {
    const { container, unregister } = fakeContainer(true);
    const reload = vi.fn();
    const fetchImpl = vi.fn(async () => new Response('<html>', { status: 200, headers: { 'content-type': 'text/html' } }));
    await checkValidServiceWorker('/service-worker.js', '/', { fetchImpl, container, reload });
    expect(unregister).toHaveBeenCalled();
    expect(reload).toHaveBeenCalled();
  });

  it('logs the offline-mode message when the check cannot reach the server', async () => {
    const { container, register } = fakeContainer(false);
    const log = vi.fn();
    const fetchImpl = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(checkValidServiceWorker('/service-worker.js', '/', { fetchImpl, container, log })).resolves.toBe('offline');
    expect(log).toHaveBeenCalledWith('No internet connection found. App is running in offline mode.');
    expect(OFFLINE_MESSAGE).toBe('No internet connection found. App is running in offline mode.');
    expect(register).not.toHaveBeenCalled();
  });
});

describe('registerServiceWorker', () => {
  /** A browser with service workers, under `<base href="/portal/">`, whose server has the worker. */
  function browserWithWorkers() {
    const base = document.createElement('base');
    base.setAttribute('href', '/portal/');
    document.head.prepend(base);
    const { container, register } = fakeContainer(false);
    Object.defineProperty(navigator, 'serviceWorker', { value: container, configurable: true });
    const fetchStub = vi.fn(
      async () => new Response('self.addEventListener', { status: 200, headers: { 'content-type': 'application/javascript' } }),
    );
    vi.stubGlobal('fetch', fetchStub);
    return { register, fetchStub };
  }

  afterEach(() => {
    document.head.querySelectorAll('base').forEach((b) => b.remove());
    Reflect.deleteProperty(navigator, 'serviceWorker');
    vi.unstubAllGlobals();
  });

  it('registers /service-worker.js under the base path in a production build', async () => {
    const { register, fetchStub } = browserWithWorkers();
    registerServiceWorker({ production: true });
    await vi.waitFor(() => expect(register).toHaveBeenCalledWith('/portal/service-worker.js', { scope: '/portal/' }));
    // On localhost (jsdom's host) it is checked first.
    expect(fetchStub).toHaveBeenCalledWith('/portal/service-worker.js', expect.anything());
  });

  it('does nothing in a development build', async () => {
    const { register, fetchStub } = browserWithWorkers();
    registerServiceWorker({ production: false });
    window.dispatchEvent(new Event('load'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fetchStub).not.toHaveBeenCalled();
    expect(register).not.toHaveBeenCalled();
  });
});
