import { useState, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Form, Input } from 'antd';
import { ADMIN_REASON_MAX_LENGTH, type AdminUserDetail } from '@mfa-portal/shared';
import { useJustificationMemory } from './justification-memory';
import { reasonFormatRule, TicketField, type Justification } from './JustificationFields';
import { ManualVerificationForm, VerificationStatus } from './VerificationInForce';
import { passcodeDevices, VerifyIdentityPanel } from './VerifyIdentityPanel';
import { pushPhones } from './VerifyPushPanel';

/**
 * "Verify the caller", the second part of a helpdesk call: the call's ticket and reason, typed once
 * here and kept for every action that follows; a code they read out (or a verification push, where
 * the MFA service sends them); and, folded away, the record of a check made by hand for a caller with
 * no device left. Once a verification is in force the forms fold into one line saying by what and
 * until when; that line is the section's one live region, so the success is announced once.
 */
export function VerifyCallSection({
  upn,
  detail,
  disabledReason,
  sectionRef,
}: {
  upn: string;
  detail: AdminUserDetail;
  /** Why the caller may not verify this user (a translated policy reason), or null. */
  disabledReason: string | null;
  sectionRef?: Ref<HTMLElement>;
}) {
  const { t } = useTranslation('admin');
  const memory = useJustificationMemory();
  const [callForm] = Form.useForm<Partial<Justification>>();
  const { current } = detail.verification;
  // "Check again" opens the forms under the verification in force; a new one folds them again.
  const [reopenedFor, setReopenedFor] = useState<string | null>(null);
  const open = !current || reopenedFor === current.verifiedAt;
  const devices = detail.mfa.devices;
  const noDevice = passcodeDevices(devices).length === 0 && pushPhones(devices).length === 0;

  /** The call as typed (checked with the API's rules), remembered for the actions; null when it does not pass. */
  const call = async (): Promise<Justification | null> => {
    try {
      const values = await callForm.validateFields();
      const typed = { reason: (values.reason ?? '').trim(), ticket: (values.ticket ?? '').trim() };
      if (typed.reason || typed.ticket) memory.remember(typed);
      return typed;
    } catch {
      return null;
    }
  };
  const prepare = async () => {
    const typed = await call();
    if (!typed) return null;
    return typed.ticket ? { ticket: typed.ticket } : {};
  };
  // A check made by hand is recorded with the call's ticket: it is required there.
  const ticketOfCall = async () => {
    const typed = await call();
    if (!typed) return null;
    if (typed.ticket) return typed.ticket;
    callForm.setFields([{ name: 'ticket', errors: [t('justify.ticket_required')] }]);
    callForm.focusField('ticket');
    return null;
  };

  return (
    <section className="section verify-call" aria-labelledby="verify-heading" ref={sectionRef}>
      <h2 id="verify-heading" tabIndex={-1}>
        {t('verify.heading')}
      </h2>
      {disabledReason ? (
        <Alert role="note" type="info" showIcon title={t('verify.unavailable')} description={disabledReason} />
      ) : (
        <>
          <div className={current ? 'verify-summary verify-summary--done' : 'verify-summary'}>
            <div role="status" className="verify-summary__status">
              <VerificationStatus state={detail.verification} />
            </div>
            {current && !open ? <Button onClick={() => setReopenedFor(current.verifiedAt)}>{t('verify.check_again')}</Button> : null}
          </div>
          {open ? (
            <>
              <Form<Partial<Justification>>
                name="verify-call"
                form={callForm}
                layout="vertical"
                requiredMark={false}
                initialValues={memory.last ?? { reason: '', ticket: current?.ticket ?? '' }}
                className="verify-call-fields"
              >
                <TicketField optional help={null} />
                <Form.Item name="reason" label={t('justify.reason_label')} rules={[reasonFormatRule(t)]}>
                  <Input maxLength={ADMIN_REASON_MAX_LENGTH} autoComplete="off" />
                </Form.Item>
              </Form>
              <VerifyIdentityPanel
                upn={upn}
                devices={devices}
                identityCheck={undefined}
                disabledReason={null}
                showLastCheck={false}
                showSuccess={false}
                compact
                prepare={prepare}
              />
              <details className="verify-manual" open={noDevice}>
                <summary>{t('verify.manual_summary')}</summary>
                <ManualVerificationForm upn={upn} ticketOfCall={ticketOfCall} />
              </details>
            </>
          ) : null}
        </>
      )}
    </section>
  );
}
