/**
 * Names of well-known authenticator models by AAGUID, for the device list ("Security key · YubiKey 5
 * Series"). A small, hand-kept map of the models people commonly bring, taken from the community list
 * of passkey provider AAGUIDs and the FIDO Metadata Service; an unknown AAGUID just shows no model.
 * The all-zero AAGUID means "the authenticator did not say" (e.g. Safari, or Chromium when no
 * attestation is asked for: it then blanks the AAGUID) and has no name either.
 */
const MODELS: Readonly<Record<string, string>> = Object.freeze({
  'ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4': 'Google Password Manager',
  'adce0002-35bc-c60a-648b-0b25f1f05503': 'Chrome on Mac',
  '08987058-cadc-4b81-b6e1-30de50dcbe96': 'Windows Hello',
  '9ddd1817-af5a-4672-a2b9-3e3dd95000a9': 'Windows Hello',
  '6028b017-b1d4-4c02-b4b3-afcdafc96bb2': 'Windows Hello',
  'fbfc3007-154e-4ecc-8c0b-6e020557d7bd': 'iCloud Keychain',
  'dd4ec289-e01d-41c9-bb89-70fa845d4bf2': 'iCloud Keychain (Managed)',
  '53414d53-554e-4700-0000-000000000000': 'Samsung Pass',
  'bada5566-a7aa-401f-bd96-45619a55120d': '1Password',
  'd548826e-79b4-db40-a3d8-11116f7e8349': 'Bitwarden',
  '531126d6-e717-415c-9320-3d9aa6981239': 'Dashlane',
  'cb69481e-8ff7-4039-93ec-0a2729a154a8': 'YubiKey 5 Series',
  'ee882879-721c-4913-9775-3dfcce97072a': 'YubiKey 5 Series',
  'fa2b99dc-9e39-4257-8f92-4a30d23c4118': 'YubiKey 5 Series with NFC',
  '2fc0579f-8113-47ea-b116-bb5a8db9202a': 'YubiKey 5 Series with NFC',
  'c5ef55ff-ad9a-4b9f-b580-adebafe026d0': 'YubiKey 5Ci',
  '149a2021-8ef6-4133-96b8-81f8d5b7f1f5': 'Security Key by Yubico with NFC',
  'a4e9fc6d-4cbe-4758-b8ba-37598bb5bbaa': 'Security Key NFC by Yubico',
  '0bb43545-fd2c-4185-87dd-feb0b2916ace': 'Security Key NFC by Yubico (Enterprise Edition)',
  '42b4fb4a-2866-43b2-9bf7-6c6669c2e5d3': 'Google Titan Security Key v2',
});

export const UNKNOWN_AAGUID = '00000000-0000-0000-0000-000000000000';

/** The model's name for an AAGUID, or null when it is unknown (or the authenticator did not say). */
export function authenticatorModel(aaguid: string | null | undefined): string | null {
  if (!aaguid) return null;
  return MODELS[aaguid.toLowerCase()] ?? null;
}
