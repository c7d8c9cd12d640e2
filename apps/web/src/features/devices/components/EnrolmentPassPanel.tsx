import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Form, Input } from 'antd';
import { ErrorAlert } from '../../../lib/ui/ErrorAlert';
import { useRedeemEnrolmentPass } from '../api/enrolment-pass';

/**
 * The first-device policy asks for an enrolment pass (a temporary access pass from the service desk)
 * before the first device can be added: the user types it here.
 */
export function EnrolmentPassPanel() {
  const { t } = useTranslation('devices');
  const redeem = useRedeemEnrolmentPass();
  const [pass, setPass] = useState('');
  return (
    <section className="panel enrolment-pass" aria-labelledby="enrolment-pass-heading">
      <h2 id="enrolment-pass-heading">{t('pass.title')}</h2>
      <p>{t('pass.body')}</p>
      <Form layout="vertical" requiredMark={false} onFinish={() => void redeem.mutateAsync(pass.trim()).catch(() => undefined)}>
        <Form.Item label={t('pass.label')} htmlFor="enrolment-pass-input" extra={t('pass.help')}>
          <Input
            id="enrolment-pass-input"
            value={pass}
            onChange={(e) => setPass(e.target.value)}
            autoComplete="off"
            maxLength={64}
            spellCheck={false}
          />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={redeem.isPending} disabled={pass.trim() === ''}>
          {redeem.isPending ? t('pass.submitting') : t('pass.submit')}
        </Button>
      </Form>
      {redeem.isError ? <ErrorAlert error={redeem.error} title={t('pass.failed')} /> : null}
    </section>
  );
}
