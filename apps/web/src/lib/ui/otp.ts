import type { FormRule as Rule } from 'antd';
import type { TFunction } from 'i18next';
import { D100_CODE_DIGITS } from '@mfa-portal/shared';

/** A passcode as people type it: spaces ignored ("123 456"). */
export const normaliseOtp = (value: string | undefined) => (value ?? '').replace(/\s/g, '');

/** Form rules for a 6-digit passcode (authenticator app or Duo D100). */
export function otpRules(t: TFunction, fieldName?: string): Rule[] {
  return [
    { required: true, message: fieldName ? t('app:otp.required_named', { field: fieldName }) : t('app:otp.required') },
    {
      validator: (_rule, value: string | undefined) =>
        !value || new RegExp(`^\\d{${D100_CODE_DIGITS}}$`).test(normaliseOtp(value))
          ? Promise.resolve()
          : Promise.reject(new Error(t('app:otp.format', { digits: D100_CODE_DIGITS }))),
    },
  ];
}

/** Props of the text box for a passcode: numeric keyboard on phones, one-time-code autofill. */
export const OTP_INPUT_PROPS = { inputMode: 'numeric', autoComplete: 'one-time-code', maxLength: 7 } as const;
