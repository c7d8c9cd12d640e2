/**
 * TanStack Query keys of the administration area. Everything about one user starts with
 * `['admin', 'user', upn]`, so one invalidation after an action refreshes their page and wizard.
 */
export const adminKeys = {
  all: ['admin'] as const,
  search: (q: string, cursor: string | undefined) => ['admin', 'users', q, cursor ?? ''] as const,
  user: (upn: string) => ['admin', 'user', upn.toLowerCase()] as const,
  userDetail: (upn: string) => ['admin', 'user', upn.toLowerCase(), 'detail'] as const,
  lostDevice: (upn: string) => ['admin', 'user', upn.toLowerCase(), 'lost-device'] as const,
  /** Outside the user's prefix: refreshing their page after the answer does not ask about the push again. */
  verifyPush: (upn: string, txid: string) => ['admin', 'verify-push', upn.toLowerCase(), txid] as const,
  tokens: (q: string, status: string) => ['admin', 'tokens', q, status] as const,
  allTokens: ['admin', 'tokens'] as const,
  audit: (filter: object) => ['admin', 'audit', filter] as const,
  auditVerification: (id: string) => ['admin', 'audit-verification', id] as const,
  webauthnPolicy: ['admin', 'webauthn-policy'] as const,
  reportsCoverage: (from: string, to: string) => ['admin', 'reports', 'coverage', from, to] as const,
  reportsAuditStreams: ['admin', 'reports', 'audit-streams'] as const,
  units: ['admin', 'units'] as const,
  directoryGroups: (q: string) => ['admin', 'directory-groups', q] as const,
  factorPolicy: ['admin', 'factor-policy'] as const,
  campaigns: ['admin', 'campaigns'] as const,
  /** Whom the signed-in administrator can help (their units, if any). */
  reach: ['admin', 'reach'] as const,
  reportList: (name: string, cursor: string | undefined, days: number | undefined) =>
    ['admin', 'reports', name, cursor ?? '', days ?? ''] as const,
};
