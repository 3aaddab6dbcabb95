/**
 * A polyline bent no tighter than a radius: its corners replaced by tangent arcs (fillets). The
 * polyline is first simplified (Douglas-Peucker within `toleranceMeters`, so a jagged line's
 * zigzags are not corners); two corners whose arcs would overlap on the segment between them
 * are merged into one (where the segments before and after them meet, turning the same way),
 * until every arc fits. Corners that still do not fit (an S-bend too short for its two arcs) keep
 * the shorter arcs the segment allows: the result is then tighter there, which the caller checks.
 */
import { douglasPeuckerKeep } from './douglasPeucker.js';
import { hypot } from './vec.js';

interface Pt {
  x: number;
  y: number;
}

function turnAt(a: Pt, b: Pt, c: Pt): number {
  const t = Math.atan2(c.y - b.y, c.x - b.x) - Math.atan2(b.y - a.y, b.x - a.x);
  return Math.atan2(Math.sin(t), Math.cos(t));
}

/** Where the line through a, b meets the line through c, d; undefined when parallel. */
function meet(a: Pt, b: Pt, c: Pt, d: Pt): Pt | undefined {
  const rx = b.x - a.x,
    ry = b.y - a.y,
    sx = d.x - c.x,
    sy = d.y - c.y;
  const den = rx * sy - ry * sx;
  if (Math.abs(den) < 1e-12) return undefined;
  const t = ((c.x - a.x) * sy - (c.y - a.y) * sx) / den;
  return { x: a.x + t * rx, y: a.y + t * ry };
}

/** The corners merged until each segment holds the tangent lengths of its two ends' arcs. */
function mergeCorners(p: Pt[], radius: number): Pt[] {
  const tangent = (i: number): number =>
    i <= 0 || i >= p.length - 1 ? 0 : radius * Math.tan(Math.abs(turnAt(p[i - 1], p[i], p[i + 1])) / 2);
  for (let guard = 0; guard < 4 * p.length; guard++) {
    let worst = -1,
      excess = 0;
    for (let i = 0; i + 1 < p.length; i++) {
      const need = tangent(i) + tangent(i + 1) - hypot(p[i + 1].x - p[i].x, p[i + 1].y - p[i].y);
      if (need > excess + 1e-9) {
        excess = need;
        worst = i;
      }
    }
    if (worst < 0) break;
    const i = worst;
    // an end of the line cannot move; corners turning opposite ways cannot be merged
    if (i === 0 || i + 1 === p.length - 1) break;
    const s1 = turnAt(p[i - 1], p[i], p[i + 1]),
      s2 = turnAt(p[i], p[i + 1], p[i + 2]);
    const m = s1 * s2 > 0 && Math.abs(s1 + s2) < Math.PI * 0.95 ? meet(p[i - 1], p[i], p[i + 1], p[i + 2]) : undefined;
    if (!m) break;
    p.splice(i, 2, m);
  }
  return p;
}

/** The polyline with tangent arcs of `radius` at its corners, points at most `stepMeters` apart. */
export function filletPolyline(
  xy: Float64Array,
  radius: number,
  toleranceMeters: number,
  stepMeters: number,
): Float64Array {
  const keep = douglasPeuckerKeep(xy, toleranceMeters);
  let p: Pt[] = [];
  for (let i = 0; i < xy.length / 2; i++) if (keep[i]) p.push({ x: xy[2 * i], y: xy[2 * i + 1] });
  if (p.length < 3) return Float64Array.from(p.flatMap((q) => [q.x, q.y]));
  p = mergeCorners(p, radius);
  const out: number[] = [p[0].x, p[0].y];
  const lineTo = (q: Pt): void => {
    const lx = out[out.length - 2],
      ly = out[out.length - 1];
    const l = hypot(q.x - lx, q.y - ly);
    const m = Math.ceil(l / stepMeters);
    for (let k = 1; k <= m; k++) out.push(lx + ((q.x - lx) * k) / m, ly + ((q.y - ly) * k) / m);
  };
  for (let i = 1; i + 1 < p.length; i++) {
    const a = p[i - 1],
      b = p[i],
      c = p[i + 1];
    const th = turnAt(a, b, c);
    const l1 = hypot(b.x - a.x, b.y - a.y),
      l2 = hypot(c.x - b.x, c.y - b.y);
    // the arc's tangent length, held within half of each segment (the corner then bends tighter)
    const t = Math.min(radius * Math.tan(Math.abs(th) / 2), l1 / 2, l2 / 2);
    if (!(t > 1e-6) || Math.abs(th) < 1e-6) {
      lineTo(b);
      continue;
    }
    const r = t / Math.tan(Math.abs(th) / 2);
    const ux = (b.x - a.x) / l1,
      uy = (b.y - a.y) / l1;
    const start = { x: b.x - ux * t, y: b.y - uy * t };
    lineTo(start);
    const sign = th > 0 ? 1 : -1;
    // centre to the left (th > 0) or right of the incoming direction
    const cx = start.x - sign * uy * r,
      cy = start.y + sign * ux * r;
    const a0 = Math.atan2(start.y - cy, start.x - cx);
    const m = Math.max(1, Math.ceil((Math.abs(th) * r) / stepMeters));
    for (let k = 1; k <= m; k++) {
      const ang = a0 + (sign * Math.abs(th) * k) / m;
      out.push(cx + r * Math.cos(ang), cy + r * Math.sin(ang));
    }
  }
  lineTo(p[p.length - 1]);
  return Float64Array.from(out);
}
