import { createHash } from 'node:crypto';

/**
 * The portal names devices and bypass codes by UUID (its routes validate them as such); Duo names them
 * by 20-character ids (`DPFZRS9FB0D46QFTM899`). The adapter maps one to the other without storing
 * anything: the portal id is the name-based UUID (RFC 9562 version 5) of the Duo object's kind and id.
 * The mapping back is a lookup among the user's own objects, which also scopes every id to its user.
 */

/** Namespace of the portal's Duo-object UUIDs (random, fixed forever: changing it renames every device). */
export const DUO_ID_NAMESPACE = '6f1c4d9e-2b7a-4f53-9a0e-5d8c3b1e7a42';

export type DuoObjectKind = 'phone' | 'token' | 'bypass_code' | 'webauthn';

export function uuidV5(namespace: string, name: string): string {
  const ns = Buffer.from(namespace.replace(/-/g, ''), 'hex');
  if (ns.length !== 16) throw new Error('the namespace must be a UUID');
  const hash = createHash('sha1').update(ns).update(name, 'utf8').digest();
  const bytes = hash.subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The portal id of a Duo phone, hardware token or bypass code. */
export function portalIdOf(kind: DuoObjectKind, duoId: string): string {
  return uuidV5(DUO_ID_NAMESPACE, `duo:${kind}:${duoId}`);
}
