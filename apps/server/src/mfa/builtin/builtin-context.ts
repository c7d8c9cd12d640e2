import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { MfaKeys } from '../mfa-keys.js';
import { MfaError } from '../port.js';
import type { UserRow } from './builtin-mapping.js';
import { builtinRepository, type BuiltinRepository } from './builtin.repository.js';

/** What the builtin provider's parts share: the database, its SQL, the keys that seal secrets. */
export interface BuiltinContext {
  db: Kysely<Database>;
  repo: BuiltinRepository;
  keys: Pick<MfaKeys, 'box' | 'bypassPepper'>;
  /** Runs `fn` in one transaction (joining the caller's, when there is one), with the SQL bound to it. */
  tx<T>(fn: (trx: BuiltinRepository) => Promise<T>): Promise<T>;
  /** The user's row; refuses (`not_provisioned`) an unknown user. */
  userOrThrow(username: string): Promise<UserRow>;
}

export function builtinContext(db: Kysely<Database>, keys: Pick<MfaKeys, 'box' | 'bypassPepper'>): BuiltinContext {
  const repo = builtinRepository(db);
  return {
    db,
    repo,
    keys,
    tx: (fn) => db.transaction().execute((trx) => fn(builtinRepository(trx))),
    async userOrThrow(username) {
      const user = await repo.findUserByUsername(username);
      if (!user) throw new MfaError('not_provisioned');
      return user;
    },
  };
}
