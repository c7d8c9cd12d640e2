import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button } from 'antd';
import type { CreateBypassCodesResponse } from '@mfa-portal/shared';
import { useUser } from '../../../shell/contexts';
import { CopyButton } from '../../../lib/ui/CopyButton';
import { formatDate } from '../../../lib/ui/format';

/** A plain-text file of the codes, for the user to keep (nothing else is stored in it). */
export function codesAsText(lines: { heading: string; codes: string[]; footer: string }): string {
  return [lines.heading, '', ...lines.codes, '', lines.footer, ''].join('\n');
}

function download(filename: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** Prints only the codes: the rest of the page is hidden while the print dialog is open. */
function printCodes(): void {
  document.body.classList.add('printing-codes');
  const done = () => {
    document.body.classList.remove('printing-codes');
    window.removeEventListener('afterprint', done);
  };
  window.addEventListener('afterprint', done);
  window.print();
}

/**
 * The codes just created, shown this once: copy, download as a text file or print, then "Done".
 * Focus moves here so keyboard and screen-reader users land on them.
 */
export function NewCodesPanel({ result, onDone }: { result: CreateBypassCodesResponse; onDone: () => void }) {
  const { t, i18n } = useTranslation('bypass-codes');
  const { user } = useUser();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const language = i18n.resolvedLanguage;
  const codes = result.codes.map((c) => c.code);
  const first = result.codes[0];
  const terms = first ? t('new.terms', { count: first.usesLeft, expires: formatDate(first.expiresAt, language, true) }) : '';
  const text = codesAsText({
    heading: t('new.file_heading', { user: user?.upn ?? '' }),
    codes,
    footer: `${terms} ${t('new.file_footer')}`,
  });
  const filename = `${t('new.file_name')}-${new Date().toISOString().slice(0, 10)}.txt`;
  return (
    <section className="panel new-codes print-area" aria-labelledby="new-codes-heading">
      <h2 id="new-codes-heading" ref={heading} tabIndex={-1}>
        {t('new.title', { count: codes.length })}
      </h2>
      <Alert type="warning" showIcon title={t('new.once_title')} description={t('new.once_body')} className="no-print" />
      <ul className="code-list" aria-label={t('new.list_label')}>
        {codes.map((code) => (
          <li key={code} className="code-list__item">
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <p>{terms}</p>
      {result.replaced > 0 ? <p>{t('new.replaced', { count: result.replaced })}</p> : null}
      <div className="actions no-print">
        <CopyButton text={codes.join('\n')} label={t('new.copy')} />
        <Button onClick={() => download(filename, text)}>{t('new.download')}</Button>
        <Button onClick={printCodes}>{t('new.print')}</Button>
        <Button type="primary" onClick={onDone}>
          {t('new.done')}
        </Button>
      </div>
    </section>
  );
}
