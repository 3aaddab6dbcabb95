/**
 * The connect stage on whole plans: far connectors follow the headland (connector rings)
 * unless `enableHeadlandDrivethrough` lets a shorter direct manoeuvre cut across; passes that
 * cannot be driven are left out loudly; parts joined only by a neck are joined by a transport
 * that never crosses a no-go zone.
 */
import { describe, expect, it } from 'vitest';
import { corpusField } from '../__fixtures__/corpusField.js';
import { planRoute } from '../plan.js';
import { prepareField } from '../geometry/prepareField.js';
import { checkPlan } from '../check/checkPlan.js';
import { normalizeRequest } from '../request/normalizeRequest.js';
import { createLocalFrame } from '../geometry/projection.js';
import { Region } from '../geometry/region.js';
import type { FieldGeometry, GeoJsonPolygon, PathPlanRequest, Plan } from '../types.js';

/** A polygon given in local meters around (lon0, lat0), as GeoJSON lon/lat. */
function polygonAt(lon0: number, lat0: number, ...rings: [number, number][][]): GeoJsonPolygon {
  const frame = createLocalFrame([[lon0, lat0]]);
  return {
    type: 'Polygon',
    coordinates: rings.map((r) => {
      const ll = r.map(([x, y]) => frame.toLonLat(x, y));
      return [...ll, ll[0]];
    }),
  };
}

function request(field: FieldGeometry, drivethrough = false): PathPlanRequest {
  return {
    field,
    machine: { widthMeters: 6, turnRadiusMeters: 6 },
    headland: { passes: 2 },
    routeOptions: { algorithm: 'snake', ...(drivethrough ? { enableHeadlandDrivethrough: true } : {}) },
  };
}

function connectors(plan: Plan, kind: string): Plan['route'] {
  return plan.route.filter((s) => s.type === 'Connector' && s.connectorKind === kind);
}

describe('far connectors (headland traversal, enableHeadlandDrivethrough)', () => {
  // at-ref-003: a concave field whose snake order jumps between cells several times.
  const field = corpusField('at-ref-003');
  const plain = planRoute(request(field));
  const through = planRoute(request(field, true));

  it('by default, a far connector follows a connector ring inside the headland band', () => {
    expect(checkPlan(field, plain).violations).toEqual([]);
    const traversals = connectors(plain, 'headlandTraversal');
    expect(traversals.length).toBeGreaterThan(0);
    // Measured in the field's own frame: most of each traversal lies in the headland band
    // (within passes × width + R of the boundary), not across the worked mainland.
    const lf = prepareField(normalizeRequest(request(field)));
    const region = new Region(lf.field);
    for (const t of traversals) {
      const near = t.coordinates.filter(([lon, lat]) => {
        const [x, y] = lf.frame.toLocal(lon, lat);
        return region.distanceToEdge(x, y) <= 2 * 6 + 6;
      }).length;
      expect(near / t.coordinates.length).toBeGreaterThan(0.7);
    }
  });

  it(
    'with enableHeadlandDrivethrough, far connectors cut across where that is shorter: fewer traversals, less ' +
      'non-working distance',
    () => {
      expect(checkPlan(field, through).violations).toEqual([]);
      expect(connectors(through, 'headlandTraversal').length).toBeLessThan(
        connectors(plain, 'headlandTraversal').length,
      );
      expect(through.metrics.nonWorkingDistanceMeters).toBeLessThan(plain.metrics.nonWorkingDistanceMeters);
      // The working passes are the same: only the connectors changed.
      expect(through.metrics.workingDistanceMeters).toBeCloseTo(plain.metrics.workingDistanceMeters, 0);
    },
  );
});

describe('passes and parts that cannot be driven within the turning radius', () => {
  it(
    'a headland pass round a pole (tighter than R all round) is left out with a warning, and the plan ' + 'stays clean',
    () => {
      // 160 × 100 m with a 1 m square pole: its first interior pass circles it at about 3.5 m
      // (rounds asked for: by default a pole smaller than the machine gets none).
      const field = polygonAt(
        15,
        48,
        [
          [-80, -50],
          [80, -50],
          [80, 50],
          [-80, 50],
        ],
        [
          [10.5, 0.5],
          [10.5, -0.5],
          [9.5, -0.5],
          [9.5, 0.5],
        ],
      );
      const plan = planRoute({ ...request(field), headland: { passes: 2, smallObstacleSizeMeters: 0 } });
      expect(checkPlan(field, plan).violations).toEqual([]);
      const skipped = plan.warnings.filter((w) => w.code === 'headland-pass-skipped');
      expect(skipped.length).toBeGreaterThan(0);
      for (const w of skipped) expect(w.message).toContain('InteriorHeadland');
      // What was left out is not in the route, and the exterior passes are.
      const driven = new Set(plan.route.filter((s) => s.headlandIndex !== undefined).map((s) => s.headlandIndex));
      for (const w of skipped) expect(driven.has(Number(/headland pass (\d+)/.exec(w.message)?.[1]))).toBe(false);
      expect(plan.route.some((s) => s.type === 'ExteriorHeadland')).toBe(true);
    },
  );

  it(
    'de-sh-008: two strips joined only by sub-metre necks are joined by a transport round the end of the ditch, ' +
      'never through it',
    () => {
      const field = corpusField('de-sh-008');
      const plan = planRoute(request(field));
      expect(checkPlan(field, plan).violations).toEqual([]);
      const transports = connectors(plan, 'transport');
      expect(transports.length).toBeGreaterThan(0);
      expect(plan.warnings.map((w) => w.code)).toContain('transit-leg');
      // Both strips are worked: at most a few percent uncovered (the plan without the transport left one out).
      expect(plan.metrics.uncoveredRatio).toBeLessThan(0.05);
      // checkPlan does not look at transports: check here that none enters the ditch (the field's hole).
      const lf = prepareField(normalizeRequest(request(field)));
      const holes = new Region(
        lf.field.filter((r) => {
          let a2 = 0;
          for (let i = 0, j = r.length - 1; i < r.length; j = i++) a2 += (r[j].x - r[i].x) * (r[j].y + r[i].y);
          return a2 < 0;
        }),
      );
      for (const t of transports) {
        for (const [lon, lat] of t.coordinates) {
          const [x, y] = lf.frame.toLocal(lon, lat);
          expect(holes.contains(x, y) && holes.distanceToEdge(x, y) > 0.1).toBe(false);
        }
      }
    },
  );
});
