/**
 * The one zip reader of the zipped boundary formats: a zip bomb is refused after about a
 * megabyte of output (whatever format it claims to be), and each limit (entries, unpacked
 * bytes, compression ratio) holds.
 */
import { describe, expect, it } from 'vitest';
import { zipSync } from 'fflate';
import { ARCHIVE_LIMITS, isArchiveLimitError, unzipArchive } from '@furrow/format-geojson';
import { readAnyBoundary } from '@furrow/format-vendor';
import { zipBomb } from '../support/zip-bomb.js';

const MB = 1e6;

async function refusal(p: Promise<unknown>): Promise<Error & { archiveLimit?: string }> {
  try {
    await p;
  } catch (err) {
    return err as Error & { archiveLimit?: string };
  }
  throw new Error('expected the archive to be refused');
}

describe('zip bombs', () => {
  it('refuses 2 × 1.5 GiB of zeros zipped as a Shapefile, memory rising by less than 64 MB', async () => {
    const bomb = await zipBomb();
    expect(bomb.length).toBeLessThan(4 * MB);
    const before = process.memoryUsage().rss;
    const err = await refusal(readAnyBoundary(bomb, 'a.zip'));
    const rise = process.memoryUsage().rss - before;
    expect(isArchiveLimitError(err)).toBe(true);
    expect(err.archiveLimit).toBe('ratio');
    expect(err.message).toMatch(/a\.zip: a\.shp is compressed more than 200:1/);
    expect(rise).toBeLessThan(64 * MB);
  });

  it.each([
    ['KMZ', ['doc.kml'], 'field.kmz'],
    ['zipped ISO-XML', ['TASKDATA/TASKDATA.XML'], 'task.zip'],
  ])('refuses a bomb zipped as %s', async (_label, names, file) => {
    const bomb = await zipBomb({ names, size: 256 * 1024 * 1024 });
    const err = await refusal(readAnyBoundary(bomb, file));
    expect(err.archiveLimit).toBe('ratio');
  });
});

describe('archive limits', () => {
  const text = (s: string) => new TextEncoder().encode(s);
  it('has documented defaults', () => {
    expect(ARCHIVE_LIMITS).toEqual({
      maxUnpackedBytes: 256 * 1024 * 1024,
      maxEntries: 10_000,
      maxRatio: 200,
      ratioGraceBytes: 1024 * 1024,
    });
  });

  it('counts entries, even those it does not unpack', () => {
    const files: Record<string, Uint8Array> = {};
    for (let i = 0; i < 12; i++) files[`f${i}.txt`] = text(`file ${i}`);
    const zip = zipSync(files);
    expect(unzipArchive(zip, () => true, { limits: { maxEntries: 12 } }).names).toHaveLength(12);
    const err = (() => {
      try {
        unzipArchive(zip, () => false, { file: 'many.zip', limits: { maxEntries: 11 } });
      } catch (e) {
        return e as Error & { archiveLimit?: string };
      }
    })();
    expect(err?.archiveLimit).toBe('entries');
    expect(err?.message).toBe('many.zip: the archive holds more than 11 entries');
  });

  it('stops at the unpacked-bytes limit over all the entries it reads, and skips the others', () => {
    const random = (n: number) => Uint8Array.from({ length: n }, (_, i) => (i * 2654435761) >>> 24);
    const zip = zipSync({ 'a.bin': random(300_000), 'b.bin': random(300_000), 'c.txt': text('small') });
    const limits = { maxUnpackedBytes: 500_000 };
    expect(unzipArchive(zip, (n) => n !== 'b.bin', { limits }).files.get('c.txt')).toEqual(text('small'));
    expect(() => unzipArchive(zip, () => true, { limits })).toThrow(/unpacks to more than/);
  });

  it('unpacks what it is asked for, byte for byte', () => {
    const a = Uint8Array.from({ length: 100_000 }, (_, i) => i % 251);
    const zip = zipSync({ 'dir/a.bin': a, 'dir/b.txt': text('héllo') });
    const { names, files } = unzipArchive(zip, () => true);
    expect(names).toEqual(['dir/a.bin', 'dir/b.txt']);
    expect(files.get('dir/a.bin')).toEqual(a);
    expect(new TextDecoder().decode(files.get('dir/b.txt'))).toBe('héllo');
  });
});
