/**
 * Sending the built files: read once and kept in memory (again when the file changes on disk),
 * a strong ETag from the content (a matching If-None-Match gets 304), and brotli or gzip for
 * clients that accept them (the build's .br / .gz copies, else compressed here once).
 */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export type ContentEncoding = 'br' | 'gzip';

interface Loaded {
  mtimeMs: number;
  body: Uint8Array<ArrayBuffer>;
  etag: string;
  encoded: Map<ContentEncoding, Uint8Array<ArrayBuffer>>;
}

const COMPRESSIBLE = /\.(js|css|html|svg|json|map)$/;
const MIN_COMPRESS_BYTES = 512;
const cache = new Map<string, Loaded>();

function etagOf(body: Uint8Array): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}

/** The encoding to send: brotli when accepted, else gzip when accepted, else none. */
export function negotiateEncoding(acceptEncoding: string | null): ContentEncoding | undefined {
  const accepted = new Map<string, number>();
  for (const part of (acceptEncoding ?? '').toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    if (name) accepted.set(name.trim(), q === undefined ? 1 : Number(q));
  }
  const ok = (n: string): boolean => (accepted.get(n) ?? accepted.get('*') ?? 0) > 0;
  return ok('br') ? 'br' : ok('gzip') ? 'gzip' : undefined;
}

async function readOptional(path: string): Promise<Uint8Array<ArrayBuffer> | undefined> {
  try {
    return new Uint8Array(await readFile(path));
  } catch {
    return undefined;
  }
}

/**
 * A built file (with `transform` applied to its text, cached under `variant`), or undefined when
 * it does not exist.
 */
export async function loadBuiltFile(
  dir: string,
  name: string,
  variant = '',
  transform?: (text: string) => string,
): Promise<Loaded | undefined> {
  const path = join(dir, name);
  let mtimeMs: number;
  try {
    mtimeMs = (await stat(path)).mtimeMs;
  } catch {
    return undefined;
  }
  const key = `${path}\u0000${variant}`;
  const hit = cache.get(key);
  if (hit && hit.mtimeMs === mtimeMs) return hit;
  const raw = await readOptional(path);
  if (!raw) return undefined;
  const body = transform ? new TextEncoder().encode(transform(new TextDecoder().decode(raw))) : raw;
  const loaded: Loaded = { mtimeMs, body, etag: etagOf(body), encoded: new Map() };
  if (!transform) {
    // The build's precompressed copies, when they are as new as the file.
    for (const [enc, ext] of [
      ['br', '.br'],
      ['gzip', '.gz'],
    ] as const) {
      const copy = await readOptional(`${path}${ext}`);
      const copyTime = copy ? (await stat(`${path}${ext}`)).mtimeMs : 0;
      if (copy && copyTime >= mtimeMs - 1000) loaded.encoded.set(enc, copy);
    }
  }
  cache.set(key, loaded);
  return loaded;
}

/** The body to send for an encoding (compressed once and kept), or the plain body. */
export function encodedBody(
  file: Loaded,
  name: string,
  encoding: ContentEncoding | undefined,
): { body: Uint8Array<ArrayBuffer>; encoding?: ContentEncoding } {
  if (!encoding || !COMPRESSIBLE.test(name) || file.body.length < MIN_COMPRESS_BYTES) return { body: file.body };
  let out = file.encoded.get(encoding);
  if (!out) {
    const b =
      encoding === 'br'
        ? brotliCompressSync(file.body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } })
        : gzipSync(file.body, { level: 6 });
    out = new Uint8Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength)) as Uint8Array<ArrayBuffer>;
    file.encoded.set(encoding, out);
  }
  return { body: out, encoding };
}

/** True when an If-None-Match header names this ETag (or is `*`). */
export function etagMatches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch
    .split(',')
    .map((t) => t.trim().replace(/^W\//, ''))
    .some((t) => t === etag || t === '*');
}
