/**
 * Sign-in round trip benchmark: authorization-code + PKCE flow against the embedded provider
 * (authorize → login page → password → code → token) followed by the first API answer
 * (GET /account/getuserinfo), in-process through the server's request pipeline. Browser rendering
 * and TLS are not included. `npm run bench:signin` (ROUNDS=50 by default).
 */
import { performance } from 'node:perf_hooks';
import { signIn } from '../apps/server/test/oidc-flow.js';
import { BENCH_PASSWORD, benchApp, stats } from './bench-lib.js';

const rounds = Number(process.env.ROUNDS ?? 50);
const b = await benchApp();
const samples: number[] = [];
try {
  for (let i = 0; i < rounds + 3; i++) {
    const t0 = performance.now();
    const tokens = await signIn(b.app, b.config, 'bob@example.com', BENCH_PASSWORD);
    const res = await b.app.inject({ url: '/account/getuserinfo?userid=bob@example.com', headers: { authorization: `Bearer ${tokens.access_token}` } });
    if (res.statusCode !== 200) throw new Error(`getuserinfo answered ${res.statusCode}`);
    if (i >= 3) samples.push(performance.now() - t0); // the first rounds warm up caches and the JIT
  }
} finally {
  await b.close();
}
const s = stats(samples);
console.log(`sign-in round trip (ms): mean ${s.mean}, p50 ${s.p50}, p95 ${s.p95}, max ${s.max} over ${s.n} rounds`);
console.log(JSON.stringify({ benchmark: 'signin-roundtrip-ms', ...s }));
