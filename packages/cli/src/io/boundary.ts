/** Reads a boundary file of any supported format (detected from its content) into parsed fields; `-` is stdin. */
import { readFile, readdir, stat } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
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

/** Largest text file read from a boundary folder, bytes (a Boundary.txt of a 1,000 ha field is ~1 MB). */
const FOLDER_FILE_LIMIT_BYTES = 64 * 1024 * 1024;

/**
 * The Field.txt and Boundary.txt files of a folder and of its sub-folders (one level: a folder of
 * AgOpenGPS fields), by relative path.
 */
async function folderFiles(dir: string): Promise<Record<string, Uint8Array>> {
  const files: Record<string, Uint8Array> = {};
  const visit = async (path: string, depth: number): Promise<void> => {
    for (const entry of await readdir(path, { withFileTypes: true })) {
      const full = join(path, entry.name);
      if (entry.isDirectory() && depth < 1) await visit(full, depth + 1);
      else if (entry.isFile() && /^(field|boundary)\.txt$/i.test(entry.name)) {
        if ((await stat(full)).size > FOLDER_FILE_LIMIT_BYTES) throw new Error(`${full}: larger than 64 MB`);
        files[relative(dir, full).split('\\').join('/')] = await readFile(full);
      }
    }
  };
  await visit(dir, 0);
  return files;
}

async function isFolder(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

export async function readBoundaryFile(file: string): Promise<ParsedBoundary[]> {
  if (file === '-') return readAny(await readStdin(), 'stdin');
  if (await isFolder(file)) {
    // an AgOpenGPS field folder (Field.txt + Boundary.txt), or a folder of them
    const { readBoundaryFolder } = await import('@furrow/format-vendor');
    return readBoundaryFolder(await folderFiles(file), basename(file.replace(/[\\/]+$/, '')));
  }
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
