import { AsyncLocalStorage } from 'node:async_hooks';
import type { Kysely, Transaction, TransactionBuilder } from 'kysely';
import type { Database } from './schema.js';

/**
 * The unit of work: a change and its audit event are written in one database transaction,
 * both or neither, without passing a transaction through every signature.
 *
 * `openDatabase` hands out the database wrapped by {@link withUnitOfWork}: every query made through it
 * runs on the *ambient* transaction when one is open in the current async context (AsyncLocalStorage),
 * and on the plain database otherwise. `db.transaction().execute(cb)` opens the ambient transaction, or
 * joins it when one is already open (no nested BEGIN, no second connection: PGlite has one connection
 * and PostgreSQL would otherwise wait on a lock its own outer transaction holds).
 *
 * So repositories, the builtin MFA adapter and the audit log all write on the same transaction when a
 * caller runs them inside {@link runInTransaction} — `audited()` does exactly that.
 */

interface Frame {
  trx: Transaction<Database>;
  /** False once the transaction ended: a stray continuation then falls back to the plain database. */
  open: boolean;
}

const UOW = Symbol('unit-of-work');

export interface UnitOfWork {
  /** Runs `fn` in one transaction (joins the ambient one when already inside it). */
  run<T>(fn: () => Promise<T>, opts?: { isolationLevel?: IsolationLevel }): Promise<T>;
  /** True inside an open ambient transaction. */
  readonly inTransaction: boolean;
}

type IsolationLevel = Parameters<TransactionBuilder<Database>['setIsolationLevel']>[0];

type Wrapped = Kysely<Database> & { [UOW]?: UnitOfWork };

/** The database `base` made ambient-transaction aware (idempotent). */
export function withUnitOfWork(base: Kysely<Database>): Kysely<Database> {
  if ((base as Wrapped)[UOW]) return base;
  const storage = new AsyncLocalStorage<Frame>();
  const current = (): Frame | undefined => {
    const frame = storage.getStore();
    return frame?.open ? frame : undefined;
  };

  const uow: UnitOfWork = {
    async run(fn, opts = {}) {
      if (current()) return fn();
      let builder = base.transaction();
      if (opts.isolationLevel) builder = builder.setIsolationLevel(opts.isolationLevel);
      return builder.execute(async (trx) => {
        const frame: Frame = { trx, open: true };
        try {
          return await storage.run(frame, fn);
        } finally {
          frame.open = false;
        }
      });
    },
    get inTransaction() {
      return current() !== undefined;
    },
  };

  /** `db.transaction()` through the wrapper: opens or joins the ambient transaction. */
  const transactionBuilder = (isolationLevel?: IsolationLevel): TransactionBuilder<Database> =>
    ({
      setIsolationLevel: (level: IsolationLevel) => transactionBuilder(level),
      setAccessMode: () => transactionBuilder(isolationLevel),
      execute: <T>(cb: (trx: Transaction<Database>) => Promise<T>) =>
        uow.run(() => cb(current()!.trx), isolationLevel ? { isolationLevel } : {}),
    }) as unknown as TransactionBuilder<Database>;

  return new Proxy(base, {
    get(target, prop) {
      if (prop === UOW) return uow;
      if (prop === 'transaction') return () => transactionBuilder();
      const frame = current();
      const on: Kysely<Database> = frame ? frame.trx : target;
      const value: unknown = Reflect.get(on, prop, on);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(on) : value;
    },
  }) as Wrapped;
}

/** The unit of work of a database opened by `openDatabase` (wraps a bare Kysely on first use). */
export function unitOfWorkOf(db: Kysely<Database>): UnitOfWork {
  return ((db as Wrapped)[UOW] ?? (withUnitOfWork(db) as Wrapped)[UOW])!;
}

/**
 * Runs `fn` in one transaction of `db`'s unit of work: every write made through the (wrapped)
 * database inside `fn`, audit events included, commits or rolls back together.
 */
export function runInTransaction<T>(db: Kysely<Database>, fn: () => Promise<T>): Promise<T> {
  return unitOfWorkOf(db).run(fn);
}
