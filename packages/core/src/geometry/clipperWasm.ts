/**
 * Clipper2's C++ build (clipper2-wasm, WebAssembly) for the big sweeps: offsets, buffers and the
 * boolean operations of `geometry/clipper.ts`. The same algorithms as clipper2-ts, about four times
 * faster on the large inputs of a field with thousands of boundary vertices, and its working memory
 * outside the JavaScript heap (nothing for the collector to promote). Instantiated once, synchronously,
 * when the module is imported, from the binary the build embeds: `planRoute` stays synchronous and the
 * core loads with require() too.
 */
import type { MainModule, PathsD as WPathsD, PolyPathD as WPolyPathD } from 'clipper2-wasm/dist/clipper2z.js';
import { createClipper2Z } from './clipper2z.generated.js';

type PointD = { x: number; y: number };
type PathD = PointD[];
type PathsD = PathD[];

/** Instantiated when this module loads (synchronously: see scripts/embed-wasm.mjs). */
const M = createClipper2Z() as MainModule;

/** JS rings → a wasm PathsD (the caller deletes it). Points are x, y, z triples (the Z build). */
function toWasm(paths: readonly PathD[]): WPathsD {
  const out = new M.PathsD();
  for (const ring of paths) {
    const n = ring.length;
    const flat = new Float64Array(3 * n);
    for (let i = 0; i < n; i++) {
      flat[3 * i] = ring[i].x;
      flat[3 * i + 1] = ring[i].y;
    }
    const p = new M.PathD();
    p.assign(flat);
    out.push_back(p);
    p.delete();
  }
  return out;
}

function ringOf(view: Float64Array): PathD {
  const n = view.length / 3;
  const r: PathD = new Array(n);
  for (let i = 0; i < n; i++) r[i] = { x: view[3 * i], y: view[3 * i + 1] };
  return r;
}

/** A wasm PathsD → JS rings; deletes it. */
function fromWasm(paths: WPathsD): PathsD {
  const out: PathsD = [];
  for (let j = 0, n = paths.size(); j < n; j++) {
    const p = paths.get(j);
    out.push(ringOf(p.view()));
    p.delete();
  }
  paths.delete();
  return out;
}


export function inflate(paths: readonly PathD[], delta: number, end: 'polygon' | 'joined' | 'butt', precision: number, arcTolerance: number): PathsD {
  const w = toWasm(paths);
  const e = end === 'polygon' ? M.EndType.Polygon : end === 'joined' ? M.EndType.Joined : M.EndType.Butt;
  const r = M.InflatePathsD(w, delta, M.JoinType.Round, e, 2, precision, arcTolerance);
  w.delete();
  return fromWasm(r);
}

export function boolean(op: 'union' | 'intersection' | 'difference', a: readonly PathD[], b: readonly PathD[], precision: number): PathsD {
  const wa = toWasm(a), wb = toWasm(b);
  const ct = op === 'union' ? M.ClipType.Union : op === 'intersection' ? M.ClipType.Intersection : M.ClipType.Difference;
  const c = new M.ClipperD(precision);
  c.AddSubject(wa);
  if (b.length) c.AddClip(wb);
  const out = new M.PathsD();
  c.ExecutePath(ct, M.FillRule.NonZero, out);
  c.delete();
  wa.delete();
  wb.delete();
  return fromWasm(out);
}

/** The boolean operation's polygons, each shell followed by its holes (the PolyTree's nesting). */
export function booleanGrouped(op: 'union' | 'difference', a: readonly PathD[], b: readonly PathD[], precision: number): PathsD[] {
  const wa = toWasm(a), wb = toWasm(b);
  const ct = op === 'union' ? M.ClipType.Union : M.ClipType.Difference;
  const c = new M.ClipperD(precision);
  c.AddSubject(wa);
  if (b.length) c.AddClip(wb);
  const tree = new M.PolyPathD();
  c.ExecutePoly(ct, M.FillRule.NonZero, tree);
  c.delete();
  wa.delete();
  wb.delete();
  const out: PathsD[] = [];
  const visit = (node: WPolyPathD): void => {
    for (let i = 0, n = node.count(); i < n; i++) {
      const shell = node.child(i);
      const sp = shell.polygon();
      const poly: PathsD = [ringOf(sp.view())];
      sp.delete();
      for (let j = 0, m = shell.count(); j < m; j++) {
        const hole = shell.child(j);
        const hp = hole.polygon();
        poly.push(ringOf(hp.view()));
        hp.delete();
        visit(hole);
      }
      out.push(poly);
    }
  };
  visit(tree);
  tree.delete();
  return out;
}
