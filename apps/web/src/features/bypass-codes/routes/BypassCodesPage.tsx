import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CreateBypassCodesResponse } from '@mfa-portal/shared';
import { useUser } from '../../../shell/contexts';
import { NewCodesPanel } from '../../../lib/bypass-codes/NewCodesPanel';
import { useCanChangeOwnMfa } from '../../../lib/self-service';
import { ErrorAlert } from '../../../lib/ui/ErrorAlert';
import { ProtectedAccountNote } from '../../../lib/ui/ProtectedAccountNote';
import { Loading } from '../../../lib/ui/Loading';
import { Page } from '../../../lib/ui/Page';
import { useBypassCodes } from '../api/get-bypass-codes';
import { BypassCodeList } from '../components/BypassCodeList';
import { CreateBypassCodesForm } from '../components/CreateBypassCodesForm';
import '../bypass-codes.css';

/** Bypass codes: what they are, the codes just created (shown once), creating more, and the live ones. */
export function BypassCodesPage() {
  const { t } = useTranslation('bypass-codes');
  const codes = useBypassCodes();
  const [created, setCreated] = useState<CreateBypassCodesResponse | null>(null);
  const canChange = useCanChangeOwnMfa();
  const { user } = useUser();
  return (
    <Page title={t('title')} intro={<p>{t('intro')}</p>} className="bypass-page">
      {created ? <NewCodesPanel result={created} owner={user?.upn ?? ''} onDone={() => setCreated(null)} /> : null}
      <section className="section no-print" aria-labelledby="bypass-create-heading">
        <h2 id="bypass-create-heading">{t('create.title')}</h2>
        {canChange ? (
          <>
            <p>{t('create.intro')}</p>
            <CreateBypassCodesForm liveCount={codes.data?.length ?? 0} onCreated={setCreated} />
          </>
        ) : (
          <ProtectedAccountNote />
        )}
      </section>
      <section className="section no-print" aria-labelledby="bypass-list-heading">
        <h2 id="bypass-list-heading">{t('list.title')}</h2>
        {codes.isPending ? (
          <Loading label={t('list.loading')} />
        ) : codes.isError ? (
          <ErrorAlert error={codes.error} title={t('list.failed')} onRetry={() => void codes.refetch()} />
        ) : (
          <BypassCodeList codes={codes.data} />
        )}
      </section>
    </Page>
  );
}
