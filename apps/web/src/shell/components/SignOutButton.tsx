import { useTranslation } from 'react-i18next';
import { useSignOut } from '../use-sign-out';
import { ProblemDetails } from './ProblemDetails';

/** "Sign out", shown only when someone is signed in. */
export function SignOutButton() {
  const { t } = useTranslation('common');
  const { account, signOut, problem } = useSignOut();
  if (!account) return null;
  return (
    <>
      <button type="button" className="button button--quiet" onClick={signOut}>
        {t('actions.sign_out')}
      </button>
      {problem ? <ProblemDetails problem={problem} /> : null}
    </>
  );
}
