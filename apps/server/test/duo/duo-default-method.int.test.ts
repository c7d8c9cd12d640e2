import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultMethodResponseSchema } from '@mfa-portal/shared';
import { portalIdOf } from '../../src/mfa/duo/ids.js';
import { errorOf, meTestApp, type MeTestApp } from '../me-api.js';
import type { DuoStandin } from './duo-standin.js';
import { duoEnv, seedDemoStaff, startStandin } from './support.js';

/**
 * On Duo, Duo's own prompt decides which device a sign-in asks first: the portal says so, offers
 * nothing to choose and stores no choice.
 */

let standin: DuoStandin;
let m: MeTestApp;
let bobPhone: string;
const BOB = 'bob@example.com';

beforeAll(async () => {
  standin = await startStandin();
  const seed = seedDemoStaff(standin);
  m = await meTestApp(duoEnv(standin));
  bobPhone = portalIdOf('phone', seed.bobPhone.phone_id);
});
afterAll(async () => {
  await m?.close();
  await standin?.close();
});

describe('the default sign-in method on Duo', () => {
  it("says Duo's prompt decides, with nothing to choose", async () => {
    const res = await m.call(BOB, 'GET', '/default-method');
    expect(res.statusCode, res.body).toBe(200);
    expect(defaultMethodResponseSchema.parse(res.json())).toEqual({
      decidedBy: 'mfa_provider',
      current: null,
      source: 'recommended',
      choices: [],
    });
  });

  it('refuses a choice as not supported by the provider, storing nothing', async () => {
    const res = await m.call(BOB, 'PUT', '/default-method', { deviceId: bobPhone, method: 'push' });
    expect(res.statusCode).toBe(409);
    expect(errorOf(res).code).toBe('mfa.not_supported_by_provider');
    expect(await m.db.selectFrom('default_sign_in_method').selectAll().execute()).toEqual([]);
  });
});
