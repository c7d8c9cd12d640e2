import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { meTestApp, type MeTestApp } from '../test/me-api.js';

const ROUTES: Array<[method: 'get' | 'post' | 'put' | 'patch' | 'delete', path: string]> = [
  ['get', '/api/me/devices'],
  ['post', '/api/me/devices/authenticator'],
  ['post', '/api/me/devices/authenticator/{enrolmentId}/confirm'],
  ['post', '/api/me/devices/hardware-token'],
  ['post', '/api/me/devices/{id}/resync'],
  ['patch', '/api/me/devices/{id}'],
  ['delete', '/api/me/devices/{id}'],
  ['post', '/api/me/devices/{id}/test'],
  ['get', '/api/me/bypass-codes'],
  ['post', '/api/me/bypass-codes'],
  ['delete', '/api/me/bypass-codes/{id}'],
  ['get', '/api/me/step-up'],
  ['post', '/api/me/step-up'],
  ['get', '/api/me/activity'],
  ['post', '/api/me/activity/{id}/report'],
  ['post', '/api/me/sign-out'],
  ['get', '/api/me/capabilities'],
  ['get', '/api/me/default-method'],
  ['put', '/api/me/default-method'],
  ['post', '/api/me/devices/phone'],
  ['get', '/api/me/devices/{id}/activation'],
  ['post', '/api/me/devices/{id}/activation/sms'],
  ['post', '/api/me/devices/{id}/push'],
  ['get', '/api/me/devices/{id}/push/{txid}'],
  ['post', '/api/me/step-up/push'],
  ['get', '/api/me/step-up/push/{txid}'],
  ['post', '/api/me/webauthn/registration'],
  ['post', '/api/me/webauthn/registration/verify'],
  ['post', '/api/me/step-up/webauthn/options'],
  ['post', '/api/me/step-up/webauthn'],
  ['post', '/api/me/devices/{id}/webauthn-test/options'],
  ['post', '/api/me/devices/{id}/webauthn-test'],
  ['get', '/api/me/enrolment-policy'],
  ['post', '/api/me/enrolment-pass'],
  ['post', '/api/me/devices/authenticator-app'],
  ['get', '/api/me/devices/authenticator-app/{activationId}'],
  ['get', '/api/me/push/{txid}/events'],
  ['get', '/api/me/factor-policy'],
  ['get', '/api/me/campaign'],
  ['post', '/api/me/campaign/{id}/snooze'],
];

describe('GET /api/docs', () => {
  let m: MeTestApp;
  beforeAll(async () => {
    m = await meTestApp();
  });
  afterAll(() => m.close());

  it('serves the OpenAPI document generated from the route schemas, with every /api/me route', async () => {
    const res = await m.t.app.inject({ url: '/api/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const [method, path] of ROUTES) {
      expect(doc.paths[path]?.[method], `${method.toUpperCase()} ${path}`).toBeDefined();
      expect(doc.paths[path][method].security).toEqual([{ bearerAuth: [] }]);
    }
    expect(
      Object.keys(doc.paths)
        .filter((p) => p.startsWith('/api/me'))
        .sort(),
    ).toEqual([...new Set(ROUTES.map(([, p]) => p))].sort());
  });

  it('documents the phone number rule of POST /api/me/devices/phone (E.164)', async () => {
    const doc = (await m.t.app.inject({ url: '/api/docs' })).json();
    const body = doc.paths['/api/me/devices/phone'].post.requestBody.content['application/json'].schema;
    expect(body.properties.number.pattern).toBe('^\\+[1-9][0-9]{6,14}$');
    expect(body.properties.platform.enum).toEqual(['ios', 'android', 'other']);
    expect(body.required).toEqual(expect.arrayContaining(['number', 'platform']));
  });

  it('carries the validation rules and error answers of the schemas', async () => {
    const doc = (await m.t.app.inject({ url: '/api/docs' })).json();
    const create = doc.paths['/api/me/bypass-codes'].post;
    const body = create.requestBody.content['application/json'].schema;
    expect(body.properties.validitySeconds).toMatchObject({ minimum: 60, maximum: 604_800 });
    expect(body.properties.count).toMatchObject({ minimum: 1, maximum: 10 });
    expect(body.required).toEqual(expect.arrayContaining(['count', 'validitySeconds']));
    expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(['201', '400', '401', '403', '409', '429']));
    const confirm = doc.paths['/api/me/devices/authenticator/{enrolmentId}/confirm'].post;
    expect(confirm.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ in: 'path', name: 'enrolmentId', required: true })]),
    );
    const activity = doc.paths['/api/me/activity'].get;
    expect(activity.parameters.map((p: { name: string }) => p.name).sort()).toEqual(['cursor', 'limit']);
  });
});

describe('/api/me without a token', () => {
  let m: MeTestApp;
  beforeAll(async () => {
    m = await meTestApp();
  });
  afterAll(() => m.close());

  it.each(ROUTES)('%s %s answers 401 before any validation', async (method, path) => {
    const url = path.replace('{id}', 'not-an-id').replace('{enrolmentId}', 'not-an-id');
    const res = await m.t.app.inject({
      method: method.toUpperCase() as 'GET',
      url,
      ...(method === 'get' ? {} : { payload: { junk: true } }),
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('auth.token_missing');
  });

  it('401 for a token signed by someone else', async () => {
    const res = await m.t.app.inject({ url: '/api/me/devices', headers: { authorization: 'Bearer aaa.bbb.ccc' } });
    expect(res.statusCode).toBe(401);
  });
});
