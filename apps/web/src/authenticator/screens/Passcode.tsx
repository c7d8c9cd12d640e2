import { useEffect, useMemo, useState } from 'react';
import { useT } from '../i18n';
import { groupDigits } from '../format';
import type { StoredAccount } from '../lib/store';
import { base32Decode, secondsLeft, totp } from '../lib/totp';

/** One account's current passcode, computed on the phone (offline too), with the time it has left. */
export function Passcode({ account, now }: { account: StoredAccount; now: number }) {
  const t = useT();
  const { period, digits, secret } = account.passcode;
  const key = useMemo(() => base32Decode(secret), [secret]);
  const step = Math.floor(now / 1000 / period);
  const [code, setCode] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    void totp(key, step * period * 1000, { period, digits }).then((c) => {
      if (current) setCode(c);
    });
    return () => {
      current = false;
    };
  }, [key, step, period, digits]);

  const left = secondsLeft(now, period);
  const labelId = `passcode-${account.deviceId}`;
  return (
    <div className="passcode">
      <p id={labelId} className="passcode-label">
        {t('home.passcode_label', { upn: account.upn })}
      </p>
      <output className="passcode-code" aria-labelledby={labelId}>
        {code ? groupDigits(code) : '––– –––'}
      </output>
      <div className="bar" aria-hidden="true">
        <div className="bar-fill" style={{ width: `${(left / period) * 100}%` }} />
      </div>
      <p className="help">{t('home.seconds_left', { count: left })}</p>
    </div>
  );
}
