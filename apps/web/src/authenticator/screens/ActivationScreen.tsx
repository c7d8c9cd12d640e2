import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { AuthenticatorInfo, PushSubscriptionJson } from '@mfa-portal/shared';
import { api, ApiError } from '../lib/api';
import { describeDevice, type Platform } from '../lib/device-info';
import { generateDeviceKey, publicJwk } from '../lib/device-key';
import type { AccountStore } from '../lib/store';
import { currentSubscription, notificationsSupported, subscribeToPush } from '../lib/web-push';
import { useT } from '../i18n';

export interface ActivationScreenProps {
  token: string;
  store: AccountStore;
  info(): Promise<AuthenticatorInfo>;
  /** The person chose to move on (to the passcodes). */
  onDone(): void;
}

type Notify = 'ask' | 'on' | 'denied' | 'unsupported' | 'failed';
type Phase = { step: 'form' } | { step: 'working' } | { step: 'ready'; upn: string } | { step: 'failed'; message: string };

const KNOWN_ERRORS = new Set([
  'authenticator.activation_invalid',
  'authenticator.activation_expired',
  'authenticator.activation_used',
  'network.offline',
  'request.rate_limited',
  'factor_policy.kind_not_allowed',
  'factor_policy.limit_reached',
]);

/**
 * Setting up this phone from an activation link: a name for it, notifications if the person allows
 * them, then a new non-extractable key whose public half goes to the portal with the link's token.
 */
export default function ActivationScreen({ token, store, info, onDone }: ActivationScreenProps) {
  const t = useT();
  const ids = { name: useId(), help: useId(), error: useId() };
  const heading = useRef<HTMLHeadingElement>(null);
  const [name, setName] = useState('');
  const [platform, setPlatform] = useState<Platform>('other');
  const [nameMissing, setNameMissing] = useState(false);
  const [notify, setNotify] = useState<Notify>(() => (notificationsSupported() ? 'ask' : 'unsupported'));
  const [subscription, setSubscription] = useState<PushSubscriptionJson | null>(null);
  const [phase, setPhase] = useState<Phase>({ step: 'form' });

  useEffect(() => {
    let live = true;
    void describeDevice().then((d) => {
      if (!live) return;
      setName((current) => current || d.name);
      setPlatform(d.platform);
    });
    void currentSubscription().then((s) => {
      if (live && s) {
        setSubscription(s);
        setNotify('on');
      }
    });
    return () => {
      live = false;
    };
  }, []);

  useEffect(() => {
    heading.current?.focus();
  }, [phase.step]);

  const allowNotifications = async () => {
    const vapid = await info()
      .then((i) => i.vapidPublicKey)
      .catch(() => null);
    const outcome = await subscribeToPush(vapid);
    if ('subscription' in outcome) {
      setSubscription(outcome.subscription);
      setNotify('on');
    } else setNotify(outcome.skipped);
  };

  const activate = async (event: FormEvent) => {
    event.preventDefault();
    const deviceName = name.trim();
    if (!deviceName) {
      setNameMissing(true);
      document.getElementById(ids.name)?.focus();
      return;
    }
    if (!globalThis.crypto?.subtle) {
      setPhase({ step: 'failed', message: t('activate.no_crypto') });
      return;
    }
    setPhase({ step: 'working' });
    try {
      const keys = await generateDeviceKey();
      const result = await api.activate({ token, publicKey: await publicJwk(keys), platform, deviceName, pushSubscription: subscription });
      await store.put({
        deviceId: result.deviceId,
        upn: result.account.upn,
        displayName: result.account.displayName,
        keys,
        passcode: result.passcode,
        createdAt: new Date().toISOString(),
      });
      setPhase({ step: 'ready', upn: result.account.upn });
    } catch (err) {
      const code = err instanceof ApiError && KNOWN_ERRORS.has(err.code) ? err.code : 'generic';
      // The factor policy says in its own words which policy it is and what it allows.
      const reason = err instanceof ApiError ? (err.reason ?? '') : '';
      setPhase({ step: 'failed', message: t(`errors.${code}`, { reason }) });
    }
  };

  if (phase.step === 'ready' || phase.step === 'failed') {
    const ready = phase.step === 'ready';
    return (
      <section className={ready ? 'card outcome' : 'card outcome warning'} aria-labelledby="activation-result">
        <h1 id="activation-result" ref={heading} tabIndex={-1}>
          {ready ? t('activate.ready_title', { upn: phase.upn }) : t('activate.failed_title')}
        </h1>
        <p role={ready ? 'status' : 'alert'}>{ready ? t('activate.ready_body') : phase.message}</p>
        <div className="actions">
          <button type="button" className="primary" onClick={onDone}>
            {t('activate.continue')}
          </button>
        </div>
      </section>
    );
  }

  const working = phase.step === 'working';
  return (
    <section className="card" aria-labelledby="activation-title">
      <h1 id="activation-title" ref={heading} tabIndex={-1}>
        {t('activate.title')}
      </h1>
      <p>{t('activate.intro')}</p>
      <form onSubmit={(e) => void activate(e)} noValidate>
        <label htmlFor={ids.name}>{t('activate.name_label')}</label>
        <p id={ids.help} className="help">
          {t('activate.name_help')}
        </p>
        <input
          id={ids.name}
          name="deviceName"
          type="text"
          autoComplete="off"
          maxLength={64}
          value={name}
          disabled={working}
          aria-invalid={nameMissing || undefined}
          aria-describedby={nameMissing ? `${ids.help} ${ids.error}` : ids.help}
          onChange={(e) => {
            setName(e.target.value);
            setNameMissing(false);
          }}
        />
        {nameMissing && (
          <p id={ids.error} className="error" role="alert">
            {t('activate.name_required')}
          </p>
        )}
        <div className="notify">
          <h2>{t('notifications.title')}</h2>
          {notify === 'ask' ? (
            <>
              <p>{t('notifications.explain')}</p>
              <button type="button" className="secondary" disabled={working} onClick={() => void allowNotifications()}>
                {t('notifications.allow')}
              </button>
            </>
          ) : (
            <p role="status">{t(`notifications.${notify}`)}</p>
          )}
        </div>
        <div className="actions">
          <button type="submit" className="primary" disabled={working}>
            {working ? t('activate.working') : t('activate.submit')}
          </button>
        </div>
      </form>
    </section>
  );
}
