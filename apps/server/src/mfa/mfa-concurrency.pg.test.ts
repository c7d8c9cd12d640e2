import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { DatabaseHandle } from '../db/database.js';
import { createTestDatabase } from '../../test/database.js';
import { createBuiltinProvider } from './builtin/builtin-provider.js';
import { demoTokenSeed, seedDemoHardwareTokens } from '../demo/demo-tokens.js';
import { hotpCode, totpCode } from './common/otp.js';
import { createSecretBox } from '../lib/secret-box.js';
import { derivePepper } from './mfa-keys.js';
import type { MfaProvider } from './port.js';

/**
 * Races that PGlite hides (it runs one query at a time): several connections use the same code at
 * the same moment. At most the allowed number of uses may succeed.
 */

const onPostgres = Boolean(inject('pgTemplateDatabase'));
const ROUNDS = 15;
const KEY = Buffer.alloc(32, 0x33);
const T0 = new Date('2030-01-01T00:00:00.000Z');

describe.skipIf(!onPostgres)(
  'MFA verification under concurrency (real PostgreSQL only: set TEST_DATABASE_URL, runs in the server-pg project)',
  () => {
    let handle: DatabaseHandle;
    let mfa: MfaProvider;

    beforeAll(async () => {
      handle = await createTestDatabase();
      const box = createSecretBox(KEY, 'kpg');
      mfa = createBuiltinProvider(handle.db, {
        keys: { box, bypassPepper: derivePepper(KEY) },
        lockout: { maxFailures: 1000, lockMinutes: 1 },
      });
      await seedDemoHardwareTokens(handle.db, box);
      for (const u of ['race-bypass', 'race-hotp', 'race-totp', 'race-claim-a', 'race-claim-b']) {
        await handle.db
          .insertInto('mfa_user')
          .values({ username: `${u}@example.com`, status: 'active', status_reason: null })
          .execute();
      }
    });
    afterAll(() => handle?.close());

    it('two simultaneous uses of a single-use bypass code succeed at most once', async () => {
      for (let round = 0; round < ROUNDS; round += 1) {
        const { codes } = await mfa.createBypassCodes(
          'race-bypass@example.com',
          { count: 1, validitySeconds: 3600, reuseCount: 1, replaceExisting: true, createdBy: 'test' },
          { now: T0 },
        );
        const code = codes[0]!.code;
        const results = await Promise.all([
          mfa.verifyPasscode('race-bypass@example.com', code, { now: T0 }),
          mfa.verifyPasscode('race-bypass@example.com', code, { now: T0 }),
        ]);
        expect(results.filter((r) => r.ok)).toHaveLength(1);
      }
    });

    it('five simultaneous uses of a code with reuse 2 succeed exactly twice', async () => {
      const { codes } = await mfa.createBypassCodes(
        'race-bypass@example.com',
        { count: 1, validitySeconds: 3600, reuseCount: 2, replaceExisting: true, createdBy: 'test' },
        { now: T0 },
      );
      const results = await Promise.all(
        Array.from({ length: 5 }, () => mfa.verifyPasscode('race-bypass@example.com', codes[0]!.code, { now: T0 })),
      );
      expect(results.filter((r) => r.ok)).toHaveLength(2);
    });

    it('two simultaneous HOTP verifications of the same counter succeed at most once', async () => {
      const seed = demoTokenSeed('D100-0005');
      await mfa.claimHardwareToken(
        'race-hotp@example.com',
        { serial: 'D100-0005', codes: [hotpCode(seed, 0), hotpCode(seed, 1)] },
        { allowWhenDevicesExist: false, now: T0 },
      );
      for (let counter = 2; counter < 2 + ROUNDS; counter += 1) {
        const code = hotpCode(seed, counter);
        const results = await Promise.all([
          mfa.verifyPasscode('race-hotp@example.com', code, { now: T0 }),
          mfa.verifyPasscode('race-hotp@example.com', code, { now: T0 }),
        ]);
        expect(results.filter((r) => r.ok)).toHaveLength(1);
      }
      const token = await handle.db
        .selectFrom('mfa_hardware_token')
        .select('counter')
        .where('serial', '=', 'D100-0005')
        .executeTakeFirstOrThrow();
      expect(token.counter).toBe(2 + ROUNDS);
    });

    it('two simultaneous uses of the same TOTP step succeed at most once', async () => {
      const e = await mfa.startTotpEnrolment('race-totp@example.com', { allowWhenDevicesExist: false, issuer: 'Test', now: T0 });
      await mfa.confirmTotpEnrolment(
        'race-totp@example.com',
        e.enrolmentId,
        { code: totpCode(e.secret, T0), name: 'App' },
        { allowWhenDevicesExist: false, now: T0 },
      );
      for (let step = 1; step <= ROUNDS; step += 1) {
        const now = new Date(T0.getTime() + step * 30_000);
        const code = totpCode(e.secret, now);
        const results = await Promise.all([
          mfa.verifyPasscode('race-totp@example.com', code, { now }),
          mfa.verifyPasscode('race-totp@example.com', code, { now }),
        ]);
        expect(results.filter((r) => r.ok)).toHaveLength(1);
      }
    });

    it('two users claiming the same token at once: one gets it', async () => {
      const seed = demoTokenSeed('D100-0006');
      const codes = [hotpCode(seed, 0), hotpCode(seed, 1)];
      const claims = await Promise.allSettled([
        mfa.claimHardwareToken('race-claim-a@example.com', { serial: 'D100-0006', codes }, { allowWhenDevicesExist: false, now: T0 }),
        mfa.claimHardwareToken('race-claim-b@example.com', { serial: 'D100-0006', codes }, { allowWhenDevicesExist: false, now: T0 }),
      ]);
      expect(claims.filter((c) => c.status === 'fulfilled')).toHaveLength(1);
      const devices = await handle.db.selectFrom('mfa_device').select('user_id').where('serial', '=', 'D100-0006').execute();
      expect(devices).toHaveLength(1);
    });
  },
);
