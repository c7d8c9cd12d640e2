import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { precompressDir } from './precompress';

describe('precompress (build step)', () => {
  it('writes a brotli and a gzip copy of each compressible file, and leaves small and binary files alone', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mfa-portal-precompress-'));
    try {
      fs.mkdirSync(path.join(dir, 'static/js'), { recursive: true });
      const js = 'export const x = "portal";\n'.repeat(200);
      fs.writeFileSync(path.join(dir, 'static/js/app-123.js'), js);
      fs.writeFileSync(path.join(dir, 'tiny.css'), 'a{}');
      fs.writeFileSync(path.join(dir, 'static/logo.png'), Buffer.alloc(4096));
      precompressDir(dir);
      expect(brotliDecompressSync(fs.readFileSync(path.join(dir, 'static/js/app-123.js.br'))).toString()).toBe(js);
      expect(gunzipSync(fs.readFileSync(path.join(dir, 'static/js/app-123.js.gz'))).toString()).toBe(js);
      expect(fs.existsSync(path.join(dir, 'tiny.css.br'))).toBe(false);
      expect(fs.existsSync(path.join(dir, 'static/logo.png.br'))).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
