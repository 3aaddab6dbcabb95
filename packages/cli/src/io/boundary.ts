/** Reads a boundary file of any supported format (detected from its content) into parsed fields. */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { readAnyBoundary, type ParsedBoundary } from '@furrow/format-vendor';

export async function readBoundaryFile(file: string): Promise<ParsedBoundary[]> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(file);
  } catch (err) {
    const e = new Error(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    e.name = 'UsageError';
    throw e;
  }
  return readAnyBoundary(bytes, basename(file));
}
