import fs from 'node:fs';
import { expect } from '@playwright/test';

/**
 * What a person does on their phone, for the journeys on Duo (playwright.duo.config.ts only): answer a
 * push or a helpdesk verification push, scan the activation QR code. Done through the Duo stand-in's
 * loopback control endpoint (apps/server/test/duo/standin-control.ts), whose address and token
 * portal-on-standin.ts writes to DUO_STANDIN_CONTROL_FILE.
 */
function control(): { url: string; token: string } {
  const file = process.env.DUO_STANDIN_CONTROL_FILE;
  if (!file) throw new Error('DUO_STANDIN_CONTROL_FILE is not set: run this journey with playwright.duo.config.ts');
  return JSON.parse(fs.readFileSync(file, 'utf8')) as { url: string; token: string };
}

async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const { url, token } = control();
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { 'x-standin-control': token, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`stand-in control ${method} ${path}: ${res.status} ${await res.text()}`);
  return (res.status === 204 ? undefined : await res.json()) as T;
}

export interface StandinPush {
  txid: string;
  phone: string;
  state: 'waiting' | 'allow' | 'deny' | 'fraud' | 'timeout';
  /** Verified Duo Push: the phone asks for the number the browser shows. */
  verified: boolean;
  /** What Duo Mobile shows with the push. */
  type: string | null;
  displayUsername: string | null;
  pushinfo: string | null;
}
export interface StandinVerificationPush {
  pushId: string;
  phone: string;
  confirmationCode: string;
  result: string;
}
export interface StandinPhone {
  phoneId: string;
  number: string;
  name: string;
  activated: boolean;
  smsActivationsSent: number;
}

export const pushesOf = (username: string) => call<StandinPush[]>('GET', `/users/${encodeURIComponent(username)}/pushes`);
export const verificationPushesOf = (username: string) =>
  call<StandinVerificationPush[]>('GET', `/users/${encodeURIComponent(username)}/verification-pushes`);
export const phonesOf = (username: string) => call<StandinPhone[]>('GET', `/users/${encodeURIComponent(username)}/phones`);
export const activatePhone = (phoneId: string) => call<void>('POST', `/phones/${encodeURIComponent(phoneId)}/activate`);

/** The ids of the pushes Duo sent to the user so far (to tell the next one apart). */
export const pushIds = async (username: string): Promise<string[]> => (await pushesOf(username)).map((p) => p.txid);

/**
 * Answers the push the portal just sent to the user's phone (`phone`), as the person would on it: waits
 * until exactly one push not in `before` (see {@link pushIds}) waits there, then answers it. A verified
 * push is approved with `code`, the number the person read in the browser. Returns the push.
 */
export async function answerPush(
  username: string,
  phone: string,
  state: 'allow' | 'deny' | 'fraud' | 'timeout',
  before: readonly string[],
  code?: string,
): Promise<StandinPush> {
  let waiting: StandinPush[] = [];
  await expect
    .poll(
      async () => {
        waiting = (await pushesOf(username)).filter((p) => p.phone === phone && p.state === 'waiting' && !before.includes(p.txid));
        return waiting.length;
      },
      { message: `a new push waiting on “${phone}” of ${username}` },
    )
    .toBe(1);
  await call<void>('POST', `/pushes/${encodeURIComponent(waiting[0]!.txid)}`, { state, ...(code === undefined ? {} : { code }) });
  return waiting[0]!;
}

/** The ids of the verification pushes Duo sent to the user so far (to tell the next one apart). */
export const verificationPushIds = async (username: string): Promise<string[]> =>
  (await verificationPushesOf(username)).map((p) => p.pushId);

/**
 * Answers the helpdesk's verification push just sent to the user's phone: waits until exactly one not in
 * `before` (see {@link verificationPushIds}) waits there, then answers it. Returns it (with the
 * confirmation code the phone shows).
 */
export async function answerVerificationPush(
  username: string,
  phone: string,
  result: 'approve' | 'deny' | 'fraud',
  before: readonly string[],
): Promise<StandinVerificationPush> {
  let waiting: StandinVerificationPush[] = [];
  await expect
    .poll(
      async () => {
        waiting = (await verificationPushesOf(username)).filter(
          (p) => p.phone === phone && p.result === 'waiting' && !before.includes(p.pushId),
        );
        return waiting.length;
      },
      { message: `a new verification push waiting on “${phone}” of ${username}` },
    )
    .toBe(1);
  await call<void>('POST', `/verification-pushes/${encodeURIComponent(waiting[0]!.pushId)}`, { result });
  return waiting[0]!;
}
