import { useContext, useEffect, useId, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import type { PendingPushRequest, PushAnswer } from '@mfa-portal/shared';
import { api, type Signer } from '../lib/api';
import { I18nContext, useT } from '../i18n';
import { absoluteTime, relativeTime, secondsUntil } from '../format';
import { outcomeOfError, type Outcome } from '../outcome';
import { useNow } from '../use-now';

export interface RequestScreenProps {
  request: PendingPushRequest;
  signer: Signer;
  /** How many more requests wait behind this one. */
  moreWaiting: number;
  /** The request is being answered here: a "closed" from the stream is ours, not news. */
  onAnswering(id: string): void;
  onOutcome(id: string, outcome: Outcome): void;
}

/**
 * One request: what is asked, from where and when, and the number to type. Approving signs the
 * request's id, the typed number, the decision and the time with this phone's key; the server
 * compares the number, so a guess refuses the request instead of approving it. The app keys it by the
 * request's id, so each request starts with an empty number.
 */
export function RequestScreen({ request, signer, moreWaiting, onAnswering, onOutcome }: RequestScreenProps) {
  const t = useT();
  const { language } = useContext(I18nContext);
  const now = useNow();
  const [number, setNumber] = useState('');
  const [invalid, setInvalid] = useState(false);
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const ids = { help: useId(), error: useId(), number: useId() };

  // A new request takes the focus, so a keyboard or screen reader user lands on what it asks. Before
  // the screen is painted: a passive effect runs a moment later, and a number typed in that moment
  // would have the focus taken from under it.
  useLayoutEffect(() => {
    heading.current?.focus();
  }, []);

  const left = secondsUntil(request.expiresAt, now);
  useEffect(() => {
    if (left === 0 && !busy) onOutcome(request.id, { kind: 'expired' });
  }, [left, busy, request.id, onOutcome]);

  const send = async (decision: PushAnswer['decision']) => {
    if (busy) return;
    const answer: PushAnswer = {
      requestId: request.id,
      number: decision === 'approve' ? number : null,
      decision,
      time: new Date().toISOString(),
    };
    setBusy(true);
    onAnswering(request.id);
    try {
      const result = await api.answer(signer, answer);
      onOutcome(request.id, {
        kind: result.state,
        report: result.state === 'denied' && result.reportable ? { signer, requestId: request.id } : undefined,
      });
    } catch (err) {
      const kind = outcomeOfError(err);
      // Offline: the request may still be answerable, so it stays on screen.
      if (kind === 'offline') setBusy(false);
      onOutcome(request.id, { kind });
    }
  };

  const approve = (event: FormEvent) => {
    event.preventDefault();
    if (!/^[0-9]{2}$/.test(number)) {
      setInvalid(true);
      document.getElementById(ids.number)?.focus();
      return;
    }
    void send('approve');
  };

  const title =
    request.kind === 'helpdesk_check'
      ? request.requestedBy
        ? t('request.kind.helpdesk_check', { requestedBy: request.requestedBy })
        : t('request.kind.helpdesk_check_unknown')
      : t(`request.kind.${request.kind}`);
  const browser =
    request.browser && request.os
      ? t('request.browser_on_os', { browser: request.browser, os: request.os })
      : (request.browser ?? request.os);
  const address =
    request.ipAddress && request.location
      ? t('request.address_at', { address: request.ipAddress, location: request.location })
      : (request.ipAddress ?? request.location);
  const period = Math.max(1, (new Date(request.expiresAt).getTime() - new Date(request.createdAt).getTime()) / 1000);

  return (
    <section className="card request" aria-labelledby={`${ids.number}-title`}>
      <h1 id={`${ids.number}-title`} ref={heading} tabIndex={-1}>
        {title}
      </h1>
      <p className="account">{t('request.for', { account: request.account })}</p>
      <dl className="details">
        <dt>{t('request.application')}</dt>
        <dd>{request.application}</dd>
        <dt>{t('request.browser')}</dt>
        <dd>{browser ?? t('request.unknown')}</dd>
        <dt>{t('request.address')}</dt>
        <dd>{address ?? t('request.unknown')}</dd>
        <dt>{t('request.time')}</dt>
        <dd>
          {relativeTime(request.createdAt, now, language)} ({absoluteTime(request.createdAt, language)})
        </dd>
        <dt>{t('request.expires')}</dt>
        <dd>{t('request.expires_in', { count: left })}</dd>
      </dl>
      <div className="bar" aria-hidden="true">
        <div className="bar-fill" style={{ width: `${Math.min(100, (left / period) * 100)}%` }} />
      </div>
      <form onSubmit={approve} noValidate>
        <label htmlFor={ids.number}>{t('request.number_label')}</label>
        <p id={ids.help} className="help">
          {t('request.number_help')}
        </p>
        <input
          id={ids.number}
          className="number"
          name="number"
          type="text"
          inputMode="numeric"
          pattern="[0-9]*"
          autoComplete="off"
          maxLength={2}
          value={number}
          disabled={busy}
          aria-invalid={invalid || undefined}
          aria-describedby={invalid ? `${ids.help} ${ids.error}` : ids.help}
          onChange={(e) => {
            setNumber(e.target.value.replace(/[^0-9]/g, '').slice(0, 2));
            setInvalid(false);
          }}
        />
        {invalid && (
          <p id={ids.error} className="error" role="alert">
            {t('request.number_required')}
          </p>
        )}
        <div className="actions">
          <button type="submit" className="primary" disabled={busy}>
            {t('request.approve')}
          </button>
          <button type="button" className="secondary" disabled={busy} onClick={() => void send('deny')}>
            {t('request.deny')}
          </button>
        </div>
        {busy && <p className="help">{t('request.working')}</p>}
      </form>
      {moreWaiting > 0 && <p className="help">{t('request.more_waiting', { count: moreWaiting })}</p>}
    </section>
  );
}
