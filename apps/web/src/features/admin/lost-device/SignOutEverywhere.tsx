import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from 'antd';
import { formatDate } from '../../../lib/ui/format';
import { useSignOutEverywhere } from '../api/sign-out-everywhere';
import { JustifiedActionDialog } from '../components/JustifiedActionDialog';

/**
 * "Sign out everywhere": a lost or stolen phone may still hold a signed-in portal; this ends
 * every sign-in of the user at once (they sign in again on their other devices). Reason and ticket recorded.
 */
export function SignOutEverywhere({ upn }: { upn: string }) {
  const { t, i18n } = useTranslation('admin');
  const [open, setOpen] = useState(false);
  const [doneAt, setDoneAt] = useState<string | null>(null);
  const signOut = useSignOutEverywhere(upn);
  return (
    <section className="section" aria-labelledby="sign-out-everywhere-heading">
      <h2 id="sign-out-everywhere-heading">{t('sign_out_everywhere.heading')}</h2>
      <p>{t('sign_out_everywhere.intro', { upn })}</p>
      <Button onClick={() => setOpen(true)}>{t('sign_out_everywhere.open')}</Button>
      <p role="status" className="form-note">
        {doneAt ? t('sign_out_everywhere.done', { upn, time: formatDate(doneAt, i18n.resolvedLanguage, true) }) : ''}
      </p>
      {open ? (
        <JustifiedActionDialog
          open
          name="admin-sign-out-everywhere"
          title={t('sign_out_everywhere.title', { upn })}
          intro={<p>{t('sign_out_everywhere.body')}</p>}
          submitLabel={t('sign_out_everywhere.submit')}
          submittingLabel={t('sign_out_everywhere.submitting')}
          danger
          pending={signOut.isPending}
          error={signOut.error}
          failedTitle={t('sign_out_everywhere.failed')}
          onClose={() => setOpen(false)}
          onSubmit={async (values) => {
            setDoneAt((await signOut.mutateAsync(values)).signedOutAt);
            setOpen(false);
          }}
        />
      ) : null}
    </section>
  );
}
