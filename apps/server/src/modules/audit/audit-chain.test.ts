import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AuditSecretError,
  GENESIS_HASH,
  assertNoSecrets,
  canonicalAuditEvent,
  chainHash,
  isSecretLikeKey,
  verifyChain,
  type AuditEvent,
  type ChainedAuditEvent,
} from './audit-chain.js';

const EVENT: AuditEvent = {
  id: '00000000-0000-4000-8000-000000000001',
  occurredAt: new Date('2025-06-01T12:00:00.123Z'),
  actorUpn: 'helpdesk@example.com',
  actorRoles: ['Helpdesk Administrator'],
  target: 'alice@example.com',
  action: 'bypass_codes.create',
  outcome: 'success',
  reason: null,
  requestId: 'req-1',
  clientAddress: '192.0.2.10',
  details: { count: 2, validitySeconds: 3600, reuseCount: 1 },
};

function event(i: number, overrides: Partial<AuditEvent> = {}): AuditEvent {
  return { ...EVENT, id: `evt-${i}`, occurredAt: new Date(Date.UTC(2025, 5, 1, 12, 0, i)), requestId: `req-${i}`, ...overrides };
}

function chain(events: AuditEvent[]): ChainedAuditEvent[] {
  let prevHash = GENESIS_HASH;
  return events.map((e) => {
    const hash = chainHash(prevHash, e);
    const row = { ...e, prevHash, hash };
    prevHash = hash;
    return row;
  });
}

describe('canonicalAuditEvent', () => {
  it('is JSON with a fixed key order and the time in ISO-8601 UTC', () => {
    expect(canonicalAuditEvent(EVENT)).toBe(
      '{"v":1,"id":"00000000-0000-4000-8000-000000000001","occurredAt":"2025-06-01T12:00:00.123Z",' +
        '"actorUpn":"helpdesk@example.com","actorRoles":["Helpdesk Administrator"],"target":"alice@example.com",' +
        '"action":"bypass_codes.create","outcome":"success","reason":null,"requestId":"req-1",' +
        '"clientAddress":"192.0.2.10","details":{"count":2,"reuseCount":1,"validitySeconds":3600}}',
    );
  });

  it('does not depend on property order, nor on Date versus ISO string (a database round trip)', () => {
    const shuffled: AuditEvent = {
      details: { validitySeconds: 3600, reuseCount: 1, count: 2 },
      clientAddress: EVENT.clientAddress,
      requestId: EVENT.requestId,
      reason: null,
      outcome: EVENT.outcome,
      action: EVENT.action,
      target: EVENT.target,
      actorRoles: [...EVENT.actorRoles],
      actorUpn: EVENT.actorUpn,
      occurredAt: '2025-06-01T14:00:00.123+02:00',
      id: EVENT.id,
    };
    expect(canonicalAuditEvent(shuffled)).toBe(canonicalAuditEvent(EVENT));
    const nested = { ...EVENT, details: { b: { y: 1, x: [2, { d: 1, c: 2 }] }, a: null } };
    expect(canonicalAuditEvent(nested)).toContain('"details":{"a":null,"b":{"x":[2,{"c":2,"d":1}],"y":1}}');
    expect(canonicalAuditEvent(JSON.parse(JSON.stringify(nested)) as AuditEvent)).toBe(canonicalAuditEvent(nested));
  });

  it('changes with every field', () => {
    const base = canonicalAuditEvent(EVENT);
    const changes: Array<Partial<AuditEvent>> = [
      { id: 'other' },
      { occurredAt: new Date('2025-06-01T12:00:00.124Z') },
      { actorUpn: 'someone@example.com' },
      { actorUpn: null },
      { actorRoles: [] },
      { target: null },
      { action: 'bypass_codes.revoke' },
      { outcome: 'failure' },
      { reason: 'x' },
      { requestId: 'req-2' },
      { clientAddress: '192.0.2.11' },
      { details: null },
      { details: { count: 3, validitySeconds: 3600, reuseCount: 1 } },
    ];
    for (const change of changes) expect(canonicalAuditEvent({ ...EVENT, ...change }), JSON.stringify(change)).not.toBe(base);
  });

  it('refuses values that are not JSON and invalid times', () => {
    expect(() => canonicalAuditEvent({ ...EVENT, details: { n: Number.NaN } })).toThrow(TypeError);
    expect(() => canonicalAuditEvent({ ...EVENT, details: { when: new Date() } })).toThrow(TypeError);
    expect(() => canonicalAuditEvent({ ...EVENT, occurredAt: 'yesterday' })).toThrow(TypeError);
    expect(() => canonicalAuditEvent({ ...EVENT, id: '' })).toThrow(TypeError);
  });
});

describe('secrets in audit details', () => {
  it.each([
    'code',
    'codes',
    'bypassCode',
    'bypass_codes',
    'bypasscode',
    'recoverycodes',
    'secret',
    'totpSecret',
    'passcode',
    'Passcode',
    'seed',
    'seedHex',
    'password',
    'newPassword',
    'otp',
    'pin',
  ])('refuses the key %s', (key) => {
    expect(isSecretLikeKey(key)).toBe(true);
    expect(() => canonicalAuditEvent({ ...EVENT, details: { [key]: 'x' } })).toThrow(AuditSecretError);
    expect(() => chainHash(GENESIS_HASH, { ...EVENT, details: { [key]: 'x' } })).toThrow(AuditSecretError);
  });

  it('refuses them at any depth, naming the path but not the value', () => {
    expect(() => assertNoSecrets({ devices: [{ id: 'd1', seed: 'ABCDEF' }] })).toThrow('details.devices[0].seed');
    try {
      assertNoSecrets({ nested: { passcode: '123456' } });
    } catch (error) {
      expect((error as Error).message).not.toContain('123456');
    }
  });

  it.each(['count', 'deviceId', 'serial', 'tokenSerial', 'validitySeconds', 'reuseCount', 'kind', 'name', 'encoded', 'keyId'])(
    'accepts the key %s',
    (key) => {
      expect(isSecretLikeKey(key)).toBe(false);
      expect(() => canonicalAuditEvent({ ...EVENT, details: { [key]: 'x' } })).not.toThrow();
    },
  );

  it('errs on the safe side: any key with the word "code" is refused (error codes go in `reason`)', () => {
    expect(isSecretLikeKey('errorCode')).toBe(true);
    expect(isSecretLikeKey('codeCount')).toBe(true);
  });
});

describe('chainHash', () => {
  it('is sha256(prevHash + canonical) in hex', () => {
    const expected = createHash('sha256')
      .update(GENESIS_HASH + canonicalAuditEvent(EVENT))
      .digest('hex');
    expect(chainHash(GENESIS_HASH, EVENT)).toBe(expected);
    expect(GENESIS_HASH).toBe('0'.repeat(64));
  });

  it('depends on the previous hash and refuses a malformed one', () => {
    expect(chainHash('f'.repeat(64), EVENT)).not.toBe(chainHash(GENESIS_HASH, EVENT));
    expect(() => chainHash('abc', EVENT)).toThrow(TypeError);
  });
});

describe('verifyChain', () => {
  const rows = chain([0, 1, 2, 3, 4].map((i) => event(i)));

  it('accepts an intact chain and an empty one', () => {
    expect(verifyChain(rows)).toEqual({ ok: true, count: 5, head: rows[4]?.hash });
    expect(verifyChain([])).toEqual({ ok: true, count: 0, head: GENESIS_HASH });
  });

  it('finds an edited row', () => {
    const edited = rows.map((r, i) => (i === 2 ? { ...r, outcome: 'failure' } : r));
    expect(verifyChain(edited)).toEqual({ ok: false, brokenAt: 2, id: 'evt-2', reason: 'hash_mismatch' });
  });

  it('finds a deleted row at the row after it', () => {
    expect(verifyChain(rows.filter((_, i) => i !== 1))).toEqual({ ok: false, brokenAt: 1, id: 'evt-2', reason: 'prev_mismatch' });
    expect(verifyChain(rows.slice(1))).toEqual({ ok: false, brokenAt: 0, id: 'evt-1', reason: 'prev_mismatch' });
  });

  it('finds reordered rows', () => {
    const swapped = [rows[0], rows[2], rows[1], rows[3], rows[4]] as ChainedAuditEvent[];
    expect(verifyChain(swapped)).toEqual({ ok: false, brokenAt: 1, id: 'evt-2', reason: 'prev_mismatch' });
  });

  it('finds a row whose stored hashes were rewritten', () => {
    const forged = rows.map((r, i) => (i === 3 ? { ...r, hash: 'a'.repeat(64) } : r));
    expect(verifyChain(forged)).toMatchObject({ ok: false, brokenAt: 3, reason: 'hash_mismatch' });
  });

  it('needs the expected head to notice rows removed at the end, or a rewritten tail', () => {
    const head = rows[4]?.hash ?? '';
    expect(verifyChain(rows.slice(0, 4)).ok).toBe(true);
    expect(verifyChain(rows.slice(0, 4), { expectedHead: head })).toEqual({ ok: false, brokenAt: 4, id: null, reason: 'prev_mismatch' });
    // An attacker who edits row 2 and recomputes every later hash yields a self-consistent chain…
    const rewritten = chain(rows.map((r, i) => (i === 2 ? { ...event(2), outcome: 'failure' } : event(i))));
    expect(verifyChain(rewritten).ok).toBe(true);
    // …that the stored head refuses.
    expect(verifyChain(rewritten, { expectedHead: head }).ok).toBe(false);
  });

  it('checks a later part of the chain from an anchor', () => {
    const anchor = rows[1]?.hash ?? '';
    expect(verifyChain(rows.slice(2), { anchor })).toMatchObject({ ok: true, count: 3 });
    expect(verifyChain(rows.slice(3), { anchor })).toMatchObject({ ok: false, brokenAt: 0, reason: 'prev_mismatch' });
  });

  it('reports, not throws, a stored row that was edited into an invalid or secret-bearing one', () => {
    const invalidTime = rows.map((r, i) => (i === 1 ? { ...r, occurredAt: 'not a date' } : r));
    expect(verifyChain(invalidTime)).toMatchObject({ ok: false, brokenAt: 1, reason: 'hash_mismatch' });
    const secret = rows.map((r, i) => (i === 1 ? { ...r, details: { secret: 'x' } } : r));
    expect(verifyChain(secret)).toMatchObject({ ok: false, brokenAt: 1, reason: 'hash_mismatch' });
  });

  describe('properties', () => {
    const lengthArb = fc.integer({ min: 1, max: 8 });
    const fieldEdits: Array<(e: ChainedAuditEvent) => ChainedAuditEvent> = [
      (e) => ({ ...e, id: `${e.id}x` }),
      (e) => ({ ...e, occurredAt: new Date(new Date(e.occurredAt).getTime() + 1) }),
      (e) => ({ ...e, actorUpn: 'mallory@example.com' }),
      (e) => ({ ...e, actorRoles: [...e.actorRoles, 'Solution Administrator'] }),
      (e) => ({ ...e, target: 'bob@example.com' }),
      (e) => ({ ...e, action: 'device.delete' }),
      (e) => ({ ...e, outcome: e.outcome === 'success' ? 'failure' : 'success' }),
      (e) => ({ ...e, reason: 'edited' }),
      (e) => ({ ...e, requestId: null }),
      (e) => ({ ...e, clientAddress: '198.51.100.1' }),
      (e) => ({ ...e, details: { ...e.details, count: 9 } }),
      (e) => ({ ...e, prevHash: GENESIS_HASH.replace(/^0/, '1') }),
      (e) => ({ ...e, hash: e.hash.replace(/^./, (c) => (c === 'f' ? 'e' : 'f')) }),
    ];

    it('any single edit is found at the edited row', () => {
      fc.assert(
        fc.property(lengthArb, fc.nat(), fc.integer({ min: 0, max: fieldEdits.length - 1 }), (n, at, which) => {
          const rows = chain(Array.from({ length: n }, (_, i) => event(i)));
          const index = at % n;
          const edit = fieldEdits[which] as (e: ChainedAuditEvent) => ChainedAuditEvent;
          const edited = rows.map((r, i) => (i === index ? edit(r) : r));
          const result = verifyChain(edited);
          expect(result.ok).toBe(false);
          if (!result.ok) expect(result.brokenAt).toBe(index);
        }),
        { numRuns: 200 },
      );
    });

    it('any single deletion is found at the row after it (or by the head for the last row)', () => {
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 8 }), fc.nat(), (n, at) => {
          const rows = chain(Array.from({ length: n }, (_, i) => event(i)));
          const head = rows.at(-1)?.hash ?? GENESIS_HASH;
          const index = at % n;
          const result = verifyChain(
            rows.filter((_, i) => i !== index),
            { expectedHead: head },
          );
          expect(result).toMatchObject({ ok: false, brokenAt: index });
        }),
        { numRuns: 200 },
      );
    });

    it('any swap of two rows is found', () => {
      fc.assert(
        fc.property(fc.integer({ min: 2, max: 8 }), fc.nat(), fc.nat(), (n, a, b) => {
          const i = a % n;
          const j = b % n;
          fc.pre(i !== j);
          const rows = chain(Array.from({ length: n }, (_, k) => event(k)));
          const swapped = [...rows];
          [swapped[i], swapped[j]] = [rows[j] as ChainedAuditEvent, rows[i] as ChainedAuditEvent];
          const result = verifyChain(swapped);
          expect(result).toMatchObject({ ok: false, brokenAt: Math.min(i, j) });
        }),
        { numRuns: 200 },
      );
    });
  });
});
