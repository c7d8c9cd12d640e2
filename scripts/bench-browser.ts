/**
 * The figures of `npm run bench` that need the whole server process: cold and warm start (and the
 * resident memory after start), and Lighthouse's mobile scores of the overview screen in Debian's
 * Chromium (CHROME_PATH, default /usr/bin/chromium). The portal runs as `npm run serve` would run it,
 * on BENCH_PORT (default 9443), with its own throw-away data directory.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

export interface Figure {
  name: string;
  figure: number;
  unit: string;
  reference: number;
  referenceName: string;
  extra?: Record<string, unknown>;
}

const ROOT = path.join(import.meta.dirname, '..');
// What `npm start` runs: the compiled server (`npm run build`).
const SERVER = path.join(ROOT, 'apps/server/dist/server.js');
const PORT = Number(process.env.BENCH_PORT ?? 9443);
const PASSWORD = 'portal-demo-bench';

function statusOf(url: string): Promise<number> {
  return new Promise((resolve) => {
    const req = https.get(url, { rejectUnauthorized: false, timeout: 2000 }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
  });
}

const rssMiB = (pid: number) => {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return +(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024).toFixed(1);
};

/** Starts the portal and resolves once it answers, with the time it took. */
async function startPortal(dataDir: string): Promise<{ child: ChildProcess; ms: number }> {
  const t0 = performance.now();
  const child = spawn(process.execPath, ['--enable-source-maps', SERVER], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(PORT), DATA_DIR: dataDir, LOG_LEVEL: 'warn', DEMO_PASSWORD: PASSWORD, DATABASE_URL: '' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the portal exited with ${child.exitCode}`);
    if ((await statusOf(`https://localhost:${PORT}/settings/APIInfo`)) === 200) return { child, ms: performance.now() - t0 };
    if (performance.now() - t0 > 120_000) throw new Error('the portal did not start in 2 minutes');
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/** Cold start (no data directory), warm start (the same one again), and memory after each. */
export async function startTimes(): Promise<Figure[]> {
  if (!fs.existsSync(SERVER)) {
    console.log('start: skipped, the server is not built (npm run build)');
    return [];
  }
  const t0 = performance.now();
  const bare = spawn(process.execPath, ['-e', '0'], { cwd: ROOT, stdio: 'ignore' });
  await new Promise((r) => bare.once('exit', r));
  const bareMs = +(performance.now() - t0).toFixed(0);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mfa-portal-bench-start-'));
  try {
    const cold = await startPortal(dataDir);
    await new Promise((r) => setTimeout(r, 1000));
    const coldRss = rssMiB(cold.child.pid!);
    await stop(cold.child);
    const warm = await startPortal(dataDir);
    await new Promise((r) => setTimeout(r, 1000));
    const warmRss = rssMiB(warm.child.pid!);
    await stop(warm.child);
    return [
      {
        name: 'cold start (new data directory)',
        figure: +cold.ms.toFixed(0),
        unit: 'ms',
        reference: bareMs,
        referenceName: 'node -e 0',
      },
      {
        name: 'warm start (data directory exists)',
        figure: +warm.ms.toFixed(0),
        unit: 'ms',
        reference: bareMs,
        referenceName: 'node -e 0',
      },
      { name: 'resident memory after cold start', figure: coldRss, unit: 'MiB', reference: 300, referenceName: 'target' },
      { name: 'resident memory after warm start', figure: warmRss, unit: 'MiB', reference: 300, referenceName: 'target' },
    ];
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Lighthouse (mobile) of the overview screen, signed in as alice@, against its own target of 90. */
export async function lighthouseScores(): Promise<Figure[]> {
  if (!fs.existsSync(path.join(ROOT, 'apps/web/dist/index.html'))) {
    console.log('lighthouse: skipped, the web application is not built (npm run build)');
    return [];
  }
  const { default: lighthouse } = await import('lighthouse');
  const chromeLauncher = await import('chrome-launcher');
  const puppeteer = await import('puppeteer-core');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mfa-portal-bench-lh-'));
  const portal = await startPortal(dataDir);
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    chromeFlags: ['--headless=new', '--no-sandbox', '--ignore-certificate-errors', '--disable-gpu'],
  });
  try {
    const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
    const page = await browser.newPage();
    const base = `https://localhost:${PORT}/`;
    // Sign in once (alice@ has no device: password only), so the audited page is the overview itself.
    await page.goto(base, { waitUntil: 'networkidle0' });
    await page.waitForSelector('input[name="username"], #username', { timeout: 30_000 });
    await page.type('input[name="username"], #username', 'alice@example.com');
    await page.type('input[name="password"], #password', PASSWORD);
    await Promise.all([page.waitForNavigation({ waitUntil: 'networkidle0' }), page.keyboard.press('Enter')]);
    await page.waitForSelector('main', { timeout: 30_000 });
    const result = await lighthouse(
      base,
      {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility', 'best-practices'],
        disableStorageReset: true,
        formFactor: 'mobile',
      },
      undefined,
      page,
    );
    const lhr = result!.lhr;
    const score = (c: string) => Math.round((lhr.categories[c]?.score ?? 0) * 100);
    const lcp = lhr.audits['largest-contentful-paint']?.numericValue ?? 0;
    const getuserinfoAt = (lhr.audits['network-requests']?.details as { items?: { url: string; startTime: number }[] } | undefined)?.items;
    await browser.disconnect();
    return [
      {
        name: 'Lighthouse mobile performance (overview)',
        figure: score('performance'),
        unit: 'score',
        reference: 90,
        referenceName: 'target',
        extra: { lcpMs: Math.round(lcp), requests: getuserinfoAt?.length ?? null },
      },
      { name: 'Lighthouse accessibility (overview)', figure: score('accessibility'), unit: 'score', reference: 100, referenceName: 'best' },
      {
        name: 'Lighthouse best practices (overview)',
        figure: score('best-practices'),
        unit: 'score',
        reference: 100,
        referenceName: 'best',
      },
    ];
  } finally {
    await chrome.kill();
    await stop(portal.child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
