import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_STATUS } from '../../src/lib/error-status.js';
import { duoAdminApi } from '../../src/mfa/duo/admin-api.js';
import { portalIdOf } from '../../src/mfa/duo/ids.js';
import { toAppError } from '../../src/mfa/errors.js';
import { MfaError } from '../../src/mfa/port.js';
import type { DuoStandin } from './duo-standin.js';
import { clientsFor, providerFor, refusal, seedDemoStaff, startStandin } from './support.js';

/** Duo's answers at the edges: an expired verification push, a delete of what is gone, a per-user limit. */

let standin: DuoStandin;
let seed: ReturnType<typeof seedDemoStaff>;

beforeAll(async () => {
  standin = await startStandin({ bypassCodeLimit: 3, phoneLimit: 1 });
  seed = seedDemoStaff(standin);
});
afterAll(() => standin.close());

describe('Duo at the edges', () => {
  it('a verification push older than 120 s: Duo answers 404, the adapter reads timeout', async () => {
    const { provider: duo } = providerFor(standin);
    const { pushId } = await duo.sendVerificationPush('bob@example.com', portalIdOf('phone', seed.bobPhone.phone_id));
    expect(await duo.verificationPushResponse('bob@example.com', pushId)).toMatchObject({ state: 'waiting' });
    standin.advanceClock(121_000);
    expect(await duo.verificationPushResponse('bob@example.com', pushId)).toMatchObject({ state: 'timeout' });
    expect(standin.requestsTo('GET', /verification_push_response$/).at(-1)!.status).toBe(404);
  });

  it('deleting what is already gone: 200 at Duo, done for the adapter', async () => {
    const { admin } = clientsFor(standin);
    const api = duoAdminApi(admin);
    await expect(api.deleteBypassCode('DBNOSUCHCODE000000')).resolves.toBe('');
    await expect(api.deletePhone('DPNOSUCHPHONE00000')).resolves.toBe('');
    await expect(api.deleteWebauthnCredential('WANOSUCHKEY0000000')).resolves.toBe('');
  });

  it('a per-user limit at Duo (500, code 50001): 409 mfa.provider_limit_reached, nothing half-made', async () => {
    const { provider: duo } = providerFor(standin);
    const zoe = standin.addUser({ username: 'zoe@example.com' });
    standin.addBypassCode(zoe.user_id, { code: '111111111', expiration: null, reuseCount: 1 });
    standin.addBypassCode(zoe.user_id, { code: '222222222', expiration: null, reuseCount: 1 });
    const before = standin.snapshot();
    const err = await refusal(
      duo.createBypassCodes('zoe@example.com', { count: 2, validitySeconds: 600, reuseCount: 1, replaceExisting: false, createdBy: 'x' }),
    );
    expect(err).toBeInstanceOf(MfaError);
    expect(toAppError(err)!.code).toBe('mfa.provider_limit_reached');
    expect(ERROR_STATUS['mfa.provider_limit_reached']).toBe(409);
    expect(standin.requestsTo('POST', /\/bypass_codes$/).at(-1)).toMatchObject({ status: 500 });
    expect(standin.snapshot()).toBe(before);

    // Phones: one allowed here; a second is refused and the phone made for it is removed again.
    standin.addPhone({ userId: zoe.user_id, number: '+15555550900' });
    const phones = standin.phones.size;
    const phoneErr = await refusal(
      duo.addPhone('zoe@example.com', { number: '+15555550901', platform: 'ios' }, { allowWhenDevicesExist: true }),
    );
    expect(toAppError(phoneErr)!.code).toBe('mfa.provider_limit_reached');
    expect(standin.phones.size).toBe(phones);
  });

  it('a plain internal error (50001 without a limit named) stays an outage: 503', async () => {
    const { provider: duo } = providerFor(standin);
    standin.failNext({ times: 1, status: 500, method: 'POST', path: /\/bypass_codes$/ });
    const err = await refusal(
      duo.createBypassCodes('bob@example.com', { count: 1, validitySeconds: 600, reuseCount: 1, replaceExisting: false, createdBy: 'x' }),
    );
    expect(err).toMatchObject({ code: 'mfa.provider_unavailable', statusCode: 503 });
  });
});
