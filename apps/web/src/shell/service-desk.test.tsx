import '../lib/test/setup';
import { afterEach, describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { json } from '../lib/test/fake-api';
import { renderPortal } from '../test/render-portal';
import { renderApp } from '../test/render';
import { readServiceDesk } from './service-desk';

/** What the server writes into index.html when SERVICE_DESK_CONTACT (and _LINK) are set. */
function configure(text: string | null, link?: string) {
  for (const meta of document.head.querySelectorAll('meta[name^="service-desk-"]')) meta.remove();
  const add = (name: string, content: string) => {
    const meta = document.createElement('meta');
    meta.name = name;
    meta.content = content;
    document.head.append(meta);
  };
  if (text !== null) add('service-desk-contact', text);
  if (link !== undefined) add('service-desk-link', link);
}

const DESK = 'IT Service Desk, +44 20 7946 0000';
const TEL = 'tel:+442079460000';

afterEach(() => configure(null));

describe('readServiceDesk', () => {
  it('reads the text and link the server wrote into the page', () => {
    configure(DESK, TEL);
    expect(readServiceDesk()).toEqual({ text: DESK, link: TEL });
  });

  it('is null when nothing is configured', () => {
    expect(readServiceDesk()).toBeNull();
  });

  it.each(['javascript:alert(1)', 'http://desk.example.org/', 'data:text/html,x'])('never makes %s a link', (link) => {
    configure(DESK, link);
    expect(readServiceDesk()).toEqual({ text: DESK, link: null });
  });
});

describe('the service desk contact beside "contact the service desk"', () => {
  it.each([
    ['/help', 'Help'],
    ['/devices/lost', 'Lost a device'],
    ['/activity', 'Activity'],
    ['/', 'Hello, Bob'],
    ['/admin', 'Not available for your role'],
  ])('%s names it as a link', async (path) => {
    configure(DESK, TEL);
    await renderPortal({
      path,
      api: (a) => a.on('GET', '/api/me/activity', () => json({ events: [], nextCursor: null })),
    });
    const link = await screen.findByRole('link', { name: DESK });
    expect(link).toHaveAttribute('href', TEL);
    expect(link.closest('p')).toHaveTextContent(/Contact the service desk: IT Service Desk/);
  });

  it('shows a text without a link as text', async () => {
    configure('Call extension 4000');
    await renderPortal({ path: '/help' });
    expect(screen.getByText('Call extension 4000')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Call extension 4000' })).not.toBeInTheDocument();
  });

  it('promises nothing when none is configured', async () => {
    await renderPortal({ path: '/help' });
    expect(screen.queryByText(/Contact the service desk:/)).not.toBeInTheDocument();
    expect(screen.getByText(/For anything else, contact the service desk\./)).toBeInTheDocument();
  });

  it.each(['/error/unauthorized', '/error/500', '/error/accountdisabled', '/error/missingtwofactor'])(
    'the shell page %s names it, read from the page without a request',
    async (path) => {
      configure(DESK, 'mailto:servicedesk@example.org');
      const fetches: string[] = [];
      const realFetch = globalThis.fetch;
      globalThis.fetch = (input, init) => {
        fetches.push(String(input));
        return realFetch(input, init);
      };
      try {
        await renderApp({ path });
        const main = await screen.findByRole('main');
        expect(await within(main).findByRole('link', { name: DESK })).toHaveAttribute('href', 'mailto:servicedesk@example.org');
        expect(fetches).toEqual([]);
      } finally {
        globalThis.fetch = realFetch;
      }
    },
  );

  it('an error that sends people to the service desk says how', async () => {
    configure(DESK, TEL);
    await renderPortal({
      path: '/activity',
      api: (a) => a.on('GET', '/api/me/activity', () => json({ code: 'mfa.provider_limit_reached', message: 'x' }, 409)),
    });
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('link', { name: DESK })).toHaveAttribute('href', TEL);
  });
});
