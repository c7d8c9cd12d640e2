import { userActions } from './users-actions.js';
import type { UsersServiceDeps } from './users-deps.js';
import { userReads } from './users-reads.js';

export type { UsersServiceDeps } from './users-deps.js';

/**
 * Acting on one user (`/api/admin/users/...`, Helpdesk and Solution Administrators): search, read a
 * user's page, check their identity (passcode or push), issue bypass codes, remove or resynchronise a
 * device, end a lockout, give the enrolment link. Routes authorise first; every action is audited
 * with the role used, the reason and the ticket. Never a code or a secret in the audit log.
 *
 * Two halves: the reads (users-reads.ts) and the audited actions (users-actions.ts).
 */
export function createUsersService(deps: UsersServiceDeps) {
  return { ...userReads(deps), ...userActions(deps) };
}

export type UsersService = ReturnType<typeof createUsersService>;
