import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Authenticated encryption of secrets at rest (TOTP secrets, hardware-token seeds) with AES-256-GCM.
 *
 * Sealed format, versioned and self-describing, safe in a text column:
 *
 *     v1.<keyId>.<iv>.<tag>.<ciphertext>        (iv, tag and ciphertext in unpadded base64url)
 *
 * - a fresh random 12-byte IV per seal, a 16-byte tag;
 * - the caller's AAD (e.g. `mfa_device:<id>`) binds a ciphertext to its row: copying the column to
 *   another row makes it unreadable. The version and key id are authenticated too;
 * - any change (tamper, wrong AAD, wrong key, truncation, non-canonical base64) throws a
 *   {@link SecretBoxError}; `open` never returns garbage;
 * - key rotation: seal with the current key, open with any key known by id; {@link SecretBox.needsReseal}
 *   tells a rotation job which values still use an old key.
 */

export const SECRET_BOX_VERSION = 'v1';
export const SECRET_BOX_KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const ALGORITHM = 'aes-256-gcm';
/** Key ids appear in the sealed string, so they are short and never contain the `.` separator. */
const KEY_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
const BASE64URL_PATTERN = /^[A-Za-z0-9_-]*$/;

export type SecretBoxErrorCode =
  /** The key given to parseKey or createSecretBox is not 32 bytes, or a key id is not usable. */
  | 'invalid_key'
  /** The sealed string does not have the expected shape or version. */
  | 'malformed'
  /** The sealed string names a key id this box does not hold. */
  | 'unknown_key'
  /** The tag did not verify: tampered data, wrong AAD or wrong key. */
  | 'authentication_failed';

export class SecretBoxError extends Error {
  override readonly name = 'SecretBoxError';
  constructor(
    readonly code: SecretBoxErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export interface SecretBox {
  /** Id of the key new values are sealed with. */
  readonly currentKeyId: string;
  /** Encrypts `plaintext`, bound to `aad` (non-empty, e.g. `mfa_device:<id>`). */
  seal(plaintext: string | Buffer, aad: string): string;
  /** Decrypts a value sealed with the same `aad` by any key this box holds; throws SecretBoxError otherwise. */
  open(sealed: string, aad: string): Buffer;
  /** True when `sealed` uses another key than the current one (re-seal it during key rotation). */
  needsReseal(sealed: string): boolean;
}

export interface SecretBoxOptions {
  /** Older keys, by id, still accepted for opening (key rotation). They never seal. */
  previousKeys?: Readonly<Record<string, Buffer>> | ReadonlyMap<string, Buffer>;
}

/**
 * Decodes a base64 (or base64url) 32-byte key from configuration, e.g. from `openssl rand -base64 32`.
 * Throws a SecretBoxError('invalid_key') that says what is wrong without echoing the value.
 */
export function parseKey(base64: string): Buffer {
  const text = base64.trim();
  if (text.length === 0) {
    throw new SecretBoxError('invalid_key', 'The encryption key is empty: expected 32 bytes in base64 (openssl rand -base64 32).');
  }
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) {
    throw new SecretBoxError('invalid_key', 'The encryption key is not base64: expected 32 bytes in base64 (openssl rand -base64 32).');
  }
  const key = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (key.length !== SECRET_BOX_KEY_BYTES) {
    throw new SecretBoxError(
      'invalid_key',
      `The encryption key must be ${SECRET_BOX_KEY_BYTES} bytes, got ${key.length}: expected base64 (openssl rand -base64 32).`,
    );
  }
  return key;
}

export function createSecretBox(key: Buffer, keyId: string, options: SecretBoxOptions = {}): SecretBox {
  const keys = new Map<string, Buffer>();
  const previous = options.previousKeys instanceof Map ? options.previousKeys : new Map(Object.entries(options.previousKeys ?? {}));
  for (const [id, previousKey] of previous) keys.set(id, checkedKey(previousKey, id));
  // The current key wins if an id is listed twice.
  keys.set(keyId, checkedKey(key, keyId));
  const currentKey = keys.get(keyId) as Buffer;

  return {
    currentKeyId: keyId,

    seal(plaintext, aad) {
      checkAad(aad);
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv(ALGORITHM, currentKey, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(associatedData(keyId, aad));
      const data = typeof plaintext === 'string' ? Buffer.from(plaintext, 'utf8') : plaintext;
      const ciphertext = Buffer.concat([cipher.update(data), cipher.final()]);
      const tag = cipher.getAuthTag();
      return [SECRET_BOX_VERSION, keyId, b64url(iv), b64url(tag), b64url(ciphertext)].join('.');
    },

    open(sealed, aad) {
      checkAad(aad);
      const parts = parse(sealed);
      const openingKey = keys.get(parts.keyId);
      if (!openingKey) {
        throw new SecretBoxError('unknown_key', `No key with id "${parts.keyId}" is configured to open this value.`);
      }
      const decipher = createDecipheriv(ALGORITHM, openingKey, parts.iv, { authTagLength: TAG_BYTES });
      decipher.setAAD(associatedData(parts.keyId, aad));
      decipher.setAuthTag(parts.tag);
      try {
        return Buffer.concat([decipher.update(parts.ciphertext), decipher.final()]);
      } catch {
        throw new SecretBoxError('authentication_failed', 'The sealed value failed authentication (tampered, wrong key or wrong row).');
      }
    },

    needsReseal(sealed) {
      return parse(sealed).keyId !== keyId;
    },
  };
}

function checkedKey(key: Buffer, keyId: string): Buffer {
  if (!KEY_ID_PATTERN.test(keyId)) {
    throw new SecretBoxError('invalid_key', 'A key id must be 1 to 64 characters among A-Z a-z 0-9 _ -.');
  }
  if (!Buffer.isBuffer(key) || key.length !== SECRET_BOX_KEY_BYTES) {
    throw new SecretBoxError('invalid_key', `The key "${keyId}" must be ${SECRET_BOX_KEY_BYTES} bytes.`);
  }
  return Buffer.from(key); // a private copy: later changes to the caller's buffer do not affect the box
}

function checkAad(aad: string): void {
  if (typeof aad !== 'string' || aad.length === 0) {
    throw new TypeError('SecretBox needs a non-empty AAD naming the row, e.g. "mfa_device:<id>".');
  }
}

/** Authenticates the header with the caller's AAD. The key id cannot contain '.', so this is unambiguous. */
function associatedData(keyId: string, aad: string): Buffer {
  return Buffer.from(`${SECRET_BOX_VERSION}.${keyId}.${aad}`, 'utf8');
}

interface SealedParts {
  keyId: string;
  iv: Buffer;
  tag: Buffer;
  ciphertext: Buffer;
}

function parse(sealed: string): SealedParts {
  if (typeof sealed !== 'string') throw new SecretBoxError('malformed', 'The sealed value is not a string.');
  const parts = sealed.split('.');
  if (parts.length !== 5) throw new SecretBoxError('malformed', 'The sealed value does not have five parts.');
  const [version, keyId, iv, tag, ciphertext] = parts as [string, string, string, string, string];
  if (version !== SECRET_BOX_VERSION) {
    throw new SecretBoxError('malformed', `Unsupported sealed-value version "${version.slice(0, 8)}".`);
  }
  if (!KEY_ID_PATTERN.test(keyId)) throw new SecretBoxError('malformed', 'The sealed value has an invalid key id.');
  const parsed = { keyId, iv: fromB64url(iv), tag: fromB64url(tag), ciphertext: fromB64url(ciphertext) };
  if (parsed.iv.length !== IV_BYTES || parsed.tag.length !== TAG_BYTES) {
    throw new SecretBoxError('malformed', 'The sealed value has a wrong IV or tag length.');
  }
  return parsed;
}

function b64url(data: Buffer): string {
  return data.toString('base64url');
}

/**
 * Strict base64url: only the alphabet, and canonical, so that every change to the text is a change
 * to the bytes (Node's decoder ignores stray characters and the unused low bits of the last one).
 */
function fromB64url(text: string): Buffer {
  if (!BASE64URL_PATTERN.test(text)) throw new SecretBoxError('malformed', 'The sealed value is not base64url.');
  const data = Buffer.from(text, 'base64url');
  if (data.toString('base64url') !== text) {
    throw new SecretBoxError('malformed', 'The sealed value is not canonical base64url.');
  }
  return data;
}
