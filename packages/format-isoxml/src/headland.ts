/**
 * The exterior headland area of a plan (for PLN type 10): the field minus the field shrunk by
 * the headland depth (exterior passes × working width), computed with clipper2-ts in a local
 * equirectangular frame on the WGS84 ellipsoid (scale error ~1e-5 over a field: sub-millimetre on a 30 m band).
 */
import { Clipper, ClipType, EndType, FillRule, JoinType, PolyTreeD } from 'clipper2-ts';
import type { PathD, PathsD, PolyPathD } from 'clipper2-ts';
import type { Plan, Position, Ring } from '@furrow/core';
import { polygonsOf, rewindPolygon } from '@furrow/format-geojson';

const PRECISION = 6;

/** Headland depth in meters from the plan: exterior passes × their width; 0 when the plan has none. */
export function headlandDepthMeters(plan: Plan): number {
  const passes = plan.route.filter((s) => s.type === 'ExteriorHeadland');
  if (passes.length === 0) return 0;
  const width = passes.find((s) => typeof s.widthMeters === 'number')?.widthMeters ?? 0;
  // passes: as declared by the plan, else distinct pass indices of its exterior headland rings
  // (one pass may be several rings on a split field), else distinct route pieces
  const declared = typeof plan.headlandPasses === 'number' ? plan.headlandPasses : 0;
  const rings = Array.isArray(plan.headlands) ? (plan.headlands as { type?: unknown; passIndex?: unknown }[]) : [];
  const fromHeadlands = new Set(rings.filter((h) => h && h.type === 'ExteriorHeadland').map((h) => h.passIndex)).size;
  const distinct = new Set(passes.map((s) => s.headlandIndex ?? s.passIndex ?? s.sequence)).size;
  const count = declared || fromHeadlands || distinct;
  return count * width;
}

/** Headland band polygons (lon/lat rings, outer CCW, holes CW) for a depth in meters. */
export function headlandArea(plan: Plan, depthMeters = headlandDepthMeters(plan)): Ring[][] {
  if (!(depthMeters > 0)) return [];
  const polys = polygonsOf(plan.boundary);
  const origin = polys[0][0][0];
  // meters per degree from the WGS84 prime-vertical and meridian radii at the field
  const rad = Math.PI / 180;
  const e2 = 0.00669437999014;
  const s = 1 - e2 * Math.sin(origin[1] * rad) ** 2;
  const mx = (6378137 / Math.sqrt(s)) * Math.cos(origin[1] * rad) * rad;
  const my = ((6378137 * (1 - e2)) / (s * Math.sqrt(s))) * rad;
  const field: PathsD = [];
  for (const rings of polys) {
    for (const ring of rewindPolygon(rings))
      field.push(ring.slice(0, -1).map((p) => ({ x: (p[0] - origin[0]) * mx, y: (p[1] - origin[1]) * my })));
  }
  const inner = Clipper.inflatePathsD(field, -depthMeters, JoinType.Miter, EndType.Polygon, 2, PRECISION);
  const tree = new PolyTreeD();
  Clipper.booleanOpDWithPolyTree(ClipType.Difference, field, inner, tree, FillRule.NonZero, PRECISION);
  const toRing = (path: PathD): Ring => {
    const ring: Position[] = path.map((p) => [origin[0] + p.x / mx, origin[1] + p.y / my]);
    ring.push([ring[0][0], ring[0][1]]);
    return ring;
  };
  const out: Ring[][] = [];
  const visit = (node: PolyPathD): void => {
    for (let i = 0; i < node.count; i++) {
      const shell = node.child(i);
      const rings: Ring[] = [toRing(shell.poly as PathD)];
      for (let j = 0; j < shell.count; j++) {
        rings.push(toRing(shell.child(j).poly as PathD));
        visit(shell.child(j));
      }
      out.push(rewindPolygon(rings));
    }
  };
  visit(tree);
  return out;
}
