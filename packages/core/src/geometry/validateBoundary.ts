/**
 * Boundary validation: closed rings, enough points, finite lon/lat in range, no
 * self-intersection (within or between rings), holes inside their shell. Positions are
 * checked in lon/lat; crossings and containment in the local metric frame with exact
 * orientation predicates (robust-predicates) over a flatbush index of the edges.
 */
import Flatbush from 'flatbush';
import { orient2d } from 'robust-predicates';
import { pointInRing } from './pointInRing.js';
import { PlanError } from '../errors.js';
import type { Position } from '../types.js';
import type { LonLatPolygon } from '../request/normalizeRequest.js';
import type { LocalFrame } from './projection.js';
import type { PathD, PathsD } from './clipper.js';
import { cleanPolygon } from './cleanPolygon.js';

/**
 * Corners (all rings of one polygon, after cleaning) a plan is made for: 15× the corpus's largest
 * field (643); a 2,000-corner ragged ring took 13-27 s and an 8,000-corner one 60 s to plan on the
 * loaded 2-core machine, so more would run for minutes.
 */
export const MAX_PLANNED_CORNERS = 10_000;

function reject(
  code: 'invalid-boundary' | 'self-intersection' | 'hole-outside-shell',
  path: string,
  message: string,
): never {
  throw new PlanError(code, `${path}: ${message}`, [{ path, message }]);
}

/** Checks positions of one ring in lon/lat; returns it without the closing repeat. */
function checkRing(ring: unknown, path: string): Position[] {
  if (!Array.isArray(ring)) reject('invalid-boundary', path, 'must be an array of [lon, lat] positions');
  if (ring.length < 4)
    reject(
      'invalid-boundary',
      path,
      `a ring needs at least 4 positions (3 corners + the closing one), got ${ring.length}`,
    );
  for (let i = 0; i < ring.length; i++) {
    const p = ring[i] as unknown;
    if (!Array.isArray(p) || p.length < 2) reject('invalid-boundary', `${path}[${i}]`, 'must be a [lon, lat] position');
    const lon = p[0] as unknown,
      lat = p[1] as unknown;
    if (typeof lon !== 'number' || typeof lat !== 'number' || !Number.isFinite(lon) || !Number.isFinite(lat))
      reject('invalid-boundary', `${path}[${i}]`, 'longitude and latitude must be finite numbers');
    if (lon < -180 || lon > 180 || lat < -90 || lat > 90)
      reject(
        'invalid-boundary',
        `${path}[${i}]`,
        `[${lon}, ${lat}] is out of range (longitude -180..180, latitude -90..90): is the order [lon, lat]? ` +
          `Projected coordinates must be reprojected to WGS84 (EPSG:4326) first`,
      );
  }
  const first = ring[0] as Position,
    last = ring[ring.length - 1] as Position;
  if (first[0] !== last[0] || first[1] !== last[1])
    reject(
      'invalid-boundary',
      path,
      `ring is not closed: the last position must repeat the first [${first[0]}, ${first[1]}]`,
    );
  const out: Position[] = [];
  for (let i = 0; i < ring.length - 1; i++) {
    const p = ring[i] as Position;
    const q = out[out.length - 1];
    if (q !== undefined && q[0] === p[0] && q[1] === p[1]) continue; // repeated position
    out.push([p[0], p[1]]);
  }
  if (out.length < 3) reject('invalid-boundary', path, 'a ring needs at least 3 distinct corners');
  return out;
}

function signedArea(ring: PathD): number {
  let a = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) a += (ring[j].x - ring[i].x) * (ring[j].y + ring[i].y);
  return a / 2;
}

interface Edge {
  ring: number;
  index: number;
  ax: number;
  ay: number;
  bx: number;
  by: number;
}

function onSegment(px: number, py: number, e: Edge): boolean {
  return (
    Math.min(e.ax, e.bx) <= px && px <= Math.max(e.ax, e.bx) && Math.min(e.ay, e.by) <= py && py <= Math.max(e.ay, e.by)
  );
}

/** Whether two edges intersect anywhere except at a vertex they legitimately share. */
function edgesCross(e: Edge, f: Edge, adjacent: boolean): boolean {
  const d1 = orient2d(e.ax, e.ay, e.bx, e.by, f.ax, f.ay);
  const d2 = orient2d(e.ax, e.ay, e.bx, e.by, f.bx, f.by);
  const d3 = orient2d(f.ax, f.ay, f.bx, f.by, e.ax, e.ay);
  const d4 = orient2d(f.ax, f.ay, f.bx, f.by, e.bx, e.by);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  if (adjacent) {
    // Neighbours share one vertex; they are bad only when collinear and folding back over each other.
    if (d1 === 0 && d2 === 0) {
      const dot = (e.bx - e.ax) * (f.bx - f.ax) + (e.by - e.ay) * (f.by - f.ay);
      return dot < 0;
    }
    return false;
  }
  // Touching (a vertex on the other edge) counts as an intersection for non-adjacent edges.
  if (d1 === 0 && onSegment(f.ax, f.ay, e)) return true;
  if (d2 === 0 && onSegment(f.bx, f.by, e)) return true;
  if (d3 === 0 && onSegment(e.ax, e.ay, f)) return true;
  if (d4 === 0 && onSegment(e.bx, e.by, f)) return true;
  return false;
}

/**
 * Validates one polygon (shell + holes) given in lon/lat and returns it in the local frame,
 * shell counter-clockwise and holes clockwise. Throws `PlanError` naming the ring and vertex.
 */
export function validatePolygon(polygon: LonLatPolygon, path: string, frame: LocalFrame): PathsD {
  if (!Array.isArray(polygon) || polygon.length === 0)
    reject('invalid-boundary', path, 'a polygon needs at least its outer ring');
  const checked = polygon.map((r, i) => checkRing(r, `${path}[${i}]`));
  // Input hygiene (geometry/cleanRing.ts): duplicates, spikes, collinear runs, sliver holes.
  const cleaned = cleanPolygon(
    checked.map((ring) =>
      ring.map((p) => {
        const [x, y] = frame.toLocal(p[0], p[1]);
        return { x, y };
      }),
    ),
    path,
    (r, i) => checked[r][i],
  );
  const local: PathsD = cleaned.rings;
  // Bound the planning work: what cleaning leaves is planned (offsets, connector rings, coverage)
  // in time that grows with the corner count; a ring that cannot be cleaned down is rejected, fast.
  let corners = 0;
  for (const r of local) corners += r.length;
  if (corners > MAX_PLANNED_CORNERS) {
    const message =
      `has ${corners} corners after cleaning (duplicates, spikes, collinear runs within 1 cm); at ` +
      `most ${MAX_PLANNED_CORNERS} are planned: simplify the boundary`;
    throw new PlanError('too-many-vertices', `${path}: ${message}`, [{ path, message }]);
  }
  const rings: Position[][] = cleaned.rings.map((ring, r) =>
    cleaned.sources[r].map((i) => checked[cleaned.ringIds[r]][i]),
  );
  // Edges of every ring, indexed.
  const edges: Edge[] = [];
  for (let r = 0; r < local.length; r++) {
    const ring = local[r];
    for (let i = 0; i < ring.length; i++) {
      const a = ring[i],
        b = ring[(i + 1) % ring.length];
      edges.push({ ring: r, index: i, ax: a.x, ay: a.y, bx: b.x, by: b.y });
    }
  }
  const index = new Flatbush(edges.length);
  for (const e of edges)
    index.add(Math.min(e.ax, e.bx), Math.min(e.ay, e.by), Math.max(e.ax, e.bx), Math.max(e.ay, e.by));
  index.finish();
  for (let k = 0; k < edges.length; k++) {
    const e = edges[k];
    const hits = index.search(Math.min(e.ax, e.bx), Math.min(e.ay, e.by), Math.max(e.ax, e.bx), Math.max(e.ay, e.by));
    for (const h of hits) {
      if (h <= k) continue;
      const f = edges[h];
      let adjacent = false;
      if (e.ring === f.ring) {
        const n = local[e.ring].length;
        adjacent = (e.index + 1) % n === f.index || (f.index + 1) % n === e.index;
      }
      if (edgesCross(e, f, adjacent)) {
        const er = cleaned.ringIds[e.ring],
          fr = cleaned.ringIds[f.ring];
        const ei = cleaned.sources[e.ring][e.index],
          fi = cleaned.sources[f.ring][f.index];
        const where = e.ring === f.ring ? `ring ${er}` : `rings ${er} and ${fr}`;
        const p = rings[e.ring][e.index];
        reject(
          'self-intersection',
          `${path}[${er}][${ei}]`,
          `the boundary intersects itself (${where}: edge ${ei} → ${ei + 1} near [${p[0]}, ${p[1]}] crosses or ` +
            `touches edge ${fi} → ${fi + 1})`,
        );
      }
    }
  }
  // Orientation and zero-area rings.
  for (let r = 0; r < local.length; r++) {
    const a = signedArea(local[r]);
    if (Math.abs(a) < 1e-6) reject('invalid-boundary', `${path}[${cleaned.ringIds[r]}]`, 'ring has zero area');
    if ((r === 0 && a < 0) || (r > 0 && a > 0)) local[r].reverse();
  }
  // Holes inside the shell (no crossings, so one vertex decides), and not inside each other.
  for (let r = 1; r < local.length; r++) {
    const p = local[r][0];
    if (!pointInRing(p.x, p.y, local[0]))
      reject(
        'hole-outside-shell',
        `${path}[${cleaned.ringIds[r]}]`,
        `hole ${cleaned.ringIds[r]} lies outside the outer ring (near [${rings[r][0][0]}, ${rings[r][0][1]}])`,
      );
    for (let s = 1; s < local.length; s++) {
      if (s !== r && pointInRing(p.x, p.y, local[s]))
        reject(
          'hole-outside-shell',
          `${path}[${cleaned.ringIds[r]}]`,
          `hole ${cleaned.ringIds[r]} lies inside hole ${cleaned.ringIds[s]}`,
        );
    }
  }
  return local;
}
