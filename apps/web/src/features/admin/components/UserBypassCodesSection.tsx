import { useTranslation } from 'react-i18next';
import type { BypassCodeInfo } from '@mfa-portal/shared';
import { formatDate } from '../../../lib/ui/format';

/**
 * The user's bypass codes in force, within the call's actions (when, until when, uses left, by whom;
 * never the codes). "Issue bypass codes" is among the call's actions above.
 */
export function UserBypassCodesSection({ codes }: { codes: readonly BypassCodeInfo[] }) {
  const { t, i18n } = useTranslation(['admin', 'bypass-codes']);
  const language = i18n.resolvedLanguage;
  // None in force: one line, not a section.
  if (codes.length === 0) return <p className="call-actions__part">{t('admin:codes.none')}</p>;
  return (
    <section className="call-actions__part" aria-labelledby="codes-heading">
      <h3 id="codes-heading">{t('admin:codes.heading')}</h3>
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
    </section>
  );
}
