import { useTranslation } from 'react-i18next';
import { Alert } from 'antd';
import { useReach } from '../api/units';

/**
 * Whom the signed-in helpdesk member can help, when administrative units limit them: the units by
 * name, or, assigned to none where an assignment is required, that they cannot help anyone yet and
 * whom to ask. Nothing for an administrator who reaches everyone.
 */
export function ReachNote() {
  const { t } = useTranslation('admin');
  const reach = useReach();
  if (!reach.data || reach.data.reach === 'everyone') return null;
  if (reach.data.reach === 'nobody') return <Alert className="before-form" type="warning" showIcon role="note" title={t('reach.nobody')} />;
  return <p className="reach-note">{t('reach.units', { names: reach.data.units.map((u) => u.name).join(', ') })}</p>;
}
