import { describe, expect, it } from 'vitest';
import { isProtectedAccount, portalRoleOf } from './roles.js';
import { userInfoQuerySchema } from './profile.js';

describe('portalRoleOf', () => {
  it('gives the highest role the token grants', () => {
    expect(portalRoleOf([])).toBe('staff');
    expect(portalRoleOf(['Helpdesk Administrator'])).toBe('helpdesk');
    expect(portalRoleOf(['Helpdesk Administrator', 'Solution Administrator'])).toBe('solution_admin');
    expect(portalRoleOf(['helpdesk administrator'])).toBe('staff');
  });

  it('uses configured role names', () => {
    const names = { helpdesk: 'MFA.Helpdesk', solutionAdmin: 'MFA.Admin', restricted: ['MFA.Admin'] };
    expect(portalRoleOf(['MFA.Helpdesk'], names)).toBe('helpdesk');
    expect(portalRoleOf(['Helpdesk Administrator'], names)).toBe('staff');
  });
});

describe('isProtectedAccount', () => {
  it('marks holders of a restricted role', () => {
    expect(isProtectedAccount(['Solution Administrator'])).toBe(true);
    expect(isProtectedAccount(['Helpdesk Administrator'])).toBe(true);
    expect(isProtectedAccount(['Reader'])).toBe(false);
  });
});

describe('userInfoQuerySchema', () => {
  it('requires userid and defaults the optional fields to empty strings', () => {
    expect(userInfoQuerySchema.parse({ userid: ' bob@example.com ' })).toEqual({
      userid: 'bob@example.com',
      email: '',
      firstname: '',
      lastname: '',
    });
    expect(userInfoQuerySchema.safeParse({}).success).toBe(false);
    expect(userInfoQuerySchema.safeParse({ userid: 'x'.repeat(257) }).success).toBe(false);
  });
});
