import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Modal } from 'antd';
import type { BypassCodeInfo } from '@mfa-portal/shared';
import { useUser } from '../../../shell/contexts';
import { ErrorAlert } from '../../../lib/ui/ErrorAlert';
import { focusMarkedElement, useFocusReturn } from '../../../lib/ui/dialog-focus';
import { useFlash } from '../../../lib/ui/flash';
import { formatDate } from '../../../lib/ui/format';
import { useRevokeBypassCode } from '../api/revoke-bypass-code';

/** Live bypass codes (never the codes themselves: only when they were made, expire and uses left). */
export function BypassCodeList({ codes }: { codes: BypassCodeInfo[] }) {
  const { t, i18n } = useTranslation('bypass-codes');
  const { user } = useUser();
  const [revoking, setRevoking] = useState<BypassCodeInfo | null>(null);
  const language = i18n.resolvedLanguage;
  if (codes.length === 0) {
    return (
      <div className="empty-state">
        <p className="empty-state__title">{t('list.empty_title')}</p>
        <p>{t('list.empty_body')}</p>
      </div>
    );
  }
  return (
    <>
      <ul className="bypass-list">
        {codes.map((code, index) => {
          const created = formatDate(code.createdAt, language, true);
          const expires = formatDate(code.expiresAt, language, true);
          const byMe = !!user && code.createdBy.toLowerCase() === user.upn.toLowerCase();
          return (
            <li key={code.id} className="bypass-item">
              <div className="bypass-item__facts">
                <p className="bypass-item__title">{t('list.item_title', { number: index + 1 })}</p>
                <dl className="facts">
                  <div>
                    <dt>{t('list.created')}</dt>
                    <dd>{created}</dd>
                  </div>
                  <div>
                    <dt>{t('list.expires')}</dt>
                    <dd>{expires}</dd>
                  </div>
                  <div>
                    <dt>{t('list.uses_left')}</dt>
                    <dd>
                      {code.usesLeft === null
                        ? t('list.uses_unlimited')
                        : code.reuseCount
                          ? t('list.uses_of', { left: code.usesLeft, total: code.reuseCount })
                          : code.usesLeft}
                    </dd>
                  </div>
                  <div>
                    <dt>{t('list.created_by')}</dt>
                    <dd>
                      {byMe ? t('list.created_by_you') : code.createdBy}
                      {byMe ? null : (
                        <>
                          {' '}
                          <span className="badge badge--neutral">{t('list.service_desk')}</span>
                        </>
                      )}
                    </dd>
                  </div>
                </dl>
              </div>
              <Button danger onClick={() => setRevoking(code)} aria-label={t('list.revoke_named', { created, expires })}>
                {t('list.revoke')}
              </Button>
            </li>
          );
        })}
      </ul>
      {revoking ? <RevokeDialog code={revoking} onClose={() => setRevoking(null)} /> : null}
    </>
  );
}

function RevokeDialog({ code, onClose }: { code: BypassCodeInfo; onClose: () => void }) {
  const { t, i18n } = useTranslation('bypass-codes');
  const revoke = useRevokeBypassCode();
  const { showSuccess } = useFlash();
  const created = formatDate(code.createdAt, i18n.resolvedLanguage, true);
  const submit = async () => {
    try {
      await revoke.mutateAsync(code.id);
      showSuccess(t('revoke.done'));
      onClose();
    } catch {
      // shown below
    }
  };
  const focusReturn = useFocusReturn(true);
  return (
    <Modal
      open
      {...focusReturn}
      afterOpenChange={focusMarkedElement}
      title={t('revoke.title')}
      onCancel={onClose}
      footer={[
        <Button key="cancel" onClick={onClose} autoFocus data-autofocus>
          {t('revoke.keep')}
        </Button>,
        <Button key="submit" danger type="primary" onClick={() => void submit()} loading={revoke.isPending}>
          {revoke.isPending ? t('revoke.revoking') : t('revoke.submit')}
        </Button>,
      ]}
    >
      <p>{t('revoke.body', { created })}</p>
      {revoke.error ? <ErrorAlert error={revoke.error} title={t('revoke.failed')} /> : null}
    </Modal>
  );
}
