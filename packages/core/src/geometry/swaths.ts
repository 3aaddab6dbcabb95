/**
 * The swaths of working passes, in the frame their union is swept in: the coverage metric
 * (geometry/computeCoverage.ts) and the unworked patches (geometry/unworked.ts) both start here.
 * A swath is a pass buffered by half its width: flat ends, round joins; a straight two-point pass
 * (a track) is its rectangle.
 *
 * Cost. Clipper2's sweep visits the scanbeams (y = const) and, in each, every edge crossing it.
 * - Parallel tracks across the sweep put hundreds of edges in every scanbeam, so the frame is
 *   turned to lie near the passes' main direction (`mainPassDirection`).
 * - A jittery edge lying along the sweep (a GPS-logged field side, and the headland passes offset
 *   from it) puts all its vertices in a few centimetres of y: every scanbeam there meets every one
 *   of its edges, and the cost grows with the square of the vertex count. Where a long run lies
 *   flat so, the frame is tilted a little off the main direction (`sweepAngle`): tracks a few
 *   degrees off x still meet only the tracks near their height.
 * - A long curved pass is buffered in pieces of `CHUNK_SEGMENTS` segments (each sharing a segment
 *   with the next, so every join is drawn whole in one piece) and the pieces united: one offset of
 *   thousands of kinked edges meets every self-intersection of its raw outline in one sweep.
 * Areas do not change under rotation; the union of the pieces is the swath up to Clipper's grid.
 */
import { PRECISION, areaOf, bufferPolylines, flatToPath, ringToFlat, unionPolygons } from './clipper.js';
import type { PathD, PathsD } from './clipper.js';
import { Clipper } from 'clipper2-ts';
import { hypot } from './vec.js';

/** A working pass: a flat xy polyline in the local frame (closed rings repeat their first point) and its width. */
export interface WorkingPass {
  xy: ArrayLike<number>;
  widthMeters: number;
  /**
   * The pass's swath when its sections are not all on along it (geometry/activeSwath.ts), local
   * frame: used instead of the buffer of `xy`.
   */
  swath?: PathsD;
}

/** Tilts of the sweep off the main pass direction tried in turn, radians (none, about 1°, 3°, 6°). */
export const SWEEP_TILTS_RADIANS = [0, 0.02, -0.02, 0.05, -0.05, 0.1, -0.1];
/** A run within this angle of the sweep line lies flat, radians. */
const FLAT_RADIANS = 0.01;
/** Runs are measured simplified within this, m. */
const RUN_TOLERANCE_METERS = 1;
/** Shorter runs cost little however they lie (a pond's side), m. */
const MIN_RUN_METERS = 50;
/** Segments per piece when a long curved pass is buffered in pieces. */
export const CHUNK_SEGMENTS = 64;

export function isClosed(xy: ArrayLike<number>): boolean {
  const n = xy.length;
  return n >= 8 && Math.abs(xy[0] - xy[n - 2]) < 1e-9 && Math.abs(xy[1] - xy[n - 1]) < 1e-9;
}

/**
 * Direction (radians, [0, π)) with the most length of straight two-point passes (tracks), to the
 * nearest 1e-6 rad; 0 without any.
 */
export function mainPassDirection(passes: WorkingPass[]): number {
  const lengthByKey = new Map<number, number>();
  let best = 0,
    bestLength = 0;
  for (const p of passes) {
    if (p.xy.length !== 4) continue;
    const dx = p.xy[2] - p.xy[0],
      dy = p.xy[3] - p.xy[1];
    const l = hypot(dx, dy);
    if (!(l > 0)) continue;
    let a = Math.atan2(dy, dx);
    if (a < 0) a += Math.PI;
    if (a >= Math.PI) a -= Math.PI;
    const key = Math.round(a * 1e6);
    const total = (lengthByKey.get(key) ?? 0) + l;
    lengthByKey.set(key, total);
    if (total > bestLength) {
      bestLength = total;
      best = key / 1e6;
    }
  }
  return best;
}

/**
 * The angle the swaths are turned by (−angle) for the sweep: the main pass direction tilted by the
 * first of `SWEEP_TILTS_RADIANS` under which the least length of curved passes and of `rings`
 * (the workable boundary) lies flat — counted on runs of MIN_RUN_METERS or more of the paths
 * simplified within RUN_TOLERANCE_METERS (a long side, not a jittery edge or a pond's side). Each
 * tilt costs the tracks' sweep: a scanbeam meets every track whose tilted length spans its height.
 */
export function sweepAngle(passes: WorkingPass[], rings: PathsD): number {
  const theta = mainPassDirection(passes);
  const flat = SWEEP_TILTS_RADIANS.map(() => 0);
  const edge = (dx: number, dy: number): void => {
    const l = hypot(dx, dy);
    if (!(l >= MIN_RUN_METERS)) return;
    for (let k = 0; k < flat.length; k++) {
      // angle between the edge and the sweep line, folded into [0, π/2]
      let d = Math.abs(Math.atan2(dy, dx) - theta - SWEEP_TILTS_RADIANS[k]) % Math.PI;
      if (d > Math.PI / 2) d = Math.PI - d;
      if (d < FLAT_RADIANS) flat[k] += l;
    }
  };
  // on the runs' overall directions: a run simplified within a metre (a jittery edge's own angle does not matter)
  const run = (path: PathD): void => {
    const r = path.length > 4 ? Clipper.ramerDouglasPeuckerD(path, RUN_TOLERANCE_METERS) : path;
    for (let i = 1; i < r.length; i++) edge(r[i].x - r[i - 1].x, r[i].y - r[i - 1].y);
  };
  for (const p of passes) if (p.xy.length > 4) run(flatToPath(p.xy));
  for (const r of rings) run([...r, r[0]]);
  let best = 0;
  for (let k = 1; k < flat.length; k++) if (flat[k] < flat[best]) best = k;
  return theta + SWEEP_TILTS_RADIANS[best];
}

/** The swath of a straight pass (x0, y0) → (x1, y1), counter-clockwise: its rectangle. */
export function rectangleSwath(x0: number, y0: number, x1: number, y1: number, halfWidthMeters: number): PathsD {
  const l = hypot(x1 - x0, y1 - y0);
  const nx = (-(y1 - y0) / l) * halfWidthMeters,
    ny = ((x1 - x0) / l) * halfWidthMeters;
  return [
    [
      { x: x0 - nx, y: y0 - ny },
      { x: x1 - nx, y: y1 - ny },
      { x: x1 + nx, y: y1 + ny },
      { x: x0 + nx, y: y0 + ny },
    ],
  ];
}

/**
 * The swath of one pass (in whatever frame its xy is): a rectangle for a straight pass, else the
 * buffer, in pieces of CHUNK_SEGMENTS segments united where the pass is longer than two pieces.
 * Empty for a pass of one point.
 */
export function passSwath(xy: ArrayLike<number>, widthMeters: number): PathsD {
  const n = xy.length;
  if (n < 4) return [];
  const h = widthMeters / 2;
  if (n === 4)
    return xy[0] !== xy[2] || xy[1] !== xy[3]
      ? rectangleSwath(xy[0], xy[1], xy[2], xy[3], h)
      : bufferPolylines([flatToPath(xy)], h);
  const closed = isClosed(xy);
  const points = closed ? n / 2 - 1 : n / 2;
  const segments = closed ? points : points - 1;
  if (segments <= 2 * CHUNK_SEGMENTS)
    return bufferPolylines([flatToPath(closed ? Array.prototype.slice.call(xy, 0, n - 2) : xy)], h, closed);
  // Piece k: segments kK … (k+1)K (the last one shared with the next piece), so that every join is
  // inside a piece and every flat end at a cut lies inside the next piece's first segment.
  const pieces: PathsD = [];
  for (let a = 0; a < segments; a += CHUNK_SEGMENTS) {
    const b = closed ? Math.min(a + CHUNK_SEGMENTS, segments) : Math.min(a + CHUNK_SEGMENTS, segments - 1);
    const path = [];
    for (let i = a; i <= b + 1; i++) {
      const q = i % points;
      path.push({ x: xy[2 * q], y: xy[2 * q + 1] });
    }
    for (const r of bufferPolylines([path], h)) pieces.push(r);
  }
  return unionPolygons(pieces, PRECISION);
}

/**
 * A pass ring's closed flat polyline, one object per ring (`PathD`) object: the plannings of a call
 * sweep the same headland passes again (tracks/strips.ts `plannedPasses`), and the route drives them
 * (`sameRingAs`), so their swaths are drawn once.
 */
const ringFlats = new WeakMap<PathD, Float64Array>();
export function ringPass(r: PathD): Float64Array {
  let xy = ringFlats.get(r);
  if (!xy) ringFlats.set(r, (xy = ringToFlat(r)));
  return xy;
}

/**
 * Closed polylines declared the same ring as another (`sameRingAs`): the route's headland pass is
 * the planned pass ring driven whole from where it was joined (another start, either direction, the
 * junction a point on an edge: route/connectTracks.ts), whose swath is the same region.
 */
const sameRings = new WeakMap<object, object>();

/**
 * Declares `xy` (a closed flat polyline, not to be changed) the ring `as` is: same vertices in the
 * same cyclic order, either direction, from any start, with points added on its edges (within a
 * micrometre); its swath and the union it goes into are then taken for `as`'s.
 */
export function sameRingAs(xy: object, as: object): void {
  sameRings.set(xy, sameRings.get(as) ?? as);
}

/**
 * The object a pass's swath is kept under: its own swath when it has one (a band of sections, not
 * the buffer of its xy), else the ring it was declared the same as, else its own xy.
 */
function swathKey(p: WorkingPass): object {
  return p.swath ?? sameRings.get(p.xy) ?? p.xy;
}

/**
 * Swaths of curved passes by pass ring, width and sweep angle (`swathKey`). Straight passes are
 * their rectangles, cheaper drawn than looked up. Read-only, like the passes.
 */
const curvedSwaths = new WeakMap<object, Map<string, { swath: PathsD; area: number }>>();

function curvedSwathOnce(p: WorkingPass, angle: number, make: () => PathsD): { swath: PathsD; area: number } {
  if (p.xy.length <= 4 && !p.swath) {
    const swath = make();
    return { swath, area: areaOf(swath) };
  }
  const k = swathKey(p);
  let byKey = curvedSwaths.get(k);
  if (!byKey) curvedSwaths.set(k, (byKey = new Map()));
  const key = `${p.widthMeters} ${angle}`;
  let v = byKey.get(key);
  if (!v) {
    const swath = make();
    byKey.set(key, (v = { swath, area: areaOf(swath) }));
  }
  return v;
}

/** A number per swath key, for the key of a set of them. */
const swathIds = new WeakMap<object, number>();
let nextSwathId = 0;

/**
 * The union of the curved passes' swaths (`make`), kept by the set of passes (their swath keys and
 * widths, in any order: the route drives the passes in an order of its own), the sweep angle and
 * `precision`: the plannings of a call and the route's metric sweep the same headland passes
 * (geometry/swathUnion.ts). Read-only.
 */
const curvedUnions = new WeakMap<object, Map<string, PathsD>>();
export function curvedUnionOnce(swaths: TurnedSwaths, precision: number, make: () => PathsD): PathsD {
  const keys = swaths.curvedKeys;
  if (keys.length === 0) return make();
  const ids = keys.map((k, i) => {
    let id = swathIds.get(k);
    if (id === undefined) swathIds.set(k, (id = nextSwathId++));
    return { id, i };
  });
  ids.sort((a, b) => a.id - b.id || swaths.curvedWidths[a.i] - swaths.curvedWidths[b.i]);
  const key = `${swaths.angle} ${precision} ${ids.map((e) => `${e.id}:${swaths.curvedWidths[e.i]}`).join(' ')}`;
  const holder = keys[ids[0].i];
  let byKey = curvedUnions.get(holder);
  if (!byKey) curvedUnions.set(holder, (byKey = new Map()));
  let u = byKey.get(key);
  if (!u) byKey.set(key, (u = make()));
  return u;
}

/** The passes' swaths turned into the sweep frame (x' = x cos a + y sin a, y' = −x sin a + y cos a). */
export interface TurnedSwaths {
  /** The angle turned by (−angle), radians. */
  angle: number;
  /** The swaths' rings in the sweep frame: the curved passes' and the straight ones' (rectangles). */
  curved: PathsD;
  straight: PathsD;
  /** The curved passes' swath keys and widths, in order (`curvedUnionOnce`). */
  curvedKeys: object[];
  curvedWidths: number[];
  /** Σ of the swaths' areas (each pass once), m². */
  areaSum: number;
  /** A point of the local frame in the sweep frame; `back` the inverse. */
  turn: (x: number, y: number) => { x: number; y: number };
  back: (x: number, y: number) => { x: number; y: number };
}

/** The swaths of `passes` in the sweep frame chosen for them and the workable boundary `rings` (`sweepAngle`). */
export function turnedSwaths(passes: WorkingPass[], rings: PathsD): TurnedSwaths {
  const angle = sweepAngle(passes, rings);
  const c = Math.cos(angle),
    s = Math.sin(angle);
  const curved: PathsD = [],
    straight: PathsD = [];
  const curvedKeys: object[] = [],
    curvedWidths: number[] = [];
  let areaSum = 0;
  for (const p of passes) {
    const n = p.xy.length;
    if (n < 4) continue;
    const out = n > 4 || p.swath ? curved : straight;
    if (n > 4 || p.swath) {
      curvedKeys.push(swathKey(p));
      curvedWidths.push(p.widthMeters);
    }
    const { swath, area } = curvedSwathOnce(p, angle, () => {
      if (p.swath) return p.swath.map((r) => r.map((q) => ({ x: q.x * c + q.y * s, y: -q.x * s + q.y * c })));
      const t = new Float64Array(n);
      for (let i = 0; i + 1 < n; i += 2) {
        const x = p.xy[i],
          y = p.xy[i + 1];
        t[i] = x * c + y * s;
        t[i + 1] = -x * s + y * c;
      }
      return passSwath(t, p.widthMeters);
    });
    areaSum += area;
    for (const r of swath) out.push(r);
  }
  return {
    angle,
    curved,
    straight,
    curvedKeys,
    curvedWidths,
    areaSum,
    turn: (x, y) => ({ x: x * c + y * s, y: -x * s + y * c }),
    back: (x, y) => ({ x: x * c - y * s, y: x * s + y * c }),
  };
}
