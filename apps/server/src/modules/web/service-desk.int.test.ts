import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/app.js';
import { serviceDeskMeta } from './web.routes.js';

/**
 * The service desk's contact reaches the shell's pages inside index.html itself (no request of their
 * own, so the shell's list of calls stays as it is) and the embedded identity provider's pages, escaped.
 */
const HOSTILE = `Desk "x" <script>alert(1)</script> & 'co' $& $1`;

describe('the service desk contact in index.html', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ SERVICE_DESK_CONTACT: HOSTILE, SERVICE_DESK_LINK: 'tel:+442079460000' });
  });
  afterAll(() => t.close());

  it.each(['/', '/error/unauthorized', '/error/500', '/some/page'])('GET %s carries it as escaped <meta> elements', async (url) => {
    const res = await t.app.inject({ url, headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(
      '<meta name="service-desk-contact" content="Desk &quot;x&quot; &lt;script&gt;alert(1)&lt;/script&gt; &amp; &#39;co&#39; $&amp; $1" />',
    );
    expect(res.body).toContain('<meta name="service-desk-link" content="tel:+442079460000" />');
    expect(res.body).not.toContain('<script>alert');
    expect(res.body).toContain('<base href="/" />');
  });

  it('is no new address: nothing answers for it but the page', async () => {
    for (const url of ['/settings/ServiceDesk', '/settings/service-desk', '/api/service-desk']) {
      expect((await t.app.inject({ url })).statusCode).toBe(404);
    }
  });

  it('is on the identity provider pages too, as a link', async () => {
    const res = await t.app.inject({ url: '/idp/interaction/unknown-interaction' });
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain(
      'Need help? Contact the service desk: <a href="tel:+442079460000">Desk &quot;x&quot; &lt;script&gt;alert(1)&lt;/script&gt; &amp; &#39;co&#39; $&amp; $1</a>',
    );
  });
});

describe('without the setting', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('index.html and the identity provider pages name no contact', async () => {
    const page = await t.app.inject({ url: '/', headers: { accept: 'text/html' } });
    expect(page.body).not.toContain('service-desk');
    const idp = await t.app.inject({ url: '/idp/interaction/unknown-interaction' });
    expect(idp.body).not.toContain('Contact the service desk:');
  });

  it('serviceDeskMeta writes nothing, and only a text without a link', () => {
    expect(serviceDeskMeta(null)).toBe('');
    expect(serviceDeskMeta({ text: 'Desk', link: null })).toBe('\n    <meta name="service-desk-contact" content="Desk" />');
  });
});
