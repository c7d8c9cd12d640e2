import { Writable } from 'node:stream';
import pino from 'pino';
import pretty from 'pino-pretty';
import { describe, expect, it } from 'vitest';
import { loggerOptions, PRETTY_OPTIONS } from './logging.js';

/** Readable lines for a person at a terminal, JSON for everything else; the same redaction in both. */
describe('log format', () => {
  it('prints readable lines at a terminal and JSON lines otherwise, unless told', () => {
    expect(loggerOptions({ logLevel: 'info' }, true)).toMatchObject({ transport: { target: 'pino-pretty' } });
    expect(loggerOptions({ logLevel: 'info' }, false)).not.toHaveProperty('transport');
    expect(loggerOptions({ logLevel: 'info', logFormat: 'json' }, true)).not.toHaveProperty('transport');
    expect(loggerOptions({ logLevel: 'info', logFormat: 'pretty' }, false)).toMatchObject({ transport: { target: 'pino-pretty' } });
  });

  it('hides the same secrets in both formats', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const { transport: _t, ...opts } = loggerOptions({ logLevel: 'info', logFormat: 'pretty' }, false) as Record<string, unknown>;
    const secret = { password: 'eyJ-secret-token', body: { passcode: 'eyJ-secret-token' } };
    pino(opts, pretty({ ...PRETTY_OPTIONS, colorize: false, destination: sink, sync: true })).info(secret, 'a request');
    const { transport: _j, ...json } = loggerOptions({ logLevel: 'info', logFormat: 'json' }, false) as Record<string, unknown>;
    pino(json, sink).info(secret, 'a request');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain('a request');
    expect(lines[0]).not.toMatch(/^\{/);
    expect(JSON.parse(lines[1]!).msg).toBe('a request');
    for (const line of lines) expect(line).not.toContain('eyJ-secret-token');
  });
});
