import { describe, expect, it } from 'vitest';
import { writeDbf } from './dbf.js';

/** Reads our .dbf back by the dBASE III layout (independent of the writer's code). */
function readDbf(bytes: Uint8Array): {
  fields: { name: string; type: string; size: number; decimals: number }[];
  rows: string[][];
} {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = view.getUint32(4, true);
  const headerLength = view.getUint16(8, true);
  const recordLength = view.getUint16(10, true);
  const fields = [];
  for (let at = 32; bytes[at] !== 0x0d; at += 32) {
    const raw = bytes.subarray(at, at + 11);
    const name = new TextDecoder().decode(raw.subarray(0, raw.indexOf(0) < 0 ? 11 : raw.indexOf(0)));
    fields.push({ name, type: String.fromCharCode(bytes[at + 11]), size: bytes[at + 16], decimals: bytes[at + 17] });
  }
  const rows: string[][] = [];
  for (let r = 0; r < count; r++) {
    let at = headerLength + r * recordLength + 1;
    const row: string[] = [];
    for (const f of fields) {
      row.push(new TextDecoder().decode(bytes.subarray(at, at + f.size)).trim());
      at += f.size;
    }
    rows.push(row);
  }
  expect(bytes[headerLength + count * recordLength]).toBe(0x1a);
  return { fields, rows };
}

describe('writeDbf', () => {
  it('writes text as UTF-8, numbers with the decimals they need, booleans as T/F', () => {
    const { fields, rows } = readDbf(
      writeDbf([
        { type: 'Track', sequence: 0, width_m: 6, ok: true, Grower: 'Jörg' },
        { type: 'Turn', sequence: 1, width_m: 6.25, ok: false },
      ]),
    );
    expect(fields.map((f) => [f.name, f.type])).toEqual([
      ['type', 'C'],
      ['sequence', 'N'],
      ['width_m', 'N'],
      ['ok', 'L'],
      ['Grower', 'C'],
    ]);
    expect(fields[1].decimals).toBe(0);
    expect(fields[2].decimals).toBe(2);
    expect(rows[0]).toEqual(['Track', '0', '6.00', 'T', 'Jörg']);
    expect(rows[1]).toEqual(['Turn', '1', '6.25', 'F', '']);
  });

  it('cuts names to 10 bytes without clashes and long text at a character boundary', () => {
    const long = 'ä'.repeat(200); // 400 bytes
    const { fields, rows } = readDbf(writeDbf([{ description_one: 'a', description_two: 'b', note: long }]));
    expect(fields.map((f) => f.name)).toEqual(['descriptio', 'descript_1', 'note']);
    expect(fields[2].size).toBe(254);
    expect(rows[0][2]).toBe('ä'.repeat(127));
  });
});
