import { describe, expect, it } from 'vitest';
import errors from '../../../../../locales/en/errors.json';
import app from '../../../../../locales/en/app.json';
import { ApiError } from '../api/api-error';
import { SERVICE_DESK_ERROR_CODES, sendsToServiceDesk } from './error-message';

const known = (key: string) => {
  const [ns, path] = key.split(':') as [string, string];
  if (ns === 'errors') return path in errors;
  return path.startsWith('errors.client.') ? path.slice('errors.client.'.length) in app.errors.client : false;
};

describe('sendsToServiceDesk', () => {
  it('lists exactly the server messages that tell people to contact the service desk', () => {
    const mention = Object.entries(errors as Record<string, string>)
      .filter(([, text]) => /service desk/i.test(text))
      .map(([code]) => code)
      .sort();
    const listed = [...SERVICE_DESK_ERROR_CODES].filter((code) => !code.startsWith('client.')).sort();
    expect(listed).toEqual(mention);
  });

  it('lists exactly the browser messages that tell people to contact the service desk', () => {
    const mention = Object.entries(app.errors.client)
      .filter(([, text]) => /service desk/i.test(text))
      .map(([code]) => `client.${code}`)
      .sort();
    expect([...SERVICE_DESK_ERROR_CODES].filter((code) => code.startsWith('client.')).sort()).toEqual(mention);
  });

  it('is true for anything shown as unexpected, false for a message of its own that does not send people there', () => {
    expect(sendsToServiceDesk(new Error('boom'), known)).toBe(true);
    expect(sendsToServiceDesk(new ApiError(400, 'some.unknown_code' as never, 'x'), known)).toBe(true);
    expect(sendsToServiceDesk(new ApiError(403, 'mfa.user_disabled', 'x'), known)).toBe(true);
    expect(sendsToServiceDesk(new ApiError(404, 'device.not_found', 'x'), known)).toBe(false);
    expect(sendsToServiceDesk(new ApiError(0, 'client.network', 'x'), known)).toBe(false);
  });
});
