/**
 * Clipper2's C++ build (clipper2-wasm, WebAssembly) for the big sweeps: offsets, buffers and the
 * boolean operations of `geometry/clipper.ts`. The same algorithms as clipper2-ts, about four times
 * faster on the large inputs of a field with thousands of boundary vertices, and its working memory
 * outside the JavaScript heap (nothing for the collector to promote). Instantiated once, synchronously,
 * when the module is imported, from the binary the build embeds: `planRoute` stays synchronous and the
 * core loads with require() too.
 */
import type {
  ClipperD,
  ClipType,
  MainModule,
  PathD as WPathD,
  PathsD as WPathsD,
  PolyPathD as WPolyPathD,
} from 'clipper2-wasm/dist/clipper2z.js';
import { createClipper2Z } from './clipper2z.generated.js';

type PointD = { x: number; y: number };
type PathD = PointD[];
type PathsD = PathD[];

/** Instantiated when this module loads (synchronously: see scripts/embed-wasm.mjs), renewed by `run`. */
let M = createClipper2Z() as MainModule;

/**
 * Linear memory above which the instance is renewed after an operation, bytes: WebAssembly memory
 * only grows, so one huge request would keep a server's memory high for good.
 */
const RENEW_ABOVE_BYTES = 256 * 1024 * 1024;

/** Objects made in the module during one operation, deleted when it ends, however it ends. */
type Owned = { delete(): void };
/** Takes an object made in the module into the operation's care (`run`), returning it. */
type Own = <O extends Owned>(o: O) => O;

/**
 * Runs one operation on the module. Whatever it made (`own`) is deleted afterwards; a C++ exception
 * (Emscripten throws its pointer, a number) becomes an Error; after a trap (`WebAssembly.RuntimeError`:
 * the module's state is then unknown) or when its memory has grown past RENEW_ABOVE_BYTES, the
 * next operation gets a fresh instance.
 */
function run<T>(op: (own: Own) => T): T {
  const made: Owned[] = [];
  const own: Own = (o) => (made.push(o), o);
  let renew = false;
  try {
    return op(own);
  } catch (e) {
    if (e instanceof Error && e.name === 'RuntimeError') renew = true;
    if (typeof e === 'number')
      throw new Error('Clipper2 (WebAssembly) refused the operation (a coordinate out of its range?)', { cause: e });
    throw e;
  } finally {
    if (!renew) for (let i = made.length - 1; i >= 0; i--) made[i].delete();
    if (renew || wasmHeapBytes() > RENEW_ABOVE_BYTES) M = createClipper2Z() as MainModule;
  }
}

/** Scratch for one ring's x, y, z triples, grown as needed (every value of its used part written). */
let triples = new Float64Array(3 * 1024);

/** JS rings → a wasm PathsD. Points are x, y, z triples (the Z build; z is 0). */
function toWasm(paths: readonly PathD[], own: Own): WPathsD {
  const out = own(new M.PathsD());
  for (const ring of paths) {
    const n = ring.length;
    if (triples.length < 3 * n) triples = new Float64Array(Math.max(3 * n, 2 * triples.length));
    const t = triples;
    for (let i = 0; i < n; i++) {
      const p = ring[i];
      t[3 * i] = p.x;
      t[3 * i + 1] = p.y;
      t[3 * i + 2] = 0;
    }
    // (the vector keeps a copy: each ring's own is deleted at once, so the input is not held twice)
    const p = new M.PathD();
    try {
      p.assign(t.subarray(0, 3 * n));
      out.push_back(p);
    } finally {
      p.delete();
    }
  }
  return out;
}

/** A path the module handed out as a copy → a JS ring; the copy is deleted at once. */
function ringOf(copy: WPathD): PathD {
  try {
    const view = copy.view();
    const n = view.length / 3;
    const r: PathD = new Array(n);
    for (let i = 0; i < n; i++) r[i] = { x: view[3 * i], y: view[3 * i + 1] };
    return r;
  } finally {
    copy.delete();
  }
}

/** A wasm PathsD → JS rings. */
function fromWasm(paths: WPathsD): PathsD {
  const out: PathsD = new Array(paths.size());
  for (let j = 0; j < out.length; j++) out[j] = ringOf(paths.get(j));
  return out;
}

/** Offsets closed paths (`polygon`) or buffers polylines (`joined`: closed, `butt`: open) with round joins. */
export function inflate(
  paths: readonly PathD[],
  delta: number,
  end: 'polygon' | 'joined' | 'butt',
  precision: number,
  arcTolerance: number,
): PathsD {
  return run((own) => {
    const e = end === 'polygon' ? M.EndType.Polygon : end === 'joined' ? M.EndType.Joined : M.EndType.Butt;
    return fromWasm(own(M.InflatePathsD(toWasm(paths, own), delta, M.JoinType.Round, e, 2, precision, arcTolerance)));
  });
}

/** A ClipperD on a grid of `precision` decimals with `a` as subjects and `b` as clips. */
function clipperOf(a: readonly PathD[], b: readonly PathD[], precision: number, own: Own): ClipperD {
  const c = own(new M.ClipperD(precision));
  c.AddSubject(toWasm(a, own));
  if (b.length) c.AddClip(toWasm(b, own));
  return c;
}

function clipType(op: 'union' | 'intersection' | 'difference'): ClipType {
  return op === 'union' ? M.ClipType.Union : op === 'intersection' ? M.ClipType.Intersection : M.ClipType.Difference;
}

/** `a` op `b` (NonZero), on a grid of `precision` decimals (as a power of two: see clipper.ts). */
export function boolean(
  op: 'union' | 'intersection' | 'difference',
  a: readonly PathD[],
  b: readonly PathD[],
  precision: number,
): PathsD {
  return run((own) => {
    const out = own(new M.PathsD());
    clipperOf(a, b, precision, own).ExecutePath(clipType(op), M.FillRule.NonZero, out);
    return fromWasm(out);
  });
}

/** The boolean operation's polygons, each shell followed by its holes (the PolyTree's nesting). */
export function booleanGrouped(
  op: 'union' | 'difference',
  a: readonly PathD[],
  b: readonly PathD[],
  precision: number,
): PathsD[] {
  return run((own) => {
    const tree = own(new M.PolyPathD());
    clipperOf(a, b, precision, own).ExecutePoly(clipType(op), M.FillRule.NonZero, tree);
    const out: PathsD[] = [];
    // (a child is the tree's own node, not a copy: not deleted; its polygon() is a copy)
    const visit = (node: WPolyPathD): void => {
      for (let i = 0, n = node.count(); i < n; i++) {
        const shell = node.child(i);
        const poly: PathsD = [ringOf(shell.polygon())];
        for (let j = 0, m = shell.count(); j < m; j++) {
          const hole = shell.child(j);
          poly.push(ringOf(hole.polygon()));
          visit(hole);
        }
        out.push(poly);
      }
    };
    visit(tree);
    return out;
  });
}

/** The module's linear memory, bytes (for tests: it must not grow with repeated operations). */
export function wasmHeapBytes(): number {
  return (M as unknown as { HEAPU8: Uint8Array }).HEAPU8.length;
}
