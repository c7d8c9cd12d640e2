/**
 * `Permissions-Policy`: the browser features the portal never uses are denied to it and to
 * anything it frames (QR codes are shown, never scanned: no camera). Passkeys and security keys are a
 * feature, so WebAuthn stays allowed for the portal's own origin; copying bypass codes writes the clipboard.
 */
const DENIED = [
  'accelerometer',
  'ambient-light-sensor',
  'autoplay',
  'bluetooth',
  'camera',
  'display-capture',
  'document-domain',
  'encrypted-media',
  'gamepad',
  'geolocation',
  'gyroscope',
  'hid',
  'idle-detection',
  'local-fonts',
  'magnetometer',
  'microphone',
  'midi',
  'payment',
  'picture-in-picture',
  'screen-wake-lock',
  'serial',
  'usb',
  'web-share',
  'xr-spatial-tracking',
  'clipboard-read',
] as const;

const SELF_ONLY = ['publickey-credentials-get', 'publickey-credentials-create', 'clipboard-write', 'fullscreen'] as const;

export const PERMISSIONS_POLICY = [...DENIED.map((f) => `${f}=()`), ...SELF_ONLY.map((f) => `${f}=(self)`)].join(', ');
