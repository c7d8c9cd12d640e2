/** Paths of the self-service API (`/api/me/...`), resolved under the base path by the client. */
export const ME_API = {
  devices: '/api/me/devices',
  device: (id: string) => `/api/me/devices/${encodeURIComponent(id)}`,
  deviceTest: (id: string) => `/api/me/devices/${encodeURIComponent(id)}/test`,
  deviceResync: (id: string) => `/api/me/devices/${encodeURIComponent(id)}/resync`,
  authenticatorEnrolments: '/api/me/devices/authenticator',
  authenticatorConfirm: (enrolmentId: string) => `/api/me/devices/authenticator/${encodeURIComponent(enrolmentId)}/confirm`,
  hardwareTokens: '/api/me/devices/hardware-token',
  bypassCodes: '/api/me/bypass-codes',
  bypassCode: (id: string) => `/api/me/bypass-codes/${encodeURIComponent(id)}`,
  stepUp: '/api/me/step-up',
  activity: '/api/me/activity',
} as const;
