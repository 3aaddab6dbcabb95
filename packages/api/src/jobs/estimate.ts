/**
 * How much planning an item needs, relative to other items: the queues hand out the largest
 * first (longest-processing-time order), so a job's few slow fields do not run last while the
 * other workers sit idle.
 *
 * The estimate is √(area in ha × 6 m / width) × (1 + holes and obstacles) × √(vertices). Over the
 * 88 corpus fields its rank correlation with the measured planning time is 0.83 (vertices alone
 * 0.78, area alone 0.63; `docs/benchmarks/jobs.md`). It only orders work; nothing depends on its scale.
 */
type Ring = number[][];

function ringAreaSquareMeters(ring: Ring, geographic: boolean): number {
  if (ring.length < 3) return 0;
  const lat0 = geographic ? (ring[0][1] * Math.PI) / 180 : 0;
  const kx = geographic ? 111_320 * Math.cos(lat0) : 1;
  const ky = geographic ? 110_574 : 1;
  let twice = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    twice += ring[j][0] * kx * (ring[i][1] * ky) - ring[i][0] * kx * (ring[j][1] * ky);
  }
  return Math.abs(twice) / 2;
}

function polygonsOf(geometry: unknown): Ring[][] {
  const g = geometry as { type?: string; coordinates?: unknown } | null | undefined;
  if (g?.type === 'Polygon') return [g.coordinates as Ring[]];
  if (g?.type === 'MultiPolygon') return g.coordinates as Ring[][];
  return [];
}

/** Relative planning work of one item (≥ 0); `request` is the validated request without its geometry. */
export function estimateWork(geometry: unknown, request: Record<string, unknown>): number {
  const polygons = polygonsOf(geometry);
  const geographic = polygons.every((p) =>
    p.every((r) => r.every((c) => Math.abs(c[0]) <= 180 && Math.abs(c[1]) <= 90)),
  );
  let area = 0;
  let vertices = 0;
  let holes = 0;
  for (const p of polygons) {
    p.forEach((ring, k) => {
      vertices += ring.length;
      area += (k === 0 ? 1 : -1) * ringAreaSquareMeters(ring, geographic);
    });
    holes += Math.max(0, p.length - 1);
  }
  const obstacles = request.obstacles;
  if (Array.isArray(obstacles)) holes += obstacles.length;
  const machine = (request.machine ?? request.equipment) as { widthMeters?: unknown } | undefined;
  const width = typeof machine?.widthMeters === 'number' && machine.widthMeters > 0 ? machine.widthMeters : 6;
  const value = Math.sqrt(((Math.max(0, area) / 10_000) * 6) / width) * (1 + holes) * Math.sqrt(vertices);
  return Number.isFinite(value) ? value : 0;
}

/** The estimate as a queue priority (pg-boss takes the highest first): log-scaled, 0–100. */
export function workPriority(estimate: number): number {
  return Math.max(0, Math.min(100, Math.round(8 * Math.log2(1 + estimate))));
}
