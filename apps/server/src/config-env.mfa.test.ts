import webpush from 'web-push';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { configProblems } from '../test/support/config-problems.js';

/** The authenticator app's and Web Push's variables: defaults, ranges, and the VAPID pair checked as one. */
describe('authenticator app and Web Push configuration', () => {
  it('has defaults: 15-minute links, 60-second pushes, Web Push on with generated keys', () => {
    const c = loadConfig({});
    expect(c.mfa.authenticatorActivationMinutes).toBe(15);
    expect(c.mfa.pushTimeoutSeconds).toBe(60);
    expect(c.mfa.webPush).toEqual({ enabled: true, vapidKeys: null, subject: 'mailto:security@localhost' });
  });

  it('derives the VAPID subject from the security contact or the public address', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://mfa.example.org/portal/' }).mfa.webPush.subject).toBe('https://mfa.example.org');
    expect(loadConfig({ SECURITY_CONTACT_EMAIL: 'soc@example.org' }).mfa.webPush.subject).toBe('mailto:soc@example.org');
    expect(loadConfig({ VAPID_SUBJECT: 'mailto:push@example.org' }).mfa.webPush.subject).toBe('mailto:push@example.org');
    expect(configProblems({ VAPID_SUBJECT: 'http://example.org' })[0]).toMatch(
      /^VAPID_SUBJECT: must be a mailto: address or an https: URL/,
    );
  });

  it('takes a VAPID pair, and names the variable when the pair is incomplete or not one pair', () => {
    const pair = webpush.generateVAPIDKeys();
    const other = webpush.generateVAPIDKeys();
    const c = loadConfig({ VAPID_PUBLIC_KEY: pair.publicKey, VAPID_PRIVATE_KEY: pair.privateKey, WEB_PUSH: 'false' });
    expect(c.mfa.webPush).toMatchObject({ enabled: false, vapidKeys: pair });
    expect(configProblems({ VAPID_PUBLIC_KEY: pair.publicKey })).toEqual([expect.stringMatching(/^VAPID_PRIVATE_KEY: is required/)]);
    expect(configProblems({ VAPID_PRIVATE_KEY: pair.privateKey })).toEqual([expect.stringMatching(/^VAPID_PUBLIC_KEY: is required/)]);
    expect(configProblems({ VAPID_PUBLIC_KEY: other.publicKey, VAPID_PRIVATE_KEY: pair.privateKey })).toEqual([
      expect.stringMatching(/^VAPID_PUBLIC_KEY: is not the public key of VAPID_PRIVATE_KEY/),
    ]);
    const bad = configProblems({ VAPID_PUBLIC_KEY: pair.publicKey, VAPID_PRIVATE_KEY: 'x'.repeat(44) });
    expect(bad).toEqual([expect.stringMatching(/^VAPID_PRIVATE_KEY: must be a P-256 private key/)]);
    // The private key is never echoed back.
    expect(bad.join()).not.toContain('x'.repeat(44));
    expect(configProblems({ VAPID_PUBLIC_KEY: pair.publicKey, VAPID_PRIVATE_KEY: '_'.repeat(43) })).toEqual([
      expect.stringMatching(/^VAPID_PRIVATE_KEY: is not a P-256 private key/),
    ]);
  });

  it('keeps the activation minutes and push timeout in range', () => {
    expect(configProblems({ AUTHENTICATOR_ACTIVATION_MINUTES: '0' })).toEqual([
      'AUTHENTICATOR_ACTIVATION_MINUTES: must be between 1 and 60 (got "0")',
    ]);
    expect(configProblems({ PUSH_TIMEOUT_SECONDS: '301' })).toEqual(['PUSH_TIMEOUT_SECONDS: must be between 15 and 300 (got "301")']);
    expect(configProblems({ WEB_PUSH: 'maybe' })).toEqual(['WEB_PUSH: must be true or false (got "maybe")']);
    expect(loadConfig({ AUTHENTICATOR_ACTIVATION_MINUTES: '5', PUSH_TIMEOUT_SECONDS: '30' }).mfa).toMatchObject({
      authenticatorActivationMinutes: 5,
      pushTimeoutSeconds: 30,
    });
  });
});
