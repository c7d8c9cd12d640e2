import { sortAccounts, type AccountStore, type StoredAccount } from './store';

const DB_NAME = 'portal-authenticator';
const DB_VERSION = 1;
const ACCOUNTS = 'accounts';

function promised<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
  });
}

function open(factory: IDBFactory): Promise<IDBDatabase> {
  const request = factory.open(DB_NAME, DB_VERSION);
  request.onupgradeneeded = () => {
    if (!request.result.objectStoreNames.contains(ACCOUNTS)) request.result.createObjectStore(ACCOUNTS, { keyPath: 'deviceId' });
  };
  return promised(request);
}

/**
 * The accounts in IndexedDB, the one browser storage that keeps a CryptoKey object (and so keeps the
 * private key non-extractable). Each call is one short transaction.
 */
export function indexedDbStore(factory: IDBFactory = indexedDB): AccountStore {
  let db: Promise<IDBDatabase> | null = null;
  const store = async (mode: IDBTransactionMode) => {
    db ??= open(factory);
    return (await db).transaction(ACCOUNTS, mode).objectStore(ACCOUNTS);
  };
  return {
    list: async () => sortAccounts(await promised((await store('readonly')).getAll() as IDBRequest<StoredAccount[]>)),
    put: async (account) => {
      await promised((await store('readwrite')).put(account));
    },
    remove: async (deviceId) => {
      await promised((await store('readwrite')).delete(deviceId));
    },
  };
}
