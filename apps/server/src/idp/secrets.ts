import { randomBytes } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/**
 * Secrets of the embedded identity provider, generated on first start and kept in `app_secret`, so
 * tokens and cookies survive restarts and every instance on the same database shares them.
 */

export const SIGNING_KEYS_SECRET = 'idp.signing_jwks';
export const COOKIE_KEYS_SECRET = 'idp.cookie_keys';

export const SIGNING_ALG = 'RS256';

/** Public members of an RSA signing key: what the JWKS endpoint and the API's token verifier see. */
const PUBLIC_RSA_MEMBERS = ['kty', 'n', 'e', 'kid', 'alg', 'use'] as const;

export interface IdpSecrets {
  /** Private signing keys (RSA, RS256), newest first. */
  signingKeys: JWK[];
  /** Keys for signed cookies, newest first. */
  cookieKeys: string[];
}

/**
 * Reads a secret, or stores `create()` under that name when absent. Concurrent first starts race on
 * the primary key: the loser's insert does nothing and it reads the winner's value.
 */
async function getOrCreate<T>(db: Kysely<Database>, name: string, create: () => Promise<T>): Promise<T> {
  const existing = await db.selectFrom('app_secret').select('value').where('name', '=', name).executeTakeFirst();
  if (existing) return existing.value as T;
  const value = await create();
  await db
    .insertInto('app_secret')
    .values({ name, value: JSON.stringify(value) })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const stored = await db.selectFrom('app_secret').select('value').where('name', '=', name).executeTakeFirstOrThrow();
  return stored.value as T;
}

async function newSigningKey(): Promise<JWK> {
  const { privateKey } = await generateKeyPair(SIGNING_ALG, { modulusLength: 2048, extractable: true });
  const jwk = await exportJWK(privateKey);
  const kid = await calculateJwkThumbprint(jwk);
  return { ...jwk, kid, alg: SIGNING_ALG, use: 'sig' };
}

export async function loadIdpSecrets(db: Kysely<Database>): Promise<IdpSecrets> {
  const signing = await getOrCreate(db, SIGNING_KEYS_SECRET, async () => ({ keys: [await newSigningKey()] }));
  const cookies = await getOrCreate(db, COOKIE_KEYS_SECRET, async () => ({ keys: [randomBytes(32).toString('base64url')] }));
  if (!Array.isArray(signing.keys) || signing.keys.length === 0) throw new Error(`app_secret ${SIGNING_KEYS_SECRET} holds no keys`);
  if (!Array.isArray(cookies.keys) || cookies.keys.length === 0) throw new Error(`app_secret ${COOKIE_KEYS_SECRET} holds no keys`);
  return { signingKeys: signing.keys, cookieKeys: cookies.keys };
}

/** The public half of each signing key (never `d`, `p`, `q`, ...). */
export function publicJwks(keys: JWK[]): { keys: JWK[] } {
  return {
    keys: keys.map((key) => {
      const pub: JWK = {};
      for (const member of PUBLIC_RSA_MEMBERS) if (key[member] !== undefined) pub[member] = key[member];
      return pub;
    }),
  };
}
