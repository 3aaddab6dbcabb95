import { describe, expect, it } from 'vitest';
import { planRoute } from '../plan.js';
import { checkPlan } from '../check/checkPlan.js';
import { createLocalFrame } from '../geometry/projection.js';
import { patchThreshold, unworkedPatches } from '../geometry/unworked.js';
import { unworkedWarnings } from '../metrics/unworkedWarnings.js';
import { activeSwath } from '../geometry/activeSwath.js';
import type { GeoJsonPolygon, Plan } from '../types.js';

const LON0 = 16.37,
  LAT0 = 48.2;
const frame = createLocalFrame([[LON0, LAT0]]);

/** A polygon in local meters around (LON0, LAT0), as GeoJSON lon/lat. */
function polygon(...rings: [number, number][][]): GeoJsonPolygon {
  return {
    type: 'Polygon',
    coordinates: rings.map((r) => {
      const ll = r.map(([x, y]) => frame.toLonLat(x, y));
      return [...ll, ll[0]];
    }),
  };
}
const rect = (w: number, h: number): [number, number][] => [
  [-w / 2, -h / 2],
  [w / 2, -h / 2],
  [w / 2, h / 2],
  [-w / 2, h / 2],
];

const reduced = (plan: Plan, w: number): number[] =>
  plan.route.filter((s) => s.type === 'Track' && (s.widthMeters ?? w) < w - 1e-9).map((s) => s.widthMeters as number);

describe('strips narrower than the machine', () => {
  it('a 30 m strip at W 12 with 2 headland passes gets a reduced-width centre pass, not a silent 6 m stripe', () => {
    const request = {
      field: polygon(rect(30, 400)),
      machine: { widthMeters: 12, turnRadiusMeters: 9 },
      headland: { passes: 2 },
    };
    const plan = planRoute(request);
    const widths = reduced(plan, 12);
    expect(widths.length).toBeGreaterThan(0);
    // the stripe the one lap leaves is 30 − 2·12 = 6 m wide: the centre pass works about that
    for (const wd of widths) expect(Math.abs(wd - 6)).toBeLessThan(1);
    expect(plan.metrics.uncoveredRatio).toBeLessThan(0.05);
    expect(plan.metrics.overlapRatio).toBeLessThan(0.05);
    // the plan's own check re-measures coverage from the segments' widths
    expect(checkPlan(request, plan).violations.filter((v) => v.code === 'metrics')).toEqual([]);
  });

  it('a field narrower than the machine gets one pass through its middle with sections off, not a refusal', () => {
    const plan = planRoute({
      field: polygon(rect(20, 300)),
      machine: { widthMeters: 36, turnRadiusMeters: 12 },
      headland: { passes: 1 },
    });
    const tracks = plan.route.filter((s) => s.type === 'Track');
    expect(tracks).toHaveLength(1);
    expect(tracks[0].widthMeters).toBeGreaterThan(19);
    expect(tracks[0].widthMeters).toBeLessThanOrEqual(20.001);
    expect(plan.metrics.uncoveredRatio).toBeLessThan(0.02);
    const listed = plan.tracks as { widthMeters?: number }[];
    expect(listed.some((t) => t.widthMeters !== undefined && t.widthMeters < 36)).toBe(true);
  });
});

describe('unworked patches are warned with their area and place', () => {
  it('lists each patch over the threshold with its area and a point inside it', () => {
    // a 100 × 100 m square, a 10 m pass along its left edge and one along its right edge: the 80 m middle is unworked
    const sq = [
      [
        { x: 0, y: 0 },
        { x: 100, y: 0 },
        { x: 100, y: 100 },
        { x: 0, y: 100 },
      ],
    ];
    const passes = [
      { xy: [5, 0, 5, 100], widthMeters: 10 },
      { xy: [95, 0, 95, 100], widthMeters: 10 },
    ];
    const ws = unworkedWarnings(sq, passes, 10_000, (x, y) => frame.toLonLat(x, y));
    expect(ws).toHaveLength(1);
    const w = ws[0] as {
      code: string;
      message: string;
      geometry?: { coordinates: unknown };
      areaSquareMeters?: number;
    };
    expect(w.code).toBe('unworked-area');
    expect(w.areaSquareMeters).toBeCloseTo(8000, 0);
    const [lon, lat] = w.geometry!.coordinates as [number, number];
    const p = frame.toLocal(lon, lat);
    expect(p[0]).toBeGreaterThan(10);
    expect(p[0]).toBeLessThan(90);
    expect(w.message).toContain('8000 m²');
    // below the threshold (1 % of the field or 100 m², the smaller): not listed
    expect(patchThreshold(10_000)).toBe(100);
    expect(unworkedPatches(sq, [{ xy: [50, 0, 50, 100], widthMeters: 99.8 }], patchThreshold(10_000))).toEqual([]);
  });

  it('a plan lists every patch its route leaves over the threshold', () => {
    // an acute triangle, W 12, one lap: the sharp corners stay unworked
    const shell: [number, number][] = [
      [0, 0],
      [160, 0],
      [20, 70],
    ];
    const plan = planRoute({
      field: polygon(shell),
      machine: { widthMeters: 12, turnRadiusMeters: 9 },
      headland: { passes: 1 },
    });
    const listed = plan.warnings.filter((w) => w.code === 'unworked-area');
    // recomputed from the route's own working segments, in meters
    const passes = plan.route
      .filter((sg) => sg.type !== 'Turn' && sg.type !== 'Connector')
      .map((sg) => {
        const xy = sg.coordinates.flatMap(([lon, lat]) => frame.toLocal(lon, lat));
        // a centre-line pass works the band of its active sections (activeWidthsMeters, activeOffsetsMeters)
        const ws = sg.activeWidthsMeters as number[] | undefined,
          os = sg.activeOffsetsMeters as number[] | undefined;
        const swath =
          ws && os
            ? activeSwath(
                xy,
                ws.map((w, i) => os[i] - w / 2),
                ws.map((w, i) => os[i] + w / 2),
              )
            : undefined;
        return { xy, widthMeters: sg.widthMeters ?? 12, ...(swath ? { swath } : {}) };
      });
    const local = [shell.map(([x, y]) => ({ x, y }))];
    const patches = unworkedPatches(local, passes, patchThreshold(plan.metrics.fieldAreaSquareMeters));
    expect(patches.length).toBeGreaterThan(0);
    expect(listed).toHaveLength(patches.length);
    for (const [i, w] of listed.entries()) {
      expect(w.geometry?.type).toBe('Point');
      expect((w as { areaSquareMeters?: number }).areaSquareMeters).toBeCloseTo(patches[i].areaSquareMeters, -1);
    }
  });
});
