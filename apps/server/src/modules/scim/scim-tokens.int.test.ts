import { describe, expect, it } from 'vitest';
import { ADMIN, BOB, callAs, HELPDESK } from '../../../test/admin-api.js';
import { entraUser, expectScimError, useScimTestApp } from '../../../test/scim-api.js';

const s = useScimTestApp();

const URL = '/api/admin/scim-tokens';

describe('/api/admin/scim-tokens', () => {
  it('a Solution Administrator creates a token (shown once, stored hashed) that SCIM accepts under its name', async () => {
    const res = await callAs(s, ADMIN, 'POST', URL, { name: 'Entra provisioning' });
    expect(res.statusCode, res.body).toBe(201);
    const { token, secret } = res.json();
    expect(secret).toMatch(/^scim_[A-Za-z0-9_-]{43}$/);
    expect(token).toMatchObject({ name: 'Entra provisioning', createdBy: ADMIN.upn, lastUsedAt: null, revokedAt: null });
    const stored = await s.db.selectFrom('scim_token').selectAll().where('id', '=', token.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(secret);

    const created = await s.scim('POST', '/Users', entraUser('tokened@example.com'), { token: secret });
    expect(created.statusCode).toBe(201);
    expect((await s.auditOf('scim.user.create')).at(-1)).toMatchObject({ actor_upn: 'Entra provisioning' });

    const list = (await callAs(s, ADMIN, 'GET', URL)).json();
    expect(list.environmentToken).toBe(true);
    expect(list.endpoint).toBe('https://localhost:8443/scim/v2');
    expect(list.tokens.find((t: { id: string }) => t.id === token.id).lastUsedAt).not.toBeNull();
    expect(JSON.stringify(list)).not.toContain(secret);
    expect((await s.auditOf('admin.scim_token.create')).at(-1)).toMatchObject({ actor_upn: ADMIN.upn, outcome: 'success' });
  });

  it('revoking a token stops it at once (401) and is audited', async () => {
    const { token, secret } = (await callAs(s, ADMIN, 'POST', URL, { name: 'Short lived' })).json();
    const revoked = await callAs(s, ADMIN, 'DELETE', `${URL}/${token.id}`);
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().revokedAt).not.toBeNull();
    expectScimError(await s.scim('GET', '/Users', undefined, { token: secret }), 401);
    expect((await callAs(s, ADMIN, 'DELETE', `${URL}/${token.id}`)).json().code).toBe('scim_token.not_found');
    // An id that is not a token's id at all is bad input, named; a well-formed unknown one is not found.
    const malformed = await callAs(s, ADMIN, 'DELETE', `${URL}/not-an-id`);
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().details).toMatchObject({ field: 'id' });
    expect((await callAs(s, ADMIN, 'DELETE', `${URL}/00000000-0000-4000-8000-000000000000`)).json().code).toBe('scim_token.not_found');
    expect((await s.auditOf('admin.scim_token.revoke')).at(-1)).toMatchObject({
      actor_upn: ADMIN.upn,
      details: { tokenName: 'Short lived' },
    });
    // The name is free again once revoked.
    expect((await callAs(s, ADMIN, 'POST', URL, { name: 'Short lived' })).statusCode).toBe(201);
  });

  it('refuses a duplicate or reserved name (409) and a bad name (400)', async () => {
    await callAs(s, ADMIN, 'POST', URL, { name: 'Twice' });
    expect((await callAs(s, ADMIN, 'POST', URL, { name: 'twice' })).json()).toMatchObject({
      code: 'scim_token.name_taken',
      details: { field: 'name' },
    });
    expect((await callAs(s, ADMIN, 'POST', URL, { name: 'scim_token' })).statusCode).toBe(409);
    for (const name of ['', 'x'.repeat(65), 'bad\u0000name', 'someone@example.com']) {
      const res = await callAs(s, ADMIN, 'POST', URL, { name });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'request.invalid', details: { field: 'name' } });
    }
  });

  it.each([
    ['helpdesk', HELPDESK],
    ['staff', BOB],
  ])('is refused to %s (403, audited) before the input is read', async (_label, who) => {
    const count = (await s.db.selectFrom('scim_token').select('id').execute()).length;
    const res = await callAs(s, who, 'POST', URL, { name: 'Sneaky' });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('auth.forbidden');
    expect((await callAs(s, who, 'GET', URL)).statusCode).toBe(403);
    expect((await s.db.selectFrom('scim_token').select('id').execute()).length).toBe(count);
    expect((await s.auditOf('admin.scim_tokens.manage')).at(-1)).toMatchObject({ actor_upn: who.upn, outcome: 'failure' });
  });

  it('answers 401 without a token', async () => {
    expect((await callAs(s, null, 'GET', URL)).statusCode).toBe(401);
  });
});
