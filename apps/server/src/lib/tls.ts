import fs from 'node:fs';
import path from 'node:path';

/** What the certificate depends on (the configuration's `tls`, `dataDir` and `publicUrl`). */
export interface TlsSettings {
  tls: { mode: 'self-signed' | 'files' | 'off'; certFile?: string; keyFile?: string };
  dataDir: string;
  publicUrl: string;
}

export interface TlsMaterial {
  key: string;
  cert: string;
}

/**
 * TLS for the listening socket: a self-signed certificate generated once into DATA_DIR/tls (local use),
 * the given files (production without a terminating proxy), or none (TLS=off behind a proxy).
 */
export async function loadTls(config: TlsSettings): Promise<TlsMaterial | null> {
  if (config.tls.mode === 'off') return null;
  if (config.tls.mode === 'files') {
    return { key: fs.readFileSync(config.tls.keyFile!, 'utf8'), cert: fs.readFileSync(config.tls.certFile!, 'utf8') };
  }
  const dir = path.join(config.dataDir, 'tls');
  const keyFile = path.join(dir, 'localhost-key.pem');
  const certFile = path.join(dir, 'localhost-cert.pem');
  if (fs.existsSync(keyFile) && fs.existsSync(certFile)) {
    return { key: fs.readFileSync(keyFile, 'utf8'), cert: fs.readFileSync(certFile, 'utf8') };
  }
  const host = new URL(config.publicUrl).hostname;
  // Loaded only when a certificate is made (the first start): its X.509 stack costs every start otherwise.
  const { generate } = await import('selfsigned');
  const pems = await generate([{ name: 'commonName', value: host }], {
    keySize: 2048,
    days: 825,
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: host },
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
        ],
      },
    ],
  } as Parameters<typeof generate>[1]);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.writeFileSync(keyFile, pems.private, { mode: 0o600 });
  fs.writeFileSync(certFile, pems.cert);
  return { key: pems.private, cert: pems.cert };
}
