import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from 'antd';
import type { FactorKind, FactorPolicyPerson, FactorPolicyPreview } from '@mfa-portal/shared';
import { isApiError } from '../../../lib/api/api-error';
import { ErrorAlert } from '../../../lib/ui/ErrorAlert';

/** The people of one list of a preview, each with the kinds they hold that they could no longer use. */
function People({ people, count }: { people: readonly FactorPolicyPerson[]; count: number }) {
  const { t } = useTranslation('admin');
  const kinds = (list: readonly FactorKind[]) => list.map((k) => t(`factor_policy.kind.${k}`)).join(', ');
  if (count === 0) return <p>{t('factor_policy.preview_nobody')}</p>;
  return (
    <>
      <ul>
        {people.map((p) => (
          <li key={p.upn}>{t('factor_policy.person', { name: p.displayName || p.upn, upn: p.upn, kinds: kinds(p.kinds) })}</li>
        ))}
      </ul>
      {count > people.length ? <p>{t('factor_policy.preview_more', { count: count - people.length })}</p> : null}
    </>
  );
}

/**
 * What a change would do, before it is saved: how many people it reaches, who would be left with no
 * device they may use (then saving is refused), and who would keep devices they may no longer use
 * (kept and shown to them as such, never removed).
 */
export function FactorPolicyPreviewResult({ preview }: { preview: FactorPolicyPreview }) {
  const { t } = useTranslation('admin');
  const headingId = useId();
  return (
    <section className="panel factor-policy-preview" aria-labelledby={headingId}>
      <h3 id={headingId}>{t('factor_policy.preview_title')}</h3>
      <p role="status">{t('factor_policy.preview_affected', { count: preview.affected })}</p>
      <Alert
        type={preview.refused ? 'error' : 'success'}
        showIcon
        title={preview.refused ? t('factor_policy.preview_refused') : t('factor_policy.preview_fine')}
      />
      <h4>{t('factor_policy.preview_lose_title', { count: preview.loseEveryFactor.count })}</h4>
      <People people={preview.loseEveryFactor.people} count={preview.loseEveryFactor.count} />
      <h4>{t('factor_policy.preview_disallowed_title', { count: preview.holdDisallowed.count })}</h4>
      <People people={preview.holdDisallowed.people} count={preview.holdDisallowed.count} />
    </section>
  );
}

/** Why a save was refused: for a change that would leave people without a device, who they are. */
export function FactorPolicyRefusal({ error }: { error: unknown }) {
  const { t } = useTranslation('admin');
  if (!isApiError(error, 'factor_policy.would_leave_without_factor')) {
    return <ErrorAlert error={error} title={t('factor_policy.save_failed')} className="after-form" />;
  }
  const people = Array.isArray(error.details.people) ? error.details.people.filter((p): p is string => typeof p === 'string') : [];
  const count = typeof error.details.count === 'number' ? error.details.count : people.length;
  return (
    <Alert
      className="after-form"
      type="error"
      showIcon
      title={t('factor_policy.refused_title')}
      description={
        <>
          <p>{typeof error.details.reason === 'string' ? error.details.reason : null}</p>
          <p>{t('factor_policy.refused_people')}</p>
          <ul>
            {people.map((upn) => (
              <li key={upn}>{upn}</li>
            ))}
          </ul>
          {count > people.length ? <p>{t('factor_policy.preview_more', { count: count - people.length })}</p> : null}
        </>
      }
    />
  );
}
