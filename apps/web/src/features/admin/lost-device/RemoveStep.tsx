import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Checkbox, Form, InputNumber, Radio } from 'antd';
import { LOST_DEVICE_MAX_VALIDITY_SECONDS, type AdminLostDeviceResponse, type AdminUserDetail } from '@mfa-portal/shared';
import { useReportLostDevice } from '../api/lost-device';
import { AdminErrorAlert } from '../components/AdminErrorAlert';
import { useJustificationMemory } from '../components/justification-memory';
import { JustificationFields, justificationOf, type Justification } from '../components/JustificationFields';
import { useDeviceChoiceLabel } from '../components/VerifyIdentityPanel';

const HOUR = 60 * 60;
const MAX_HOURS = LOST_DEVICE_MAX_VALIDITY_SECONDS / HOUR;

interface RemoveValues extends Justification {
  deviceId: string;
  hours: number | null;
}

/** Steps 2 and 3 on the server: remove the chosen device, then issue one single-use code (≤ 24 h). */
export function RemoveStep({
  upn,
  detail,
  verifiedOtherWay,
  onIssued,
}: {
  upn: string;
  detail: AdminUserDetail;
  verifiedOtherWay: boolean;
  onIssued: (r: AdminLostDeviceResponse) => void;
}) {
  const { t } = useTranslation('admin');
  const [form] = Form.useForm<RemoveValues>();
  const report = useReportLostDevice(upn);
  const memory = useJustificationMemory();
  const [understood, setUnderstood] = useState(false);
  const choiceLabel = useDeviceChoiceLabel();
  const devices = detail.mfa.devices;
  const only = devices.length === 1;
  if (devices.length === 0) return <p>{t('wizard.remove.no_devices')}</p>;
  const submit = async (values: RemoveValues) => {
    try {
      const result = await report.mutateAsync({
        deviceId: values.deviceId,
        validitySeconds: (values.hours ?? MAX_HOURS) * HOUR,
        confirmLastDevice: only && understood,
        ...justificationOf(values),
      });
      memory.remember(justificationOf(values));
      onIssued(result);
    } catch {
      // shown below
    }
  };
  return (
    <>
      <p>{t('wizard.remove.intro')}</p>
      <Form<RemoveValues>
        name="wizard-remove"
        form={form}
        layout="vertical"
        requiredMark={false}
        // The call's reason and ticket, when typed already (with the verification or an earlier action): not asked again.
        initialValues={{ hours: MAX_HOURS, ...(memory.last ?? {}) }}
        onFinish={(v) => void submit(v)}
        className="narrow-form"
      >
        <Form.Item
          name="deviceId"
          label={t('wizard.remove.device_label')}
          rules={[{ required: true, message: t('wizard.remove.device_required') }]}
        >
          <Radio.Group className="radio-list">
            {devices.map((d) => (
              <Radio key={d.id} value={d.id}>
                {choiceLabel(d)}
              </Radio>
            ))}
          </Radio.Group>
        </Form.Item>
        <Form.Item
          name="hours"
          label={t('wizard.remove.hours_label')}
          extra={t('wizard.remove.hours_help', { max: MAX_HOURS })}
          rules={[
            { required: true, message: t('wizard.remove.hours_required') },
            {
              validator: (_rule, value: number | null | undefined) =>
                value === null || value === undefined || (Number.isInteger(value) && value >= 1 && value <= MAX_HOURS)
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('wizard.remove.hours_range', { max: MAX_HOURS }))),
            },
          ]}
        >
          <InputNumber inputMode="numeric" precision={0} className="number-input" />
        </Form.Item>
        <JustificationFields reasonHelp={verifiedOtherWay ? t('wizard.remove.reason_other_way') : undefined} />
        {only ? (
          <>
            <Alert type="warning" showIcon title={t('wizard.remove.last_title')} description={t('wizard.remove.last_body')} />
            <Checkbox checked={understood} onChange={(e) => setUnderstood(e.target.checked)} className="dialog-paragraph">
              {t('wizard.remove.last_acknowledge')}
            </Checkbox>
          </>
        ) : null}
        <div className="actions">
          <Button type="primary" danger htmlType="submit" loading={report.isPending} disabled={only && !understood}>
            {report.isPending ? t('wizard.remove.submitting') : t('wizard.remove.submit')}
          </Button>
        </div>
      </Form>
      {report.error ? <AdminErrorAlert error={report.error} title={t('wizard.remove.failed')} className="after-form" /> : null}
    </>
  );
}
