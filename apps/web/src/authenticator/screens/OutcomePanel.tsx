import { useLayoutEffect, useRef, useState } from 'react';
import { api } from '../lib/api';
import { useT } from '../i18n';
import type { Outcome } from '../outcome';

const KEYS = {
  approved: 'result.approved',
  denied: 'result.denied',
  mismatch: 'result.mismatch',
  expired: 'result.expired',
  already_answered: 'result.already_answered',
  closed_elsewhere: 'result.closed_elsewhere',
  offline: 'result.offline',
  failed: 'result.failed',
  unauthorized: 'result.unauthorized',
} as const;

type ReportState = 'idle' | 'sending' | 'sent' | 'failed';

/**
 * What became of the last request. After a denial it offers "This wasn't me", which files the
 * portal's report (the security team is told) and says what happens next.
 */
export function OutcomePanel({ outcome, onDone }: { outcome: Outcome; onDone(): void }) {
  const t = useT();
  const heading = useRef<HTMLHeadingElement>(null);
  const [report, setReport] = useState<ReportState>('idle');

  // Before paint, like the request screen: a tap on "This wasn't me" in the moment after would
  // otherwise be undone by this reset.
  useLayoutEffect(() => {
    heading.current?.focus();
    setReport('idle');
  }, [outcome]);

  const sendReport = async () => {
    if (!outcome.report) return;
    setReport('sending');
    try {
      await api.report(outcome.report.signer, outcome.report.requestId);
      setReport('sent');
    } catch {
      setReport('failed');
    }
  };

  const warning = outcome.kind !== 'approved';
  return (
    <section className={warning ? 'card outcome warning' : 'card outcome'} aria-labelledby="outcome-title">
      <h2 id="outcome-title" ref={heading} tabIndex={-1}>
        {t(KEYS[outcome.kind])}
      </h2>
      {outcome.kind === 'mismatch' && <p>{t('result.mismatch_help')}</p>}
      {outcome.report && report !== 'sent' && (
        <>
          <p>{t('result.not_me_question')}</p>
          <button type="button" className="danger" disabled={report === 'sending'} onClick={() => void sendReport()}>
            {report === 'sending' ? t('result.reporting') : t('result.not_me')}
          </button>
        </>
      )}
      {report === 'sent' && <p role="status">{t('result.reported')}</p>}
      {report === 'failed' && <p role="alert">{t('result.report_failed')}</p>}
      <div className="actions">
        <button type="button" className="secondary" onClick={onDone}>
          {t('result.done')}
        </button>
      </div>
    </section>
  );
}
