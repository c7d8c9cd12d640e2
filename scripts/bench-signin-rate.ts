/**
 * Sign-ins per second (part of `npm run bench`, `--only signins`; alone: `npm run bench:signins`): the
 * whole authorisation-code + PKCE flow of the SPA against the embedded identity provider, over HTTP on
 * loopback: authorize → login page → password → second-factor page → passcode (the TOTP code of the
 * user's authenticator app) → back to the SPA with a code → token exchange. Each sign-in is a different
 * user (a code is accepted once per user and time step, and one person signing in again and again is
 * what the sign-in rate limits stop), `concurrency` at a time.
 *
 * The reference, in the same run and the same process: bare scrypt hashes per second with the portal's
 * own parameters (PASSWORD_HASH_PARAMETERS), at the same concurrency, on the same libuv threadpool the
 * portal's password check uses. Each sign-in makes one such hash, so the ratio is the share of a sign-in
 * that is its hash; the rest is the flow's overhead.
 *
 * The portal runs as it would behind a TLS-terminating proxy (TLS=off, TRUST_PROXY=true); the bench is
 * that proxy and names each user's own client address in X-Forwarded-For, so the per-address limits
 * count each person apart, as they do in production. No limit is raised.
 */
import { createHash, randomBytes, scrypt } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';
import type { DatabaseHandle } from '../apps/server/src/db/database.js';
import { migrateToLatest } from '../apps/server/src/db/migrate.js';
import { ORG_DOMAIN } from '../apps/server/src/demo/org-data.js';
import { seedOrganisation } from '../apps/server/src/demo/org-seed.js';
import { PASSWORD_HASH_PARAMETERS } from '../apps/server/src/idp/password.js';
import type { SecretBox } from '../apps/server/src/lib/secret-box.js';
import { deviceSecretAad } from '../apps/server/src/mfa/builtin/builtin-mapping.js';
import { totpCode } from '../apps/server/src/mfa/common/otp.js';
import { loadMfaKeys } from '../apps/server/src/mfa/mfa-keys.js';
import type { Figure } from './bench-browser.js';
import { BENCH_PASSWORD, benchDatabase, stats } from './bench-lib.js';

export interface SignInRateOptions {
  database: DatabaseHandle;
  dataDir: string;
  /** The password of the organisation's seeded staff (and of any the bench seeds). */
  password: string;
  /** Sign-ins measured (at most 2000); as many distinct users with an authenticator app are seeded. */
  count?: number;
  /** Sign-ins in flight at once (at most 64). */
  concurrency?: number;
  /** Bound of each measured run: whichever comes first, `count` or this. */
  durationMs?: number;
}

interface Person {
  username: string;
  secret: string;
  address: string;
}

/** The libuv threadpool: where node:crypto's scrypt runs, for the portal and for the reference alike. */
export const threadpoolSize = () => Number(process.env.UV_THREADPOOL_SIZE) || 4;

/**
 * Active staff of the seeded organisation with an authenticator app, as many as `wanted`, each with the
 * secret their app holds (opened with the provider's key) and a client address of their own. Seeds more
 * of the organisation while there are too few (about a quarter of its staff have an app).
 */
async function peopleWithApps(database: DatabaseHandle, box: SecretBox, password: string, wanted: number): Promise<Person[]> {
  const find = () =>
    database.db
      .selectFrom('mfa_user as u')
      .innerJoin('mfa_device as d', 'd.user_id', 'u.id')
      .innerJoin('idp_account as a', 'a.username', 'u.username')
      .select(['u.username', 'd.id', 'd.secret_sealed'])
      .where('u.status', '=', 'active')
      .where('u.failed_attempts', '=', 0)
      .where('d.kind', '=', 'authenticator')
      .where('d.secret_sealed', 'is not', null)
      // Not used yet: a code of this step may already have been spent by an earlier run on this database.
      .where('d.last_used_step', 'is', null)
      .where('u.username', 'like', `%@${ORG_DOMAIN}`)
      .orderBy('u.username')
      .execute();
  let rows = await find();
  for (let round = 0; rows.length < wanted && round < 5; round++) {
    await seedOrganisation(database.db, { users: Math.ceil((wanted - rows.length) * 4.5) + 20, events: 0, password, box });
    rows = await find();
  }
  if (rows.length < wanted) throw new Error(`only ${rows.length} staff with an authenticator app; ${wanted} needed`);
  const seen = new Set<string>();
  return rows
    .filter((r) => !seen.has(r.username) && seen.add(r.username))
    .slice(0, wanted)
    .map((r, i) => ({
      username: r.username,
      secret: box.open(r.secret_sealed!, deviceSecretAad(r.id)).toString('utf8'),
      address: `10.${64 + ((i >> 16) & 63)}.${(i >> 8) & 255}.${i & 255}`,
    }));
}

interface Answer {
  status: number;
  location: string | undefined;
  body: string;
}

/** One HTTP request on loopback through `agent`, keeping the cookies the answer sets in `jar`. */
function send(
  agent: http.Agent,
  port: number,
  jar: Map<string, string>,
  method: 'GET' | 'POST',
  url: string,
  headers: Record<string, string>,
  form?: Record<string, string>,
): Promise<Answer> {
  const body = form ? new URLSearchParams(form).toString() : undefined;
  const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        agent,
        method,
        path: url,
        headers: {
          ...headers,
          ...(cookie ? { cookie } : {}),
          ...(body !== undefined ? { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) } : {}),
        },
      },
      (res) => {
        for (const line of res.headers['set-cookie'] ?? []) {
          const pair = line.split(';')[0]!;
          const eq = pair.indexOf('=');
          const [name, value] = [pair.slice(0, eq).trim(), pair.slice(eq + 1).trim()];
          if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) jar.delete(name);
          else jar.set(name, value);
        }
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, location: res.headers.location, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const formAction = (page: string) => /<form[^>]*action="([^"]+)"/i.exec(page)?.[1]?.replace(/&amp;/g, '&');

/** Runs `task` with `concurrency` workers until `count` tasks are done or `durationMs` has passed. */
async function bounded(task: (n: number) => Promise<void>, concurrency: number, count: number, durationMs: number) {
  let next = 0;
  let done = 0;
  let errors = 0;
  let firstError: string | null = null;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count && performance.now() - t0 < durationMs) {
        const n = next++;
        try {
          await task(n);
          done++;
        } catch (err) {
          errors++;
          firstError ??= err instanceof Error ? err.message : String(err);
        }
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  return { perSecond: +(done / seconds).toFixed(1), done, errors, firstError, seconds: +seconds.toFixed(2) };
}

export async function signInRateBench(opts: SignInRateOptions): Promise<Figure[]> {
  const count = Math.min(2000, opts.count ?? 200);
  const concurrency = Math.min(64, opts.concurrency ?? 8);
  const durationMs = Math.min(120_000, opts.durationMs ?? 60_000);
  const warmup = concurrency * 2;
  const config = loadConfig({
    DATA_DIR: opts.dataDir,
    LOG_LEVEL: 'silent',
    DEMO_PASSWORD: opts.password,
    TLS: 'off',
    TRUST_PROXY: 'true',
    NODE_ENV: 'test',
  });
  if (config.idp.mode !== 'embedded') throw new Error('the sign-in figure needs the embedded identity provider');
  const idp = config.idp;
  const people = await peopleWithApps(opts.database, loadMfaKeys(config).box, opts.password, warmup + count);
  const app = await buildApp({ config, database: opts.database, logger: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.server.address() as AddressInfo).port;
  // The proxy in front keeps a few connections open to the portal, as a load balancer does.
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const publicUrl = new URL(config.publicUrl);
  const issuerPath = new URL(idp.issuer).pathname;
  const local = (u: string) => {
    const url = new URL(u, config.publicUrl);
    return { url, path: url.pathname + url.search };
  };

  /** One person's whole sign-in, from the authorize request to the tokens; its duration in ms. */
  const signIn = async (person: Person): Promise<number> => {
    const t0 = performance.now();
    const jar = new Map<string, string>();
    const headers = { host: publicUrl.host, 'x-forwarded-proto': 'https', 'x-forwarded-for': person.address };
    const get = (u: string) => send(agent, port, jar, 'GET', local(u).path, headers);
    const post = (u: string, form: Record<string, string>) => send(agent, port, jar, 'POST', local(u).path, headers, form);
    const verifier = randomBytes(32).toString('base64url');
    const authorize = new URL(`${idp.issuer}/auth`);
    authorize.search = new URLSearchParams({
      client_id: idp.clientId,
      response_type: 'code',
      redirect_uri: config.publicUrl,
      scope: `openid profile offline_access user.read ${idp.scope}`,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      state: randomBytes(8).toString('base64url'),
      nonce: randomBytes(8).toString('base64url'),
    }).toString();

    let res = await get(authorize.href);
    if (!res.location) throw new Error(`authorize answered ${res.status}`);
    res = await get(res.location);
    const login = formAction(res.body);
    if (res.status !== 200 || !login) throw new Error(`login page answered ${res.status}`);
    res = await post(login, { username: person.username, password: opts.password });
    let back: URL | undefined;
    let answered = false;
    for (let hop = 0; hop < 8 && !back; hop++) {
      if (res.status === 200 && !answered && /name="passcode"/.test(res.body)) {
        answered = true;
        // The code the person's app shows now.
        res = await post(formAction(res.body)!, { passcode: totpCode(person.secret, Date.now()) });
        continue;
      }
      if (!res.location || res.status < 300 || res.status >= 400)
        throw new Error(`sign-in stopped at ${res.status}: ${res.body.slice(0, 200)}`);
      const { url } = local(res.location);
      if (`${url.origin}${url.pathname}` === config.publicUrl) back = url;
      else res = await get(res.location);
    }
    const code = back?.searchParams.get('code');
    if (!answered || !code) throw new Error(`no code after the passcode: ${back?.search ?? 'never sent back'}`);
    const token = await send(
      agent,
      port,
      new Map(),
      'POST',
      `${issuerPath}/token`,
      { ...headers, origin: publicUrl.origin },
      {
        grant_type: 'authorization_code',
        code,
        redirect_uri: config.publicUrl,
        client_id: idp.clientId,
        code_verifier: verifier,
      },
    );
    if (token.status !== 200) throw new Error(`token endpoint answered ${token.status}`);
    // Signed in with both factors: the access token says so.
    const claims = JSON.parse(Buffer.from(String(JSON.parse(token.body).access_token).split('.')[1] ?? '', 'base64url').toString('utf8'));
    if (!claims.amr?.includes('mfa')) throw new Error(`the token's amr is ${JSON.stringify(claims.amr)}, not a second factor`);
    return performance.now() - t0;
  };

  // The reference: bare scrypt with the portal's parameters, on the same threadpool, same concurrency.
  const { keyLength, ...cost } = PASSWORD_HASH_PARAMETERS;
  const salt = randomBytes(16);
  const hash = () =>
    new Promise<void>((resolve, reject) => scrypt(opts.password, salt, keyLength, cost, (err) => (err ? reject(err) : resolve())));

  try {
    // Warm both paths (JIT, first connections, the provider's caches) with people not measured.
    await bounded((n) => signIn(people[n]!).then(() => {}), concurrency, warmup, durationMs);
    await bounded(() => hash(), concurrency, warmup, durationMs);
    const measured = people.slice(warmup);
    const latencies: number[] = [];
    // The reference half before and half after the sign-ins, so a change in a neighbour's load falls on both.
    const half = Math.max(concurrency, Math.ceil(count / 2));
    const hashesBefore = await bounded(() => hash(), concurrency, half, durationMs / 2);
    const signIns = await bounded(
      async (n) => {
        latencies.push(await signIn(measured[n]!));
      },
      concurrency,
      count,
      durationMs,
    );
    const hashesAfter = await bounded(() => hash(), concurrency, half, durationMs / 2);
    const hashSeconds = hashesBefore.seconds + hashesAfter.seconds;
    const hashes = {
      perSecond: +((hashesBefore.done + hashesAfter.done) / hashSeconds).toFixed(1),
      done: hashesBefore.done + hashesAfter.done,
      errors: hashesBefore.errors + hashesAfter.errors,
      seconds: +hashSeconds.toFixed(2),
    };
    if (signIns.errors) console.warn(`  ${signIns.errors} sign-ins failed (not counted); the first: ${signIns.firstError}`);
    const latency = latencies.length ? stats(latencies) : null;
    return [
      {
        name: `sign-ins per second, ${concurrency} at a time`,
        figure: signIns.perSecond,
        unit: '/s',
        reference: hashes.perSecond,
        referenceName: `bare scrypt N=${cost.N} r=${cost.r} p=${cost.p}`,
        extra: { ...signIns, latencyMs: latency, reference: hashes, threadpool: threadpoolSize(), distinctUsers: signIns.done },
      },
    ];
  } finally {
    agent.destroy();
    await app.close();
  }
}

// `npm run bench:signins`: on a throw-away database of its own (PGlite, or BENCH_DATABASE_URL).
if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  const { database, drop } = await benchDatabase();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mfa-portal-bench-'));
  try {
    await migrateToLatest(database.db);
    const count = Number(process.env.SIGNINS ?? 200);
    const concurrency = Number(process.env.CONCURRENCY ?? 8);
    console.log(`bench: ${database.kind}, ${os.cpus().length} CPUs, libuv threadpool ${threadpoolSize()}`);
    for (const f of await signInRateBench({ database, dataDir, password: BENCH_PASSWORD, count, concurrency })) {
      console.log(
        `${f.name}: ${f.figure} ${f.unit} | ${f.referenceName} ${f.reference} ${f.unit} | ratio ${(f.figure / f.reference).toFixed(3)}`,
      );
      console.log(JSON.stringify({ benchmark: f.name, ...f.extra }));
    }
  } finally {
    await database.close();
    await drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
