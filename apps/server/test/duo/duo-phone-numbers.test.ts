import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_STATUS } from '../../src/lib/error-status.js';
import { duoAdminApi } from '../../src/mfa/duo/admin-api.js';
import { DuoApiError } from '../../src/mfa/duo/errors.js';
import { toAppError } from '../../src/mfa/errors.js';
import { MfaError } from '../../src/mfa/port.js';
import type { DuoStandin } from './duo-standin.js';
import { clientsFor, providerFor, refusal, startStandin } from './support.js';

/** Duo holds one phone per number: Create Phone refuses a second (40003), so a known number is looked up first. */

let standin: DuoStandin;

beforeAll(async () => {
  standin = await startStandin();
});
afterAll(() => standin.close());

describe('a phone number Duo already holds', () => {
  it('Create Phone with a number Duo holds: 400, code 40003 (the stand-in, as Duo)', async () => {
    standin.addPhone({ number: '+15555550700' });
    const { admin } = clientsFor(standin);
    const err = await refusal(duoAdminApi(admin).createPhone({ number: '+15555550700', name: '', type: 'mobile', platform: 'apple ios' }));
    expect(err).toBeInstanceOf(DuoApiError);
    expect(err).toMatchObject({ httpStatus: 400, duoCode: 40003 });
  });

  it('re-added after Delete User: the phone Duo kept is associated again (no second phone) and must be activated again', async () => {
    const { provider: duo } = providerFor(standin);
    const first = standin.addUser({ username: 'rita@example.com' });
    const phone = standin.addPhone({ userId: first.user_id, number: '+15555550701', name: 'Rita’s phone', activated: true });
    const { admin } = clientsFor(standin);
    await duoAdminApi(admin).deleteUser(first.user_id);
    expect(standin.phones.get(phone.phone_id)!.userIds).toEqual([]);

    const again = standin.addUser({ username: 'rita@example.com' });
    const phonesBefore = standin.phones.size;
    const device = await duo.addPhone('rita@example.com', { number: '+1 555 555 0701', platform: 'ios' }, { allowWhenDevicesExist: false });
    expect(standin.phones.size).toBe(phonesBefore);
    expect(standin.phones.get(phone.phone_id)!.userIds).toEqual([again.user_id]);
    expect(device.capabilities).toEqual([]);
    expect(standin.requestsTo('POST', /^\/admin\/v1\/phones$/)).toHaveLength(1); // only the first test's
    expect(standin.requestsTo('GET', /^\/admin\/v1\/phones$/).at(-1)!.params).toMatchObject({ number: '+15555550701' });
  });

  it('held by another user: 409 mfa.phone_in_use, and the phone stays theirs', async () => {
    const { provider: duo } = providerFor(standin);
    const owner = standin.addUser({ username: 'owner@example.com' });
    const phone = standin.addPhone({ userId: owner.user_id, number: '+15555550702', activated: true });
    standin.addUser({ username: 'other@example.com' });
    const before = standin.snapshot();
    const err = await refusal(
      duo.addPhone('other@example.com', { number: '+15555550702', platform: 'android' }, { allowWhenDevicesExist: false }),
    );
    expect(err).toBeInstanceOf(MfaError);
    const app = toAppError(err)!;
    expect(app.code).toBe('mfa.phone_in_use');
    expect(ERROR_STATUS['mfa.phone_in_use']).toBe(409);
    expect(standin.snapshot()).toBe(before);
    expect(standin.phones.get(phone.phone_id)!.userIds).toEqual([owner.user_id]);
  });
});
