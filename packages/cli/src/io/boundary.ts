/** Reads a boundary file of any supported format (detected from its content) into parsed fields; `-` is stdin. */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { readAnyBoundary, type ParsedBoundary } from '@furrow/format-vendor';

/** All of stdin, as bytes (a boundary may be a zip). */
async function readStdin(): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function readBoundaryFile(file: string): Promise<ParsedBoundary[]> {
  if (file === '-') return readAnyBoundary(await readStdin(), 'stdin');
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
