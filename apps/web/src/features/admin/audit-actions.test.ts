import { describe, expect, it } from 'vitest';
import { adminAuditQuerySchema } from '@mfa-portal/shared';
import { AUDIT_ACTION_VALUES } from './components/audit-actions';

describe("the audit log's action filter in words", () => {
  it('sends only what the API takes as it is: an action, or a family ending in .*', () => {
    for (const action of AUDIT_ACTION_VALUES) expect(adminAuditQuerySchema.safeParse({ action }).success, action).toBe(true);
  });

  it('offers each action or family once', () => {
    expect(new Set(AUDIT_ACTION_VALUES).size).toBe(AUDIT_ACTION_VALUES.length);
  });
});
