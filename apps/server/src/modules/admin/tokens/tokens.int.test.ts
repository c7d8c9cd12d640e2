import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminTokensResponseSchema } from '@mfa-portal/shared';
import { errorOf, meTestApp, type MeTestApp } from '../../../../test/me-api.js';
import { ADMIN, adminSnapshot, callAs, JUSTIFY } from '../../../../test/admin-api.js';

/**
 * Taking a token from its holder in the inventory when it is their only device: as with removing a
 * device on their page, the server refuses unless the administrator confirms (409
 * `device.last_device_confirmation_required`), and the list says beforehand how many devices the
 * holder has. paul@ (demo) holds only the token D100-0016; bob@ holds D100-0001 and an app.
 */

let m: MeTestApp;
beforeAll(async () => {
  m = await meTestApp();
});
afterAll(async () => m?.close());

const PAUL = 'paul@example.com';
const tokenOf = async (serial: string) =>
  adminTokensResponseSchema.parse((await callAs(m, ADMIN, 'GET', `/api/admin/tokens?q=${serial}`)).json()).tokens[0]!;
const devicesOf = async (upn: string) =>
  m.db
    .selectFrom('mfa_device as d')
    .innerJoin('mfa_user as u', 'u.id', 'd.user_id')
    .select('d.serial')
    .where('u.username', '=', upn)
    .execute();
const lastUnassign = () =>
  m.db
    .selectFrom('audit_event')
    .selectAll()
    .where('action', '=', 'admin.inventory.unassign')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow();

describe('GET /api/admin/tokens', () => {
  it("says how many devices each holder has, the token's included (null for a token nobody holds)", async () => {
    expect(await tokenOf('D100-0016')).toMatchObject({ assignedTo: PAUL, holderDevices: 1 });
    expect(await tokenOf('D100-0001')).toMatchObject({ assignedTo: 'bob@example.com', holderDevices: 2 });
    expect(await tokenOf('D100-0002')).toMatchObject({ assignedTo: null, holderDevices: null });
  });
});

describe("POST /api/admin/tokens/:serial/unassign of the holder's only device", () => {
  it('refuses without confirmation, changes nothing and records the refusal', async () => {
    const before = await adminSnapshot(m.db);
    const res = await callAs(m, ADMIN, 'POST', '/api/admin/tokens/D100-0016/unassign', JUSTIFY);
    expect(res.statusCode, res.body).toBe(409);
    expect(errorOf(res).code).toBe('device.last_device_confirmation_required');
    expect(await adminSnapshot(m.db)).toBe(before);
    expect(await devicesOf(PAUL)).toEqual([{ serial: 'D100-0016' }]);
    expect(await lastUnassign()).toMatchObject({
      target_upn: PAUL,
      outcome: 'failure',
      reason: 'device.last_device_confirmation_required',
    });
  });

  it('refuses a confirmation that is not true or false with 400 naming the field', async () => {
    const res = await callAs(m, ADMIN, 'POST', '/api/admin/tokens/D100-0016/unassign', { ...JUSTIFY, confirmLastDevice: 'yes' });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res)).toMatchObject({ code: 'request.invalid', details: { field: 'confirmLastDevice' } });
  });

  it('takes it once confirmed: the holder is left with no device, and the event says it was confirmed', async () => {
    const res = await callAs(m, ADMIN, 'POST', '/api/admin/tokens/D100-0016/unassign', { ...JUSTIFY, confirmLastDevice: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ serial: 'D100-0016', status: 'available', assignedTo: null, holderDevices: null });
    expect(await devicesOf(PAUL)).toEqual([]);
    const event = await lastUnassign();
    expect(event).toMatchObject({ target_upn: PAUL, outcome: 'success' });
    expect(JSON.parse(JSON.stringify(event.details))).toMatchObject({ serial: 'D100-0016', confirmLastDevice: true });
  });

  it('needs no confirmation when the holder keeps another device', async () => {
    const res = await callAs(m, ADMIN, 'POST', '/api/admin/tokens/D100-0001/unassign', JUSTIFY);
    expect(res.statusCode, res.body).toBe(200);
    expect((await devicesOf('bob@example.com')).map((d) => d.serial)).toEqual([null]);
  });
});
