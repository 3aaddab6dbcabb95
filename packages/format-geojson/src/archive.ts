/**
 * The one zip reader of every boundary format that comes zipped (KMZ, zipped Shapefile, zipped
 * ISO-XML): fflate's streaming `Unzip`, fed a few kilobytes at a time, so an archive is never
 * unpacked past its limits. A zip bomb (gigabytes of zeros in a few megabytes) is refused after
 * about a megabyte of output: the limits are on the entry count, the unpacked bytes of the
 * archive, and the compression ratio of each entry.
 */
import { Unzip, UnzipInflate } from 'fflate';
import { PlanError } from '@furrow/core';

export interface ArchiveLimits {
  /** Most bytes unpacked from one archive (all the entries read, together). */
  maxUnpackedBytes: number;
  /** Most entries (files and folders) in one archive. */
  maxEntries: number;
  /** Largest unpacked ÷ packed size of one entry, checked once the entry passes `ratioGraceBytes`. */
  maxRatio: number;
  /** Unpacked bytes of an entry below which its ratio is not checked (small files compress well). */
  ratioGraceBytes: number;
}

/** The defaults (docs/formats.md "Archives"). */
export const ARCHIVE_LIMITS: Readonly<ArchiveLimits> = Object.freeze({
  maxUnpackedBytes: 256 * 1024 * 1024,
  maxEntries: 10_000,
  maxRatio: 200,
  ratioGraceBytes: 1024 * 1024,
});

export type ArchiveLimitKind = 'unpacked-bytes' | 'entries' | 'ratio';

/**
 * An archive over one of its limits. A `PlanError` (`invalid-boundary`), so every caller that
 * reports bad input reports it; `archiveLimit` names the limit (the API answers it 413).
 */
export class ArchiveLimitError extends PlanError {
  readonly archiveLimit: ArchiveLimitKind;
  constructor(kind: ArchiveLimitKind, file: string, message: string) {
    super('invalid-boundary', `${file}: ${message}`, [{ path: file, message }]);
    this.archiveLimit = kind;
  }
}

/** True for an `ArchiveLimitError` (also across copies of this module). */
export function isArchiveLimitError(err: unknown): err is ArchiveLimitError {
  return err instanceof Error && typeof (err as { archiveLimit?: unknown }).archiveLimit === 'string';
}

/** True if the bytes start like a ZIP archive. */
export function isZip(bytes: Uint8Array): boolean {
  return (
    bytes.length >= 4 &&
    bytes[0] === 0x50 &&
    bytes[1] === 0x4b &&
    (bytes[2] === 3 || bytes[2] === 5) &&
    (bytes[3] === 4 || bytes[3] === 6)
  );
}

export interface UnzippedArchive {
  /** Every entry's name, in archive order (folders end with `/`). */
  names: string[];
  /** The unpacked content of the entries `want` chose. */
  files: Map<string, Uint8Array>;
}

/** Compressed bytes handed to the unzipper at a time: what one step can unpack stays a few MB. */
const STEP = 4096;
const MiB = 1024 * 1024;

/**
 * Unpacks the entries of a zip archive that `want(name)` chooses (the others are skipped, never
 * inflated), within `limits`. Throws `ArchiveLimitError` as soon as a limit is passed, and a
 * plain `Error` for an archive that cannot be read.
 */
export function unzipArchive(
  bytes: Uint8Array,
  want: (name: string) => boolean,
  options: { file?: string; limits?: Partial<ArchiveLimits> } = {},
): UnzippedArchive {
  const limits: ArchiveLimits = { ...ARCHIVE_LIMITS, ...options.limits };
  const file = options.file ?? 'archive';
  const names: string[] = [];
  const files = new Map<string, Uint8Array>();
  let unpacked = 0;
  let fed = 0;
  let failure: Error | undefined;
  const fail = (err: Error): never => {
    failure ??= err;
    throw err;
  };

  const unzip = new Unzip((entry) => {
    names.push(entry.name);
    if (names.length > limits.maxEntries) {
      fail(new ArchiveLimitError('entries', file, `the archive holds more than ${limits.maxEntries} entries`));
    }
    if (entry.name.endsWith('/') || !want(entry.name)) return;
    // Where the entry's data begins, to within one step: its compressed bytes so far are `fed - start`.
    const start = Math.max(0, fed - STEP);
    const chunks: Uint8Array[] = [];
    let size = 0;
    entry.ondata = (err, data, final) => {
      if (failure) throw failure;
      if (err) fail(new Error(`${entry.name}: ${err.message}`));
      size += data.length;
      unpacked += data.length;
      if (unpacked > limits.maxUnpackedBytes) {
        fail(
          new ArchiveLimitError(
            'unpacked-bytes',
            file,
            `the archive unpacks to more than ${limits.maxUnpackedBytes / MiB} MiB`,
          ),
        );
      }
      const packed = Math.max(1, fed - start);
      if (size > limits.ratioGraceBytes && size / packed > limits.maxRatio) {
        fail(
          new ArchiveLimitError(
            'ratio',
            file,
            `${entry.name} is compressed more than ${limits.maxRatio}:1 (a zip bomb?)`,
          ),
        );
      }
      if (data.length > 0) chunks.push(data);
      if (final) files.set(entry.name, concat(chunks, size));
    };
    entry.start();
  });
  unzip.register(UnzipInflate);
  try {
    for (let at = 0; at < bytes.length; at += STEP) {
      const end = Math.min(bytes.length, at + STEP);
      fed = end;
      unzip.push(bytes.subarray(at, end), end === bytes.length);
    }
  } catch (err) {
    if (failure) throw failure;
    throw err instanceof Error ? err : new Error(String(err));
  }
  if (bytes.length === 0) throw new Error('empty archive');
  return { names, files };
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** An entry's bytes as text (UTF-8). */
export function entryText(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes);
}
