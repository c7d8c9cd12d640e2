import fs from 'node:fs';
import { isIP } from 'node:net';
import tls from 'node:tls';
import type { SyslogStreamConfig } from '../../config.js';
import { octetCounted } from './syslog-message.js';

/**
 * Sends syslog messages over TLS (RFC 5425): the receiver's certificate must reach a trusted authority
 * (AUDIT_SYSLOG_CA_FILE, else Node's) and name the host the URL names. One connection per batch: the
 * frames are written, the portal closes its side, and the batch counts as delivered once the receiver
 * has read to the end and closed too. Syslog has no acknowledgement of its own, so this is the closest
 * a sender gets to knowing the receiver took every message; anything short of it is a failure and the
 * whole batch is sent again (at least once: the receiver may see some events twice, never a gap).
 */

export type SyslogTransport = (messages: readonly string[], signal: AbortSignal) => Promise<void>;

/** Reads the PEM files once (a missing or bad file stops the start, not the first delivery). */
export function syslogTransport(config: SyslogStreamConfig, opts: { timeoutMs: number }): SyslogTransport {
  const options: tls.ConnectionOptions = {
    host: config.host,
    port: config.port,
    // Server Name Indication takes a host name only; Node checks an address against the certificate's IP names.
    ...(isIP(config.host) ? {} : { servername: config.host }),
    minVersion: 'TLSv1.2',
    rejectUnauthorized: true,
    ...(config.caFile ? { ca: fs.readFileSync(config.caFile) } : {}),
    ...(config.certFile && config.keyFile ? { cert: fs.readFileSync(config.certFile), key: fs.readFileSync(config.keyFile) } : {}),
  };
  // Fails now on a file that holds no certificate or key.
  tls.createSecureContext({ ca: options.ca, cert: options.cert, key: options.key });

  return (messages, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal.aborted) return reject(new Error('stopped'));
      const payload = Buffer.concat(messages.map(octetCounted));
      let written = false;
      let settled = false;
      const socket = tls.connect(options);
      const finish = (err: Error | null) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        socket.destroy();
        if (err) reject(err);
        else resolve();
      };
      const onAbort = () => finish(new Error('stopped'));
      const timer = setTimeout(
        () => finish(new Error(`the receiver did not take the messages within ${opts.timeoutMs} ms`)),
        opts.timeoutMs,
      );
      signal.addEventListener('abort', onAbort, { once: true });
      socket.once('secureConnect', () => {
        socket.end(payload, () => {
          written = true;
        });
      });
      // The receiver sends nothing back; whatever it sends is read and dropped, so that its close is seen.
      socket.on('data', () => undefined);
      socket.once('end', () => {
        finish(written ? null : new Error('the receiver closed the connection before it had every message'));
      });
      socket.once('error', (err) => finish(err));
      socket.once('close', () => finish(new Error('the connection closed before the receiver had every message')));
    });
}
