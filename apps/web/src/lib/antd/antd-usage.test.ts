import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ANTD_STYLED_COMPONENTS } from './theme';

const src = path.resolve(import.meta.dirname, '../..');
/** antd exports that render nothing of their own (no styles needed in the static stylesheet). */
const UNSTYLED = new Set(['ConfigProvider', 'theme']);

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sources(full);
    return /\.(ts|tsx)$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [full] : [];
  });
}

describe('Ant Design usage', () => {
  it('every antd component the application imports has its styles in the static stylesheet', () => {
    const imported = new Set<string>();
    for (const file of sources(src)) {
      for (const m of fs.readFileSync(file, 'utf8').matchAll(/import\s+(?!type)\{([^}]+)\}\s+from\s+'antd'/g)) {
        for (const name of m[1]!.split(',').map((s) =>
          s
            .trim()
            .split(/\s+as\s+/)[0]!
            .replace(/^type\s+/, ''),
        ))
          if (name) imported.add(name);
      }
    }
    expect(imported.size).toBeGreaterThan(5);
    const missing = [...imported].filter((name) => !UNSTYLED.has(name) && !(ANTD_STYLED_COMPONENTS as readonly string[]).includes(name));
    expect(missing).toEqual([]);
  });

  it('stays out of the shell (antd loads only with the lazily loaded main application)', () => {
    const offenders = sources(path.join(src, 'shell')).filter((f) =>
      /from '(antd|@ant-design\/[^']+|@tanstack\/[^']+)'/.test(fs.readFileSync(f, 'utf8')),
    );
    expect(offenders).toEqual([]);
    expect(fs.readFileSync(path.join(src, 'main.tsx'), 'utf8')).not.toMatch(/antd|features\//);
  });
});
