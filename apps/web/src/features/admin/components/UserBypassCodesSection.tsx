import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { BypassCodeInfo } from '@mfa-portal/shared';
import { formatDate } from '../../../lib/ui/format';
import { GatedButton } from './GatedButton';

/**
 * The user's bypass codes in force on their page (when, until when, uses left, by whom; never the
 * codes), and issuing new ones (disabled, with `issueGate` saying why, when refused).
 */
export function UserBypassCodesSection({
  codes,
  notProvisioned,
  issueGate,
  verifyFirstNote,
  onIssue,
}: {
  codes: readonly BypassCodeInfo[];
  /** Unknown to the MFA service: no codes can be issued. */
  notProvisioned: boolean;
  issueGate: string | null;
  /** Why (and where) to verify the person first, when that is what stands in the way. */
  verifyFirstNote: ReactNode;
  onIssue: () => void;
}) {
  const { t, i18n } = useTranslation(['admin', 'bypass-codes']);
  const language = i18n.resolvedLanguage;
  return (
    <section className="section" aria-labelledby="codes-heading">
      <div className="section__header">
        <h2 id="codes-heading">{t('admin:codes.heading')}</h2>
        {notProvisioned ? null : <GatedButton reason={issueGate} onClick={onIssue} label={t('admin:issue.open')} primary />}
      </div>
      {notProvisioned ? null : verifyFirstNote}
      {codes.length === 0 ? (
        <p>{t('admin:codes.none')}</p>
      ) : (
        <div className="table-wrap" role="region" aria-label={t('admin:codes.table_label')} tabIndex={0}>
          <table className="data-table">
            <caption className="visually-hidden">{t('admin:codes.table_label')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('bypass-codes:list.created')}</th>
                <th scope="col">{t('bypass-codes:list.expires')}</th>
                <th scope="col">{t('bypass-codes:list.uses_left')}</th>
                <th scope="col">{t('bypass-codes:list.created_by')}</th>
              </tr>
            </thead>
            <tbody>
              {codes.map((code) => (
                <tr key={code.id}>
                  <td>{formatDate(code.createdAt, language, true)}</td>
                  <td>{formatDate(code.expiresAt, language, true)}</td>
                  <td>
                    {code.usesLeft === null
                      ? t('bypass-codes:list.uses_unlimited')
                      : code.reuseCount
                        ? t('bypass-codes:list.uses_of', { left: code.usesLeft, total: code.reuseCount })
                        : code.usesLeft}
                  </td>
                  <td>{code.createdBy}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
