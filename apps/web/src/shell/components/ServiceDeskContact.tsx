import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { readServiceDesk } from '../service-desk';

/**
 * "Contact the service desk: <how>", beside a sentence that sends someone to the service desk, when the
 * organisation configured how (SERVICE_DESK_CONTACT). Without it nothing is shown: the sentence alone
 * promises no details. A phone number, address or page is a link a phone can follow straight away.
 * `need_help` introduces it where no sentence about the service desk stands beside it.
 */
export function ServiceDeskContact({ className, lead = 'contact' }: { className?: string; lead?: 'contact' | 'need_help' }) {
  const { t } = useTranslation('common');
  const desk = useMemo(() => readServiceDesk(), []);
  if (!desk) return null;
  return (
    <p className={className ? `service-desk-contact ${className}` : 'service-desk-contact'}>
      {t(`service_desk.${lead}`)} {desk.link ? <a href={desk.link}>{desk.text}</a> : <strong>{desk.text}</strong>}
    </p>
  );
}
