import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Form, Radio } from 'antd';
import type { Device, SignInMethod } from '@mfa-portal/shared';
import { useDeviceLabels } from '../../../lib/devices/device-labels';
import { ErrorAlert } from '../../../lib/ui/ErrorAlert';
import { useDefaultMethod, useSetDefaultMethod } from '../../../lib/devices/api/default-method';

const keyOf = (m: SignInMethod) => `${m.method}:${m.deviceId}`;

/**
 * The default sign-in method: what the portal's sign-in page offers first, why (chosen, or the safest
 * the person has, or the safest left after their choice went), and a way to choose another. Where the
 * portal does not decide (Duo's own prompt, the organisation's sign-in page), it says so and offers no
 * choice. Shown once the person has a device.
 */
export function DefaultMethodSection({ devices }: { devices: readonly Device[] }) {
  const { t } = useTranslation('main');
  const labels = useDeviceLabels();
  const query = useDefaultMethod({ enabled: devices.length > 0 });
  const save = useSetDefaultMethod();
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);
  const changeButton = useRef<HTMLButtonElement>(null);
  const choices = useRef<HTMLFieldSetElement>(null);
  const [form] = Form.useForm<{ choice: string }>();

  // Opening the choice moves the focus to the method chosen now; closing it brings it back to "Change".
  useEffect(() => {
    if (editing) choices.current?.querySelector<HTMLInputElement>('input[type="radio"]:checked')?.focus();
  }, [editing]);

  const describe = (m: SignInMethod) => {
    const device = devices.find((d) => d.id === m.deviceId);
    return t(`default_method.method.${m.method}`, { device: device ? labels.label(device) : t('default_method.a_device') });
  };

  if (query.isError) {
    return <ErrorAlert error={query.error} title={t('default_method.load_failed')} onRetry={() => void query.refetch()} />;
  }
  const answer = query.data;
  if (!answer) return null;
  if (answer.decidedBy !== 'portal') return <p>{t(`default_method.${answer.decidedBy}`)}</p>;
  if (!answer.current) return <p>{t('default_method.none')}</p>;
  const current = answer.current;

  const close = () => {
    setEditing(false);
    save.reset();
    // After React has put the button back.
    setTimeout(() => changeButton.current?.focus(), 0);
  };

  return (
    <>
      <p>{t('default_method.intro')}</p>
      <p>
        <strong>{t('default_method.current', { method: describe(current) })}</strong>
      </p>
      {answer.source !== 'chosen' ? <p className="form-note">{t(`default_method.${answer.source}`)}</p> : null}
      {editing ? (
        <Form<{ choice: string }>
          form={form}
          name="default-method"
          layout="vertical"
          requiredMark={false}
          initialValues={{ choice: keyOf(current) }}
          onFinish={({ choice }) => {
            const picked = answer.choices.find((c) => keyOf(c) === choice);
            if (!picked) return;
            setSaved(null);
            save.mutate(picked, {
              onSuccess: () => {
                setSaved(t('default_method.saved', { method: describe(picked) }));
                close();
              },
            });
          }}
          className="narrow-form"
        >
          <fieldset className="default-method__choices" ref={choices}>
            <legend>{t('default_method.legend')}</legend>
            <Form.Item name="choice" noStyle>
              <Radio.Group className="radio-list">
                {answer.choices.map((c) => (
                  <Radio key={keyOf(c)} value={keyOf(c)}>
                    {describe(c)}
                  </Radio>
                ))}
              </Radio.Group>
            </Form.Item>
          </fieldset>
          <span className="inline-links">
            <Button type="primary" htmlType="submit" loading={save.isPending}>
              {t('default_method.save')}
            </Button>
            <Button onClick={close}>{t('default_method.cancel')}</Button>
          </span>
          {save.isError ? <ErrorAlert error={save.error} title={t('default_method.save_failed')} className="after-form" /> : null}
        </Form>
      ) : (
        <Button
          ref={changeButton}
          onClick={() => {
            setSaved(null);
            form.resetFields();
            setEditing(true);
          }}
        >
          {t('default_method.change')}
        </Button>
      )}
      <p role="status" className="after-form">
        {saved}
      </p>
    </>
  );
}
