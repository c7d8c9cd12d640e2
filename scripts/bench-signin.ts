/**
 * Sign-in round trip benchmark: authorization-code + PKCE flow against the embedded provider
 * (authorize → login page → password → code → token) followed by the first API answer
 * (GET /account/getuserinfo), in-process through the server's request pipeline. Browser rendering
 * and TLS are not included. `npm run bench:signin` (ROUNDS=50 by default).
 */
import { performance } from 'node:perf_hooks';
import { signIn } from '../apps/server/test/oidc-flow.js';
import { seedOrganisation } from '../apps/server/src/demo/org-seed.js';
import { loadMfaKeys } from '../apps/server/src/mfa/mfa-keys.js';
import { BENCH_PASSWORD, benchApp, stats } from './bench-lib.js';

const rounds = Number(process.env.ROUNDS ?? 50);
const b = await benchApp();
const samples: number[] = [];
// Many staff signing in from their own addresses, as in an organisation: one person signing in fifty
// times a minute from one address is exactly what the portal's sign-in rate limits are there to stop.
await seedOrganisation(b.database.db, { users: rounds + 10, events: 0, password: BENCH_PASSWORD, box: loadMfaKeys(b.config).box });
const staff = (
  await b.database.db
    .selectFrom('mfa_user')
    .select('username')
    .where('status', '=', 'active')
    .where('username', 'like', '%@org.example')
    .execute()
).map((u) => u.username);
try {
  for (let i = 0; i < rounds + 3; i++) {
    const t0 = performance.now();
    const upn = staff[i % staff.length]!;
    const tokens = await signIn(b.app, b.config, upn, BENCH_PASSWORD, { remoteAddress: `10.20.${(i >> 8) & 255}.${(i & 255) + 1}` });
    const res = await b.app.inject({
      url: `/account/getuserinfo?userid=${encodeURIComponent(upn)}`,
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    if (res.statusCode !== 200) throw new Error(`getuserinfo answered ${res.statusCode}`);
    if (i >= 3) samples.push(performance.now() - t0); // the first rounds warm up caches and the JIT
  }
} finally {
  await b.close();
}
const s = stats(samples);
console.log(`sign-in round trip (ms): mean ${s.mean}, p50 ${s.p50}, p95 ${s.p95}, max ${s.max} over ${s.n} rounds, ${staff.length} staff`);
console.log(JSON.stringify({ benchmark: 'signin-roundtrip-ms', ...s }));
