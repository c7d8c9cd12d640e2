/**
 * Passkey or security key? From what the browser and authenticator say at registration:
 * - a backup-eligible (synced) credential, a platform authenticator, or one reached over `hybrid`
 *   (a phone) or `internal` is a passkey;
 * - a roaming authenticator over USB, NFC or Bluetooth (cross-platform, not synced) is a security key.
 */
export function classifyCredential(input: {
  attachment: 'platform' | 'cross-platform' | null;
  transports: readonly string[];
  backupEligible: boolean;
}): 'passkey' | 'security_key' {
  const { attachment, transports, backupEligible } = input;
  if (backupEligible || attachment === 'platform') return 'passkey';
  if (transports.includes('internal') || transports.includes('hybrid')) return 'passkey';
  if (attachment === 'cross-platform') return 'security_key';
  if (transports.some((t) => t === 'usb' || t === 'nfc' || t === 'ble' || t === 'smart-card')) return 'security_key';
  return 'passkey';
}
