import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { AppError, installErrorHandling } from '../../lib/errors.js';
import { MfaError } from '../../mfa/port.js';
import { createErrorTranslator, failureCode } from './error-translator.js';

describe('the error translator', () => {
  const translate = createErrorTranslator({ stepUpMaxAgeSeconds: 300 });

  it('passes an AppError as it is, answers a provider refusal by its code, and knows nothing else', () => {
    const own = new AppError({ code: 'device.not_found' });
    expect(translate(own)).toBe(own);
    expect(translate(new MfaError('last_device'))).toMatchObject({ statusCode: 409, code: 'device.last_device_confirmation_required' });
    expect(translate(new Error('boom'))).toBeNull();
  });

  it('tells how long a step-up lasts when the provider refuses a second device for want of one', () => {
    const answer = translate(new MfaError('has_devices'));
    expect([answer?.statusCode, answer?.code, answer?.details]).toEqual([403, 'auth.step_up_required', { maxAgeSeconds: 300 }]);
  });

  it('names the code a failure is audited with', () => {
    expect(failureCode(new MfaError('device_not_found'))).toBe('device.not_found');
    expect(failureCode(new Error('boom'))).toBe('server.internal');
  });

  it('is what the error handler answers a refusal a route lets through with', async () => {
    const app = Fastify();
    installErrorHandling(app, { translate });
    app.get('/refused', async () => {
      throw new MfaError('user_disabled', { reason: 'Left' });
    });
    const res = await app.inject({ method: 'GET', url: '/refused' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ code: 'mfa.user_disabled', message: expect.any(String), details: { reason: 'Left' } });
    await app.close();
  });
});
