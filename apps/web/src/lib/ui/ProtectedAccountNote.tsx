import { useTranslation } from 'react-i18next';
import { Alert } from 'antd';

/** Why a protected account sees no change buttons. */
export function ProtectedAccountNote() {
  const { t } = useTranslation('app');
  return <Alert role="note" type="info" showIcon title={t('protected.title')} description={t('protected.body')} className="before-form" />;
}
