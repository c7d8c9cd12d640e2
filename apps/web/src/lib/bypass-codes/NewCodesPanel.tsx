import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button } from 'antd';
import type { CreateBypassCodesResponse } from '@mfa-portal/shared';
import { CopyButton } from '../ui/CopyButton';
import { downloadText } from '../ui/download';
import { formatDate } from '../ui/format';
import './new-codes.css';

/** A plain-text file of the codes, for the user to keep (nothing else is stored in it). */
export function codesAsText(lines: { heading: string; codes: string[]; footer: string }): string {
  return [lines.heading, '', ...lines.codes, '', lines.footer, ''].join('\n');
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

export interface NewCodesPanelProps {
  result: CreateBypassCodesResponse;
  onDone: () => void;
  /** Whose codes they are (the heading of the downloaded file). */
  owner: string;
  /** Heading; default "Your N new bypass codes". */
  title?: string;
  /** The warning's text; default: save them now, shown once. */
  onceBody?: string;
  /** Label of the closing button; default "I have saved them". */
  doneLabel?: string;
  /** Shown under the codes (e.g. what to tell the user). */
  children?: ReactNode;
}

/**
 * Bypass codes just created, shown this once: copy, download as a text file or print, then "Done".
 * Focus moves here so keyboard and screen-reader users land on them. The one panel for new codes: the
 * user's own bypass codes screen and lost-device wizard, and administrators issuing codes for someone
 * (who pass their own wording).
 */
export function NewCodesPanel({ result, onDone, owner, title, onceBody, doneLabel, children }: NewCodesPanelProps) {
  const { t, i18n } = useTranslation('bypass-codes');
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const language = i18n.resolvedLanguage;
  const codes = result.codes.map((c) => c.code);
  const first = result.codes[0];
  const terms = first ? t('new.terms', { count: first.usesLeft, expires: formatDate(first.expiresAt, language, true) }) : '';
  const text = codesAsText({ heading: t('new.file_heading', { user: owner }), codes, footer: `${terms} ${t('new.file_footer')}` });
  const filename = `${t('new.file_name')}-${new Date().toISOString().slice(0, 10)}.txt`;
  return (
    <section className="panel new-codes print-area" aria-labelledby="new-codes-heading">
      <h2 id="new-codes-heading" ref={heading} tabIndex={-1}>
        {title ?? t('new.title', { count: codes.length })}
      </h2>
      <Alert type="warning" showIcon title={t('new.once_title')} description={onceBody ?? t('new.once_body')} className="no-print" />
      <ul className="code-list" aria-label={t('new.list_label')}>
        {codes.map((code) => (
          <li key={code} className="code-list__item">
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <p>{terms}</p>
      {result.replaced > 0 ? <p>{t('new.replaced', { count: result.replaced })}</p> : null}
      {children}
      <div className="actions no-print">
        <CopyButton text={codes.join('\n')} label={t('new.copy')} />
        <Button onClick={() => downloadText(filename, text)}>{t('new.download')}</Button>
        <Button onClick={printCodes}>{t('new.print')}</Button>
        <Button type="primary" onClick={onDone}>
          {doneLabel ?? t('new.done')}
        </Button>
      </div>
    </section>
  );
}
