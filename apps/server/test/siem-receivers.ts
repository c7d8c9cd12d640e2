import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { generate } from 'selfsigned';

/**
 * Receivers of the audit stream for the tests (not a test file): a real rsyslog with its TLS stream
 * driver (Debian's `rsyslog` and `rsyslog-gnutls`), started with a configuration of its own, and a
 * webhook receiver (a node HTTPS server) that checks the signature as the operations guide tells a
 * receiver to.
 */

export interface Certificate {
  key: string;
  cert: string;
}

/** A self-signed certificate (its own authority) for `localhost` only: no IP address in it, so that the name check shows. */
export async function localhostCertificate(): Promise<Certificate> {
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keySize: 2048,
    days: 2,
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, keyCertSign: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }] },
    ],
  } as Parameters<typeof generate>[1]);
  return { key: pems.private, cert: pems.cert };
}

/** Where rsyslogd is, and whether its GnuTLS stream driver is installed; null with the reason when not. */
export function findRsyslogd(): { path: string; reason: null } | { path: null; reason: string } {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter), '/usr/sbin', '/sbin'];
  const found = dirs.map((d) => path.join(d, 'rsyslogd')).find((p) => fs.existsSync(p));
  if (!found) return { path: null, reason: 'rsyslogd is not installed (apt-get install rsyslog rsyslog-gnutls)' };
  const modules = ['/usr/lib/x86_64-linux-gnu/rsyslog', '/usr/lib/aarch64-linux-gnu/rsyslog', '/usr/lib/rsyslog', '/usr/lib64/rsyslog'];
  if (!modules.some((d) => fs.existsSync(path.join(d, 'lmnsd_gtls.so'))))
    return { path: null, reason: "rsyslog's TLS driver is not installed (apt-get install rsyslog-gnutls)" };
  return { path: found, reason: null };
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function waitUntilListening(port: number, child: ChildProcess, log: () => string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error(`rsyslogd exited (${child.exitCode}): ${log()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`rsyslogd does not listen on ${port}: ${log()}`);
}

/** One message as rsyslog parsed it (RFC 5424 fields), written by the test's template as a JSON line. */
export interface ReceivedSyslog {
  pri: string;
  version: string;
  timestamp: string;
  hostname: string;
  app: string;
  procid: string;
  msgid: string;
  sd: string;
  msg: string;
}

export interface Rsyslog {
  port: number;
  /** Every message received so far, in the order rsyslog wrote them. */
  received(): ReceivedSyslog[];
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * rsyslogd in the foreground (`-n`), with its own configuration and pid file, listening on a loopback
 * port with imtcp and the GnuTLS driver (mode 1: TLS only; anonymous: no client certificate asked),
 * octet-counted framing accepted, every message written to a file as rsyslog parsed it.
 */
export async function startRsyslog(bin: string, dir: string, certificate: Certificate): Promise<Rsyslog> {
  const port = await freePort();
  fs.mkdirSync(dir, { recursive: true });
  const file = (name: string) => path.join(dir, name);
  fs.writeFileSync(file('cert.pem'), certificate.cert);
  fs.writeFileSync(file('key.pem'), certificate.key, { mode: 0o600 });
  fs.writeFileSync(
    file('rsyslog.conf'),
    `global(
  workDirectory="${dir}"
  maxMessageSize="64k"
  defaultNetstreamDriver="gtls"
  defaultNetstreamDriverCAFile="${file('cert.pem')}"
  defaultNetstreamDriverCertFile="${file('cert.pem')}"
  defaultNetstreamDriverKeyFile="${file('key.pem')}"
)
module(load="imtcp" streamDriver.name="gtls" streamDriver.mode="1" streamDriver.authMode="anon")
input(type="imtcp" address="127.0.0.1" port="${port}" supportOctetCountedFraming="on")
template(name="fields" type="list" option.jsonf="on") {
  property(outname="pri" name="pri" format="jsonf")
  property(outname="version" name="protocol-version" format="jsonf")
  property(outname="timestamp" name="timereported" dateFormat="rfc3339" format="jsonf")
  property(outname="hostname" name="hostname" format="jsonf")
  property(outname="app" name="app-name" format="jsonf")
  property(outname="procid" name="procid" format="jsonf")
  property(outname="msgid" name="msgid" format="jsonf")
  property(outname="sd" name="structured-data" format="jsonf")
  property(outname="msg" name="msg" format="jsonf")
}
action(type="omfile" file="${file('received.jsonl')}" template="fields")
`,
  );
  let child: ChildProcess | null = null;
  let output = '';
  const rsyslog: Rsyslog = {
    port,
    received() {
      if (!fs.existsSync(file('received.jsonl'))) return [];
      return fs
        .readFileSync(file('received.jsonl'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as ReceivedSyslog);
    },
    async start() {
      output = '';
      const proc = spawn(bin, ['-n', '-f', file('rsyslog.conf'), '-i', file('rsyslogd.pid')], { stdio: ['ignore', 'pipe', 'pipe'] });
      proc.stdout.on('data', (d: Buffer) => (output += d.toString()));
      proc.stderr.on('data', (d: Buffer) => (output += d.toString()));
      child = proc;
      await waitUntilListening(port, proc, () => output);
    },
    async stop() {
      const proc = child;
      child = null;
      if (!proc || proc.exitCode !== null) return;
      await new Promise<void>((resolve) => {
        proc.once('exit', () => resolve());
        proc.kill('SIGTERM');
      });
    },
  };
  await rsyslog.start();
  return rsyslog;
}

export interface WebhookReceiver {
  url: string;
  /** The bodies accepted (signature valid), in the order they came. */
  accepted: { id: string; body: Record<string, unknown> }[];
  /** How many requests were refused, by reason. */
  refused: { badSignature: number; failing: number };
  /** Answer 500 to every request while set (a receiver in trouble). */
  failing: boolean;
  close(): Promise<void>;
}

/** An HTTPS webhook receiver that checks `X-Audit-Signature` against `secret` as the operations guide says. */
export async function startWebhookReceiver(certificate: Certificate, secret: string): Promise<WebhookReceiver> {
  const receiver: WebhookReceiver = {
    url: '',
    accepted: [],
    refused: { badSignature: 0, failing: 0 },
    failing: false,
    close: async () => {},
  };
  const server = https.createServer({ key: certificate.key, cert: certificate.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const timestamp = String(req.headers['x-audit-timestamp'] ?? '');
      const given = Buffer.from(String(req.headers['x-audit-signature'] ?? ''));
      const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`);
      const fresh = Math.abs(Date.now() / 1000 - Number(timestamp)) <= 300;
      if (!fresh || given.length !== expected.length || !timingSafeEqual(given, expected)) {
        receiver.refused.badSignature++;
        res.writeHead(401).end();
        return;
      }
      if (receiver.failing) {
        receiver.refused.failing++;
        res.writeHead(500).end();
        return;
      }
      receiver.accepted.push({ id: String(req.headers['x-audit-event-id']), body: JSON.parse(body) as Record<string, unknown> });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `https://localhost:${(server.address() as AddressInfo).port}/audit`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}
