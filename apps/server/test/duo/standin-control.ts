import { randomBytes, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DuoStandin } from './duo-standin.js';

/**
 * A loopback control endpoint of the Duo stand-in, for the end-to-end journeys on Duo only (test code:
 * started by portal-on-standin.ts when DUO_STANDIN_CONTROL_FILE is set, never by the portal server).
 * What a person does on their phone, the journeys do here: answer a push or a helpdesk verification
 * push, scan the activation QR code; and they read what Duo holds (pushes waiting, phones, text
 * messages sent). Plain HTTP on 127.0.0.1 with a random port, every request carrying the random token
 * the control file gives (header `x-standin-control`); anything else is 404.
 *
 *   GET  /users/:username/pushes                 [{ txid, phone, state, verified, type, displayUsername,
 *                                                  pushinfo, ipaddr }], oldest first: what Duo Mobile
 *                                                  shows (never a verified push's code: the browser shows it)
 *   POST /pushes/:txid                           { state: allow | deny | fraud | timeout, code? }: a
 *                                                  verified push approves only with the browser's code
 *   GET  /users/:username/verification-pushes    [{ pushId, phone, confirmationCode, result }], oldest first
 *   POST /verification-pushes/:pushId            { result: approve | deny | fraud }
 *   GET  /users/:username/phones                 [{ phoneId, number, name, activated, smsActivationsSent }]
 *   POST /phones/:phoneId/activate               (the QR code was scanned in Duo Mobile)
 *   POST /clock/advance                          { seconds }: as if that long had passed for pushes
 */
export interface StandinControl {
  url: string;
  token: string;
  close(): Promise<void>;
}

const PUSH_STATES = ['allow', 'deny', 'fraud', 'timeout'] as const;
const VERIFICATION_RESULTS = ['approve', 'deny', 'fraud'] as const;

export async function startStandinControl(standin: DuoStandin): Promise<StandinControl> {
  const token = randomBytes(24).toString('hex');
  const expected = Buffer.from(token);

  const handle = (method: string, path: string, body: Record<string, unknown>): { status: number; body: unknown } => {
    const phoneName = (phoneId: string) => standin.phones.get(phoneId)?.name ?? '';
    const userId = (username: string) => {
      try {
        return standin.user(decodeURIComponent(username)).user_id;
      } catch {
        return null;
      }
    };
    let m: RegExpMatchArray | null;
    if (method === 'GET' && (m = /^\/users\/([^/]+)\/pushes$/.exec(path))) {
      const id = userId(m[1]!);
      if (!id) return { status: 404, body: { error: 'no such user' } };
      const pushes = [...standin.pushes.values()].filter((p) => p.user_id === id);
      return {
        status: 200,
        body: pushes.map((p) => ({
          txid: p.txid,
          phone: phoneName(p.phone_id),
          state: p.state,
          verified: p.verificationCode !== null,
          type: p.type,
          displayUsername: p.displayUsername,
          pushinfo: p.pushinfo,
          ipaddr: p.ipaddr,
        })),
      };
    }
    if (method === 'POST' && (m = /^\/pushes\/([^/]+)$/.exec(path))) {
      const state = body.state as (typeof PUSH_STATES)[number];
      if (!PUSH_STATES.includes(state)) return { status: 400, body: { error: 'state must be allow, deny, fraud or timeout' } };
      if (!standin.pushes.has(m[1]!)) return { status: 404, body: { error: 'no such push' } };
      if (body.code !== undefined && typeof body.code !== 'string') return { status: 400, body: { error: 'code must be a string' } };
      standin.answerPush(m[1]!, state, body.code as string | undefined);
      return { status: 204, body: null };
    }
    if (method === 'GET' && (m = /^\/users\/([^/]+)\/verification-pushes$/.exec(path))) {
      const id = userId(m[1]!);
      if (!id) return { status: 404, body: { error: 'no such user' } };
      const pushes = [...standin.verificationPushes.values()].filter((p) => p.user_id === id);
      return {
        status: 200,
        body: pushes.map((p) => ({
          pushId: p.push_id,
          phone: phoneName(p.phone_id),
          confirmationCode: p.confirmation_code,
          result: p.result,
        })),
      };
    }
    if (method === 'POST' && (m = /^\/verification-pushes\/([^/]+)$/.exec(path))) {
      const result = body.result as (typeof VERIFICATION_RESULTS)[number];
      if (!VERIFICATION_RESULTS.includes(result)) return { status: 400, body: { error: 'result must be approve, deny or fraud' } };
      if (!standin.verificationPushes.has(m[1]!)) return { status: 404, body: { error: 'no such verification push' } };
      standin.answerVerificationPush(m[1]!, result);
      return { status: 204, body: null };
    }
    if (method === 'GET' && (m = /^\/users\/([^/]+)\/phones$/.exec(path))) {
      const id = userId(m[1]!);
      if (!id) return { status: 404, body: { error: 'no such user' } };
      const phones = [...standin.phones.values()].filter((p) => p.userIds.includes(id));
      return {
        status: 200,
        body: phones.map((p) => ({
          phoneId: p.phone_id,
          number: p.number,
          name: p.name,
          activated: p.activated,
          smsActivationsSent: p.smsActivationsSent,
        })),
      };
    }
    if (method === 'POST' && (m = /^\/phones\/([^/]+)\/activate$/.exec(path))) {
      if (!standin.phones.has(m[1]!)) return { status: 404, body: { error: 'no such phone' } };
      standin.activatePhone(m[1]!);
      return { status: 204, body: null };
    }
    if (method === 'POST' && path === '/clock/advance') {
      const seconds = body.seconds;
      if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0)
        return { status: 400, body: { error: 'seconds must be a number ≥ 0' } };
      standin.advanceClock(seconds * 1000);
      return { status: 204, body: null };
    }
    return { status: 404, body: { error: 'not found' } };
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, body === null ? {} : { 'content-type': 'application/json' });
        res.end(body === null ? undefined : JSON.stringify(body));
      };
      const given = Buffer.from(String(req.headers['x-standin-control'] ?? ''));
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return send(404, { error: 'not found' });
      let body: Record<string, unknown> = {};
      try {
        const raw = Buffer.concat(chunks).toString('utf8');
        if (raw) body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        return send(400, { error: 'body must be JSON' });
      }
      const path = new URL(req.url ?? '/', 'http://control').pathname;
      const answer = handle((req.method ?? 'GET').toUpperCase(), path, body && typeof body === 'object' ? body : {});
      send(answer.status, answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
