/** Paths of the administration API (`/api/admin/...`), resolved under the base path by the client. */
const user = (upn: string) => `/api/admin/users/${encodeURIComponent(upn)}`;

export const ADMIN_API = {
  users: '/api/admin/users',
  user,
  verifyIdentity: (upn: string) => `${user(upn)}/verify-identity`,
  verifyIdentityPush: (upn: string) => `${user(upn)}/verify-identity/push`,
  verifyIdentityPushStatus: (upn: string, txid: string) => `${user(upn)}/verify-identity/push/${encodeURIComponent(txid)}`,
  bypassCodes: (upn: string) => `${user(upn)}/bypass-codes`,
  device: (upn: string, id: string) => `${user(upn)}/devices/${encodeURIComponent(id)}`,
  deviceResync: (upn: string, id: string) => `${user(upn)}/devices/${encodeURIComponent(id)}/resync`,
  lostDevice: (upn: string) => `${user(upn)}/lost-device`,
  unlock: (upn: string) => `${user(upn)}/unlock`,
  activation: (upn: string) => `${user(upn)}/activation`,
  tokens: '/api/admin/tokens',
  tokenImport: '/api/admin/tokens/import',
  tokenUnassign: (serial: string) => `/api/admin/tokens/${encodeURIComponent(serial)}/unassign`,
  tokenRetire: (serial: string) => `/api/admin/tokens/${encodeURIComponent(serial)}/retire`,
  audit: '/api/admin/audit',
  auditCsv: '/api/admin/audit.csv',
  auditVerify: '/api/admin/audit/verify',
} as const;
