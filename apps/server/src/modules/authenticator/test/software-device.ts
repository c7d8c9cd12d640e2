import { webcrypto } from 'node:crypto';
import {
  answerSigningInput,
  deviceAuthHeader,
  deviceAuthSigningInput,
  type DevicePublicKey,
  type PushAnswer,
  type PushAnswerBody,
} from '@mfa-portal/shared';

/**
 * A phone running the portal's authenticator app, in software (tests only): a non-extractable P-256
 * key made with WebCrypto as the app makes it, signing requests and answers the way the app does.
 */
export interface SoftwareDevice {
  publicKey: DevicePublicKey;
  deviceId: string;
  sign(input: string): Promise<string>;
  /** The Authorization header of a request to `path` (as requested, without the query). */
  authorization(method: string, path: string, ts?: number): Promise<string>;
  answer(requestId: string, decision: PushAnswer['decision'], number: string | null, time?: Date): Promise<PushAnswerBody>;
}

export async function softwareDevice(): Promise<SoftwareDevice> {
  const keys = await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']);
  const jwk = await webcrypto.subtle.exportKey('jwk', keys.publicKey);
  const sign = async (input: string) =>
    Buffer.from(await webcrypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, keys.privateKey, Buffer.from(input, 'utf8'))).toString(
      'base64url',
    );
  const device: SoftwareDevice = {
    publicKey: { kty: 'EC', crv: 'P-256', x: jwk.x!, y: jwk.y! },
    deviceId: '',
    sign,
    async authorization(method, path, ts = Date.now()) {
      return deviceAuthHeader(device.deviceId, ts, await sign(deviceAuthSigningInput(method, path, ts)));
    },
    async answer(requestId, decision, number, time = new Date()) {
      const answer: PushAnswer = { requestId, number, decision, time: time.toISOString() };
      return { answer, signature: await sign(answerSigningInput(answer)) };
    },
  };
  return device;
}

/** An SSE stream read with fetch, as the app and the web read it: events as they come. */
export async function readEvents(url: string, headers: Record<string, string>) {
  const controller = new AbortController();
  const res = await fetch(url, { headers, signal: controller.signal });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const events: Array<{ event: string; data: unknown }> = [];
  let ended = false;
  const pump = (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let at: number;
        while ((at = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, at);
          buffer = buffer.slice(at + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event) events.push({ event, data: data ? JSON.parse(data) : null });
        }
      }
    } catch {
      // aborted
    }
    ended = true;
  })();
  return {
    status: res.status,
    headers: res.headers,
    events,
    get ended() {
      return ended;
    },
    /** Resolves once `count` events arrived (or rejects after `timeoutMs`). */
    async waitFor(count: number, timeoutMs = 5000) {
      const until = Date.now() + timeoutMs;
      while (events.length < count) {
        if (Date.now() > until) throw new Error(`only ${events.length} events: ${JSON.stringify(events)}`);
        await new Promise((r) => setTimeout(r, 10));
      }
      return events;
    },
    async close() {
      controller.abort();
      await pump;
    },
  };
}
