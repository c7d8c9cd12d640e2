/** What the app keeps per account activated on it. */
export interface StoredAccount {
  /** The device the portal made for this phone and account (the key of the record). */
  deviceId: string;
  upn: string;
  displayName: string;
  /** The non-extractable device key pair (a CryptoKeyPair survives structured clone as it is). */
  keys: CryptoKeyPair;
  passcode: { secret: string; digits: number; period: number; issuer: string };
  /** ISO 8601. */
  createdAt: string;
}

/** The accounts on this phone. IndexedDB in the browser; the tests use the in-memory one. */
export interface AccountStore {
  list(): Promise<StoredAccount[]>;
  put(account: StoredAccount): Promise<void>;
  remove(deviceId: string): Promise<void>;
}

/** Oldest first, so the list keeps its order as accounts are added. */
export function sortAccounts(accounts: StoredAccount[]): StoredAccount[] {
  return [...accounts].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.upn.localeCompare(b.upn));
}

export function memoryStore(initial: StoredAccount[] = []): AccountStore {
  const byId = new Map(initial.map((a) => [a.deviceId, a]));
  return {
    list: async () => sortAccounts([...byId.values()]),
    put: async (account) => {
      byId.set(account.deviceId, account);
    },
    remove: async (deviceId) => {
      byId.delete(deviceId);
    },
  };
}
