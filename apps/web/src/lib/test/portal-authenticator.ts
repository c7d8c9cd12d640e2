import type { Device } from '@mfa-portal/shared';
import { capabilitiesOf, json } from './fake-api';

/** A phone activated in the portal's own authenticator app, as the server lists it. */
export const pixel: Device = {
  id: 'd7',
  kind: 'phone',
  name: 'Pixel 8',
  capabilities: ['push', 'passcode'],
  phoneNumber: null,
  platform: 'android',
  serial: null,
  tokenType: null,
  app: 'portal_authenticator',
  createdAt: '2025-05-01T14:06:00.000Z',
  lastUsedAt: null,
};

/** The builtin provider's capabilities once it serves the portal's authenticator app (push, no Duo phones). */
export const builtinWithApp = () => json({ ...capabilitiesOf('builtin'), push: true, authenticatorApp: true });
