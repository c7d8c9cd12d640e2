/**
 * Build-time only (imported by vite.config.ts, never by the application): writes a brotli (`.br`)
 * and a gzip (`.gz`) copy next to every compressible file of the build, at the highest levels (it
 * runs once per build, not per request). The server sends them with `Content-Encoding` and
 * `Vary: Accept-Encoding` (@fastify/static `preCompressed`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

const COMPRESSIBLE = /\.(js|mjs|css|html|json|svg|txt|map|webmanifest|xml)$/i;
/** Below this, the headers cost more than compression saves. */
const MIN_BYTES = 512;

export function precompressFile(file: string): void {
  const data = fs.readFileSync(file);
  if (data.length < MIN_BYTES) return;
  const br = brotliCompressSync(data, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    },
  });
  const gz = gzipSync(data, { level: 9 });
  if (br.length < data.length) fs.writeFileSync(`${file}.br`, br);
  if (gz.length < data.length) fs.writeFileSync(`${file}.gz`, gz);
}

/** Every compressible file under `dir`, recursively. */
export function precompressDir(dir: string): number {
  let n = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) n += precompressDir(full);
    else if (COMPRESSIBLE.test(entry.name)) {
      precompressFile(full);
      n++;
    }
  }
  return n;
}

export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'mfa-portal:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      precompressDir(outDir);
    },
  };
}
