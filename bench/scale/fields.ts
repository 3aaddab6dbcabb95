/**
 * Seeded synthetic fields for the scale benchmark: wobbly near-rectangles round 10°E 52°N.
 *
 * Recipe: a rectangle of the given area (sides in the ratio 1.08 : 1), turned by an angle drawn from
 * the seed, its perimeter sampled at exactly N points (the four corners among them, the rest evenly
 * spaced along each side), every point but the corners displaced along the side's normal by a
 * GPS-like jitter of ±0.15 m drawn from the same seed. Obstacles (optional) are holes: pond-like 16-gons of
 * radius 8–20 m placed at least 60 m inside the field and 20 m apart. Same arguments → same field.
 */
import type { FieldGeometry, Position } from '../../packages/core/src/index.js';
import { seededRandom } from '../../packages/core/src/geometry/random.js';

export interface ScaleFieldSpec {
  areaHa: number;
  vertices: number;
  seed: number;
  obstacles?: number;
}

const LON0 = 10,
  LAT0 = 52;
const M_PER_DEG_LAT = 111_320;
const M_PER_DEG_LON = 111_320 * Math.cos((LAT0 * Math.PI) / 180);
const JITTER_METERS = 0.15;

function toLonLat(x: number, y: number): Position {
  return [Math.round((LON0 + x / M_PER_DEG_LON) * 1e8) / 1e8, Math.round((LAT0 + y / M_PER_DEG_LAT) * 1e8) / 1e8];
}

/** The field of `spec`: a GeoJSON Polygon, shell counter-clockwise, the obstacles as holes (clockwise). */
export function scaleField(spec: ScaleFieldSpec): FieldGeometry {
  const rnd = seededRandom(spec.seed);
  const area = spec.areaHa * 10_000;
  const h = Math.sqrt(area / 1.08),
    w = 1.08 * h;
  const turn = (rnd() - 0.5) * (Math.PI / 3);
  const c = Math.cos(turn),
    s = Math.sin(turn);
  const corners = [
    [-w / 2, -h / 2],
    [w / 2, -h / 2],
    [w / 2, h / 2],
    [-w / 2, h / 2],
  ];
  const sides = [w, h, w, h];
  const perimeter = 2 * (w + h);
  // Points per side in proportion to its length (each side owns its first corner); total exactly N.
  const counts = sides.map((l) => Math.max(1, Math.floor((spec.vertices * l) / perimeter)));
  for (let k = 0; counts.reduce((a, b) => a + b, 0) < spec.vertices; k = (k + 1) % 4) counts[k]++;
  const ring: Position[] = [];
  for (let k = 0; k < 4; k++) {
    const [x0, y0] = corners[k],
      [x1, y1] = corners[(k + 1) % 4];
    const nx = -(y1 - y0) / sides[k],
      ny = (x1 - x0) / sides[k];
    for (let i = 0; i < counts[k]; i++) {
      const t = i / counts[k];
      const d = i === 0 ? 0 : (rnd() * 2 - 1) * JITTER_METERS;
      const x = x0 + (x1 - x0) * t + nx * d,
        y = y0 + (y1 - y0) * t + ny * d;
      ring.push(toLonLat(x * c - y * s, x * s + y * c));
    }
  }
  ring.push(ring[0]);
  const holes: Position[][] = [];
  const centres: { x: number; y: number; r: number }[] = [];
  for (let tries = 0; holes.length < (spec.obstacles ?? 0) && tries < 100_000; tries++) {
    const r = 8 + 12 * rnd();
    const x = (rnd() - 0.5) * (w - 120),
      y = (rnd() - 0.5) * (h - 120);
    if (centres.some((o) => Math.hypot(o.x - x, o.y - y) < o.r + r + 20)) continue;
    centres.push({ x, y, r });
    const pond: Position[] = [];
    for (let i = 0; i < 16; i++) {
      const a = (-2 * Math.PI * i) / 16,
        rr = r * (0.85 + 0.3 * rnd());
      const px = x + rr * Math.cos(a),
        py = y + rr * Math.sin(a);
      pond.push(toLonLat(px * c - py * s, px * s + py * c));
    }
    pond.push(pond[0]);
    holes.push(pond);
  }
  return { type: 'Polygon', coordinates: [ring, ...holes] };
}
