import { describe, expect, it } from 'vitest';
import { testAccount } from '../test/fake-api';
import { memoryStore, sortAccounts } from './store';

describe('the account store', () => {
  it('keeps several accounts, one per device, oldest first, and removes one', async () => {
    const store = memoryStore();
    const bob = await testAccount();
    const alice = await testAccount({
      deviceId: 'a1111111-1111-4111-8111-111111111111',
      upn: 'alice@example.com',
      createdAt: '2025-06-01T00:00:00.000Z',
    });
    await store.put(bob);
    await store.put(alice);
    expect((await store.list()).map((a) => a.upn)).toEqual(['alice@example.com', 'bob@example.com']);
    await store.put({ ...bob, displayName: 'Robert' });
    expect(await store.list()).toHaveLength(2);
    expect((await store.list())[1]!.displayName).toBe('Robert');
    await store.remove(alice.deviceId);
    expect((await store.list()).map((a) => a.upn)).toEqual(['bob@example.com']);
  });

  it('keeps the key pair as the CryptoKey objects (still non-extractable)', async () => {
    const store = memoryStore();
    const bob = await testAccount();
    await store.put(bob);
    const [stored] = await store.list();
    expect(stored!.keys.privateKey).toBeInstanceOf(CryptoKey);
    expect(stored!.keys.privateKey.extractable).toBe(false);
  });

  it('orders accounts of the same moment by name', async () => {
    const a = await testAccount({ upn: 'b@example.com' });
    const b = await testAccount({ upn: 'a@example.com' });
    expect(sortAccounts([a, b]).map((x) => x.upn)).toEqual(['a@example.com', 'b@example.com']);
  });
});
