import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { envSchema } from './config-env.js';

// docs/configuration.md is the operator's list of every environment variable the server reads. It is
// checked here against the schema that validates them at start-up, so a variable added, renamed or
// removed in the schema fails this test until the page says so too.

const here = path.dirname(fileURLToPath(import.meta.url));
const pagePath = path.resolve(here, '../../../docs/configuration.md');

/** The variable names the schema knows: the keys of the zod object, wherever its parts are declared. */
function schemaNames(): string[] {
  const schema = envSchema as unknown as { shape?: Record<string, unknown>; innerType?: () => { shape: Record<string, unknown> } };
  const shape = schema.shape ?? schema.innerType?.().shape;
  if (!shape) throw new Error('envSchema is not a zod object: teach this test where its keys are');
  return Object.keys(shape).sort();
}

/** Every UPPER_CASE name in the first column of the page's tables (a cell may name several). */
function documentedNames(markdown: string): string[] {
  const names = new Set<string>();
  for (const line of markdown.split('\n')) {
    if (!line.startsWith('|')) continue;
    const firstCell = line.split('|')[1] ?? '';
    if (/^\s*:?-{3,}/.test(firstCell)) continue;
    for (const match of firstCell.matchAll(/`([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[A-Z]{2,})`/g)) names.add(match[1]!);
  }
  return [...names].sort();
}

describe('docs/configuration.md', () => {
  const markdown = fs.readFileSync(pagePath, 'utf8');
  const known = schemaNames();
  const documented = documentedNames(markdown);

  it('reads variable names from the schema and from the page', () => {
    expect(known.length).toBeGreaterThan(50);
    expect(documented.length).toBeGreaterThan(50);
  });

  it('documents every variable the config schema reads', () => {
    expect(known.filter((name) => !documented.includes(name))).toEqual([]);
  });

  it('names no variable the config schema does not know', () => {
    expect(documented.filter((name) => !known.includes(name))).toEqual([]);
  });
});
