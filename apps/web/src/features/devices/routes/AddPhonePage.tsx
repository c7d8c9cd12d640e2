import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Alert, Button, Form, Input } from 'antd';
import { getCountries, getCountryCallingCode, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/min';
import { DEFAULT_COUNTRY_CODE } from '@mfa-portal/shared';
import { MAIN_ROUTES } from '../../../lib/routes';
import { NativeSelect } from '../../../lib/ui/NativeSelect';
import { Page } from '../../../lib/ui/Page';

interface PhoneForm {
  country: CountryCode;
  number: string;
}

/** E.164 form of a number typed in the national or international format, or null when it is not valid. */
export function toE164(number: string, country: CountryCode): { e164: string; international: string } | null {
  const parsed = parsePhoneNumberFromString(number, country);
  if (!parsed || !parsed.isValid()) return null;
  return { e164: parsed.number, international: parsed.formatInternational() };
}

/**
 * A phone (push and passcode app, text or call): the number with its country (default US), checked with
 * libphonenumber and shown in the international E.164 form. The self-service API cannot record phones
 * yet, so the page says so plainly and points to the alternatives; nothing is sent.
 */
export default function AddPhonePage() {
  const { t, i18n } = useTranslation('devices');
  const [checked, setChecked] = useState<{ e164: string; international: string } | null>(null);
  const [form] = Form.useForm<PhoneForm>();
  const countries = useMemo(() => {
    const names = new Intl.DisplayNames([i18n.resolvedLanguage ?? 'en'], { type: 'region' });
    return getCountries()
      .map((code) => ({ value: code, label: `${names.of(code) ?? code} (+${getCountryCallingCode(code)})` }))
      .sort((a, b) => a.label.localeCompare(b.label));
  }, [i18n.resolvedLanguage]);

  return (
    <Page title={t('phone.title')} intro={<p>{t('phone.intro')}</p>}>
      <Alert
        type="info"
        showIcon
        title={t('phone.unavailable_title')}
        description={
          <>
            {t('phone.unavailable_body')} <Link to={MAIN_ROUTES.addAuthenticator}>{t('phone.use_authenticator')}</Link>
          </>
        }
        className="before-form"
      />
      <Form<PhoneForm>
        name="add-phone"
        form={form}
        layout="vertical"
        initialValues={{ country: DEFAULT_COUNTRY_CODE as CountryCode, number: '' }}
        onFinish={(values) => setChecked(toE164(values.number, values.country))}
        onValuesChange={() => setChecked(null)}
        requiredMark={false}
        className="narrow-form"
      >
        <Form.Item name="country" label={t('phone.country_label')}>
          <NativeSelect options={countries} autoComplete="country" />
        </Form.Item>
        <Form.Item
          name="number"
          label={t('phone.number_label')}
          extra={t('phone.number_help')}
          dependencies={['country']}
          rules={[
            { required: true, whitespace: true, message: t('phone.number_required') },
            ({ getFieldValue }) => ({
              validator: (_rule, value: string | undefined) =>
                !value?.trim() || toE164(value, getFieldValue('country') as CountryCode)
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('phone.number_invalid'))),
            }),
          ]}
        >
          <Input type="tel" autoComplete="tel" inputMode="tel" />
        </Form.Item>
        <Button htmlType="submit">{t('phone.check')}</Button>
      </Form>
      <div role="status" aria-live="polite" className="after-form">
        {checked ? (
          <Alert
            type="success"
            showIcon
            role="presentation"
            title={t('phone.valid_title', { number: checked.international })}
            description={t('phone.valid_body', { e164: checked.e164 })}
          />
        ) : null}
      </div>
    </Page>
  );
}
