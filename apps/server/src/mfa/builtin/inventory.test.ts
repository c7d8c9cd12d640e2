import { describe, expect, it } from 'vitest';
import { IMPORT_MAX_ROWS, parseTokenCsv } from './inventory.js';

const seed = (n: number) => Buffer.alloc(20, n).toString('hex');

describe('parseTokenCsv', () => {
  it('reads rows after the header, with their line numbers', () => {
    const { rows, refused } = parseTokenCsv(`\uFEFFSerial, Seed\r\nD100-1,${seed(1)}\r\n\r\n"D100-2","${seed(2)}"\r\n`);
    expect(refused).toEqual([]);
    expect(rows).toEqual([
      { line: 2, serial: 'D100-1', seed: seed(1) },
      { line: 4, serial: 'D100-2', seed: seed(2) },
    ]);
  });

  it('refuses each bad row with its reason, keeping the good ones', () => {
    const { rows, refused } = parseTokenCsv(
      [
        'serial,seed',
        `D100-1,${seed(1)}`,
        'D100-2,xyz',
        `bad serial,${seed(3)}`,
        `d100-1,${seed(4)}`,
        `D100-5,${seed(5)},extra`,
        'D100-6,abcd',
      ].join('\n'),
    );
    expect(rows.map((r) => r.serial)).toEqual(['D100-1']);
    expect(refused).toEqual([
      { line: 3, serial: 'D100-2', reason: 'seed_invalid' },
      { line: 4, serial: 'bad serial', reason: 'serial_invalid' },
      { line: 5, serial: 'd100-1', reason: 'duplicate_in_file' },
      { line: 6, serial: 'D100-5', reason: 'column_count' },
      { line: 7, serial: 'D100-6', reason: 'seed_invalid' },
    ]);
  });

  it('refuses a file without the header row', () => {
    expect(parseTokenCsv(`D100-1,${seed(1)}`).refused).toEqual([{ line: 1, serial: null, reason: 'header_missing' }]);
    expect(parseTokenCsv('').refused).toEqual([{ line: 1, serial: null, reason: 'header_missing' }]);
  });

  it(`imports at most ${IMPORT_MAX_ROWS} rows`, () => {
    const lines = ['serial,seed', ...Array.from({ length: IMPORT_MAX_ROWS + 1 }, (_, i) => `T-${i},${seed(1)}`)];
    const { rows, refused } = parseTokenCsv(lines.join('\n'));
    expect(rows).toHaveLength(IMPORT_MAX_ROWS);
    expect(refused).toEqual([{ line: IMPORT_MAX_ROWS + 2, serial: `T-${IMPORT_MAX_ROWS}`, reason: 'too_many_rows' }]);
  });
});
