/** Reads a boundary file of any supported format (detected from its content) into parsed fields; `-` is stdin. */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { ParsedBoundary } from '@furrow/format-vendor';

/**
 * GeoJSON (the usual input) is read by its own package; any other format goes through the
 * detector of `@furrow/format-vendor`, which loads every format package. Same result as
 * `readAnyBoundary`, whose detector also takes text starting with "{" as GeoJSON.
 */
async function readAny(bytes: Uint8Array, name: string): Promise<ParsedBoundary[]> {
  const geojson = await import('@furrow/format-geojson');
  const zip = bytes[0] === 0x50 && bytes[1] === 0x4b;
  if (!zip && geojson.textOf(bytes).trimStart().startsWith('{')) return geojson.readBoundary(bytes, name);
  const { readAnyBoundary } = await import('@furrow/format-vendor');
  return readAnyBoundary(bytes, name);
}

/** All of stdin, as bytes (a boundary may be a zip). */
async function readStdin(): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function readBoundaryFile(file: string): Promise<ParsedBoundary[]> {
  if (file === '-') return readAny(await readStdin(), 'stdin');
  let bytes: Uint8Array;
  try {
    bytes = await readFile(file);
  } catch (err) {
    const e = new Error(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    e.name = 'UsageError';
    throw e;
  }
  return readAny(bytes, basename(file));
}
