import http from 'node:http';
import https from 'node:https';

/**
 * The HTTP layer of the Duo client, on node:http/https rather than fetch: it can trust a given CA
 * bundle (pinning Duo's CAs in production, or a test stand-in's self-signed certificate) and keeps
 * connections alive. Injectable, so the client's unit tests need no network.
 */

export interface DuoHttpRequest {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
}

export interface DuoHttpResponse {
  status: number;
  headers: Record<string, string | undefined>;
  body: string;
}

export type DuoTransport = (request: DuoHttpRequest) => Promise<DuoHttpResponse>;

/** Larger answers are refused (no Duo answer the portal reads comes near this). */
export const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

export interface NodeTransportOptions {
  /** PEM CA certificates to trust instead of Node's built-in list. */
  ca?: string;
}

export function nodeTransport(options: NodeTransportOptions = {}): DuoTransport {
  const httpsAgent = new https.Agent({ keepAlive: true, ...(options.ca ? { ca: options.ca } : {}) });
  const httpAgent = new http.Agent({ keepAlive: true });

  // A kept-alive connection that the other end closed while idle fails on its next request before any
  // byte of it was read (ECONNRESET on a reused socket). Such a request never reached Duo, so it is sent
  // once more on a new connection, whatever its method: the pattern Node's documentation gives for
  // `request.reusedSocket`.
  const send = (request: DuoHttpRequest, retryOnStaleSocket: boolean): Promise<DuoHttpResponse> =>
    new Promise<DuoHttpResponse>((resolve, reject) => {
      const isHttps = request.url.protocol === 'https:';
      const req = (isHttps ? https : http).request(
        request.url,
        {
          method: request.method,
          headers: {
            ...request.headers,
            ...(request.body !== undefined ? { 'content-length': String(Buffer.byteLength(request.body)) } : {}),
          },
          agent: isHttps ? httpsAgent : httpAgent,
          signal: request.signal,
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > MAX_RESPONSE_BYTES) {
              res.destroy(new Error('Duo answer too large'));
              return;
            }
            chunks.push(chunk);
          });
          res.on('error', reject);
          res.on('end', () => {
            const headers: Record<string, string | undefined> = {};
            for (const [k, v] of Object.entries(res.headers)) headers[k] = Array.isArray(v) ? v.join(', ') : v;
            resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks).toString('utf8') });
          });
        },
      );
      req.on('error', (err: NodeJS.ErrnoException) => {
        if (retryOnStaleSocket && req.reusedSocket && err.code === 'ECONNRESET' && !request.signal.aborted) {
          resolve(send(request, false));
        } else reject(err);
      });
      if (request.body !== undefined) req.write(request.body);
      req.end();
    });

  return (request) => send(request, true);
}
