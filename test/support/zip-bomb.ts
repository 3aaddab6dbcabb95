/**
 * A zip bomb built in the test (never committed): entries of zeros, deflated as a stream
 * (a 1 MiB buffer fed again and again), with real CRCs and sizes, so every zip reader takes
 * it for a valid archive. 2 × 1.5 GiB of zeros pack to about 3 MB.
 */
import { constants, createDeflateRaw, crc32 } from 'node:zlib';

const GiB = 1024 ** 3;

async function deflatedZeros(size: number): Promise<{ data: Buffer; crc: number }> {
  const zeros = Buffer.alloc(1024 * 1024);
  // Run-length matches: the same ~1,030:1 as the best level on zeros, several times faster.
  const deflate = createDeflateRaw({ level: 1, strategy: constants.Z_RLE });
  const parts: Buffer[] = [];
  deflate.on('data', (b: Buffer) => parts.push(b));
  const done = new Promise<void>((resolve, reject) => {
    deflate.on('end', resolve);
    deflate.on('error', reject);
  });
  let crc = 0;
  for (let left = size; left > 0; left -= zeros.length) {
    const chunk = left >= zeros.length ? zeros : zeros.subarray(0, left);
    crc = crc32(chunk, crc);
    if (!deflate.write(chunk)) await new Promise((r) => deflate.once('drain', r));
  }
  deflate.end();
  await done;
  return { data: Buffer.concat(parts), crc };
}

/** A zip of `entries` files, each `size` bytes of zeros (defaults: 2 × 1.5 GiB), named after `names`. */
export async function zipBomb(opts: { names?: string[]; size?: number } = {}): Promise<Buffer> {
  const names = opts.names ?? ['a.shp', 'a.dbf'];
  const size = opts.size ?? 1.5 * GiB;
  const one = await deflatedZeros(size); // every entry holds the same bytes
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const name of names) {
    const fileName = Buffer.from(name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt32LE(one.crc >>> 0, 14);
    local.writeUInt32LE(one.data.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(fileName.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(one.crc >>> 0, 16);
    central.writeUInt32LE(one.data.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(fileName.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, fileName, one.data);
    centrals.push(central, fileName);
    offset += local.length + fileName.length + one.data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(names.length, 8);
  end.writeUInt16LE(names.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
