/**
 * dBASE III attribute tables, UTF-8 text (declared in a .cpg beside them): strings (C),
 * numbers (N, decimals from the data) and booleans (L). Field names are cut to 10 bytes.
 */

interface FieldSpec {
  name: string;
  type: 'C' | 'N' | 'L';
  size: number;
  decimals: number;
}

const encoder = new TextEncoder();

function decimalsOf(values: number[]): number {
  let decimals = 0;
  for (const v of values) {
    if (Number.isInteger(v)) continue;
    const s = String(v);
    const dot = s.indexOf('.');
    decimals = Math.max(decimals, s.includes('e') ? 9 : dot < 0 ? 0 : s.length - dot - 1);
  }
  return Math.min(decimals, 9);
}

function specsOf(rows: Record<string, unknown>[]): FieldSpec[] {
  const names: string[] = [];
  for (const row of rows) for (const k of Object.keys(row)) if (!names.includes(k)) names.push(k);
  const specs: FieldSpec[] = [];
  const used = new Set<string>();
  for (const key of names) {
    const values = rows.map((r) => r[key]).filter((v) => v !== undefined && v !== null);
    let name = key.replace(/[^A-Za-z0-9_]/g, '_').slice(0, 10) || 'field';
    for (let n = 1; used.has(name.toUpperCase()); n++) name = `${name.slice(0, 8)}_${n}`;
    used.add(name.toUpperCase());
    if (values.length > 0 && values.every((v) => typeof v === 'number' && Number.isFinite(v))) {
      const decimals = decimalsOf(values as number[]);
      const width = Math.max(...(values as number[]).map((v) => v.toFixed(decimals).length), 1);
      specs.push({ name, type: 'N', size: Math.min(Math.max(width, 10), 19), decimals });
    } else if (values.length > 0 && values.every((v) => typeof v === 'boolean')) {
      specs.push({ name, type: 'L', size: 1, decimals: 0 });
    } else {
      const width = Math.max(1, ...values.map((v) => encoder.encode(String(v)).length));
      specs.push({ name, type: 'C', size: Math.min(width, 254), decimals: 0 });
    }
    (specs[specs.length - 1] as FieldSpec & { key: string }).key = key;
  }
  return specs;
}

/** Writes the rows as a .dbf file (UTF-8 text). */
export function writeDbf(rows: Record<string, unknown>[], date = new Date()): Uint8Array {
  const specs = specsOf(rows) as (FieldSpec & { key: string })[];
  const headerLength = 32 + 32 * specs.length + 1;
  const recordLength = 1 + specs.reduce((s, f) => s + f.size, 0);
  const bytes = new Uint8Array(headerLength + recordLength * rows.length + 1);
  const view = new DataView(bytes.buffer);
  view.setUint8(0, 0x03);
  view.setUint8(1, date.getUTCFullYear() - 1900);
  view.setUint8(2, date.getUTCMonth() + 1);
  view.setUint8(3, date.getUTCDate());
  view.setUint32(4, rows.length, true);
  view.setUint16(8, headerLength, true);
  view.setUint16(10, recordLength, true);
  view.setUint8(29, 0x00);
  specs.forEach((f, i) => {
    const at = 32 + 32 * i;
    bytes.set(encoder.encode(f.name), at);
    view.setUint8(at + 11, f.type.charCodeAt(0));
    view.setUint8(at + 16, f.size);
    view.setUint8(at + 17, f.decimals);
  });
  view.setUint8(headerLength - 1, 0x0d);
  let offset = headerLength;
  for (const row of rows) {
    bytes[offset++] = 0x20;
    for (const f of specs) {
      const v = row[f.key];
      let text: Uint8Array;
      if (v === undefined || v === null) text = encoder.encode(' '.repeat(f.size));
      else if (f.type === 'N')
        text = encoder.encode((v as number).toFixed(f.decimals).padStart(f.size, ' ').slice(0, f.size));
      else if (f.type === 'L') text = encoder.encode(v ? 'T' : 'F');
      else {
        const raw = encoder.encode(String(v));
        // cut at a character boundary so the text stays valid UTF-8
        let end = Math.min(raw.length, f.size);
        while (end < raw.length && end > 0 && (raw[end] & 0xc0) === 0x80) end--;
        text = new Uint8Array(f.size).fill(0x20);
        text.set(raw.subarray(0, end));
      }
      bytes.set(text, offset);
      offset += f.size;
    }
  }
  bytes[offset] = 0x1a;
  return bytes;
}
