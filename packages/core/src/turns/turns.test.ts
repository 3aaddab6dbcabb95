import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isPlanError } from '../errors.js';
import {
  bulbTurnExtentMeters,
  bulbTurnLengthMeters,
  dubinsLengthMeters,
  dubinsPath,
  predictFieldTurns,
  reedsSheppLengthMeters,
  reedsSheppSolutions,
  shortestDubins,
  turnCandidates,
  uTurnLengthMeters,
  type Pose,
  type TurnPath,
  type TurnSegment,
} from './index.js';

// ---- Independent references (not the code under test) ----

/** Integrates pieces with Simpson's rule on 2000 sub-steps each: end pose. */
function integrate(from: Pose, segs: readonly TurnSegment[]): Pose {
  let x = from.x;
  let y = from.y;
  let h = from.headingRadians;
  for (const g of segs) {
    const d = g.reverse ? -1 : 1;
    const a = (g.endCurvaturePerMeter - g.startCurvaturePerMeter) / g.lengthMeters;
    const head = (s: number) => h + d * (g.startCurvaturePerMeter * s + 0.5 * a * s * s);
    const n = 2000;
    const ds = g.lengthMeters / n;
    let sx = 0;
    let sy = 0;
    for (let i = 0; i <= n; i++) {
      const wgt = i === 0 || i === n ? 1 : i % 2 === 1 ? 4 : 2;
      sx += wgt * Math.cos(head(i * ds));
      sy += wgt * Math.sin(head(i * ds));
    }
    x += (d * sx * ds) / 3;
    y += (d * sy * ds) / 3;
    h = head(g.lengthMeters);
  }
  return { x, y, headingRadians: h };
}

function angleDiff(a: number, b: number): number {
  return Math.abs(Math.atan2(Math.sin(a - b), Math.cos(a - b)));
}

/** Menger curvature of point triples whose legs are ≥ minLegMeters; returns the max, skipping cusp points. */
function maxTripleCurvature(p: Float64Array, cusps: number[], minLegMeters = 0.4): number {
  const n = p.length / 2;
  const cuspSet = new Set(cusps);
  let max = 0;
  for (let i = 1; i < n - 1; i++) {
    let j = i - 1;
    while (j > 0 && Math.hypot(p[2 * i] - p[2 * j], p[2 * i + 1] - p[2 * j + 1]) < minLegMeters) j--;
    let k = i + 1;
    while (k < n - 1 && Math.hypot(p[2 * i] - p[2 * k], p[2 * i + 1] - p[2 * k + 1]) < minLegMeters) k++;
    let crossesCusp = false;
    for (let c = j; c <= k; c++) if (cuspSet.has(c)) crossesCusp = true;
    if (crossesCusp) continue;
    const ax = p[2 * j],
      ay = p[2 * j + 1],
      bx = p[2 * i],
      by = p[2 * i + 1],
      cx = p[2 * k],
      cy = p[2 * k + 1];
    const ab = Math.hypot(bx - ax, by - ay);
    const bc = Math.hypot(cx - bx, cy - by);
    const ca = Math.hypot(ax - cx, ay - cy);
    if (ab < minLegMeters * 0.999 || bc < minLegMeters * 0.999) continue;
    const area2 = Math.abs((bx - ax) * (cy - ay) - (by - ay) * (cx - ax));
    max = Math.max(max, (2 * area2) / (ab * bc * ca));
  }
  return max;
}

/**
 * Independent curvature-rate estimate: signed Menger curvature of triples with legs ≥ leg
 * (placed at the triple's mean arc length), then the largest |Δκ|/Δs over estimates ≥ leg apart.
 */
function maxTripleCurvatureRate(p: Float64Array, leg = 0.2): number {
  const n = p.length / 2;
  const s = [0];
  for (let i = 1; i < n; i++) s.push(s[i - 1] + Math.hypot(p[2 * i] - p[2 * i - 2], p[2 * i + 1] - p[2 * i - 1]));
  const at: number[] = [];
  const kappa: number[] = [];
  for (let i = 1; i < n - 1; i++) {
    let j = i;
    while (j > 0 && s[i] - s[j] < leg) j--;
    let k = i;
    while (k < n - 1 && s[k] - s[i] < leg) k++;
    if (s[i] - s[j] < leg || s[k] - s[i] < leg) continue;
    const ax = p[2 * j],
      ay = p[2 * j + 1],
      bx = p[2 * i],
      by = p[2 * i + 1],
      cx = p[2 * k],
      cy = p[2 * k + 1];
    const cross = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
    kappa.push(
      (2 * cross) / (Math.hypot(bx - ax, by - ay) * Math.hypot(cx - bx, cy - by) * Math.hypot(ax - cx, ay - cy)),
    );
    at.push((s[j] + s[i] + s[k]) / 3);
  }
  let max = 0;
  let m = 0;
  for (let i = 0; i < at.length; i++) {
    while (m < at.length && at[m] - at[i] < leg) m++;
    if (m >= at.length) break;
    max = Math.max(max, Math.abs(kappa[m] - kappa[i]) / (at[m] - at[i]));
  }
  return max;
}

function maxStep(p: Float64Array): number {
  let m = 0;
  for (let i = 2; i < p.length; i += 2) m = Math.max(m, Math.hypot(p[i] - p[i - 2], p[i + 1] - p[i - 1]));
  return m;
}

function maxY(p: Float64Array): number {
  let m = -Infinity;
  for (let i = 1; i < p.length; i += 2) m = Math.max(m, p[i]);
  return m;
}

const north = (x: number, y = 0): Pose => ({ x, y, headingRadians: Math.PI / 2 });
const south = (x: number, y = 0): Pose => ({ x, y, headingRadians: -Math.PI / 2 });

describe('field turns match their closed forms', () => {
  it.each([
    [18, 6],
    [30, 9],
    [7, 3],
    [12.5, 6],
  ])('flat U, w = %d m, R = %d m: w + (π − 2)R, extent R', (w, R) => {
    const c = turnCandidates(north(0), south(-w), { turnRadiusMeters: R });
    expect(c[0].turnType).toBe('U');
    expect(c[0].lengthMeters).toBeCloseTo(w + (Math.PI - 2) * R, 9);
    expect(maxY(c[0].points)).toBeCloseTo(R, 6);
    expect(uTurnLengthMeters(w, R)).toBeCloseTo(w + (Math.PI - 2) * R, 12);
  });

  it.each([3, 6, 9])('perfect U, w = 2R, R = %d m: πR', (R) => {
    const c = turnCandidates(north(0), south(-2 * R), { turnRadiusMeters: R });
    expect(c[0].turnType).toBe('PerfectU');
    expect(c[0].lengthMeters).toBeCloseTo(Math.PI * R, 9);
    // The same semicircle is not offered twice under other words.
    expect(c.filter((p) => Math.abs(p.lengthMeters - Math.PI * R) < 1e-6)).toHaveLength(1);
  });

  it.each([
    [6, 6],
    [6, 9],
    [2, 9],
    [0.5, 3],
    [11, 6],
  ])('bulb, w = %d m, R = %d m: R[π + 4 arccos((w + 2R)/4R)], extent R + √(4R² − (w/2 + R)²)', (w, R) => {
    const c = turnCandidates(north(0), south(-w), { turnRadiusMeters: R });
    const expected = R * (Math.PI + 4 * Math.acos((w + 2 * R) / (4 * R)));
    const extent = R + Math.sqrt(4 * R * R - (w / 2 + R) ** 2);
    expect(c[0].turnType).toBe('Bulb');
    expect(c[0].lengthMeters).toBeCloseTo(expected, 9);
    // Sampled apex within a chord's sagitta of the analytic extent.
    expect(maxY(c[0].points)).toBeLessThanOrEqual(extent + 1e-9);
    expect(maxY(c[0].points)).toBeGreaterThan(extent - R * (1 - Math.cos(0.25 / R)) - 1e-9);
    expect(bulbTurnLengthMeters(w, R)).toBeCloseTo(expected, 12);
    expect(bulbTurnExtentMeters(w, R)).toBeCloseTo(extent, 12);
    const pred = predictFieldTurns(w, { turnRadiusMeters: R });
    expect(pred[0]).toMatchObject({ turnType: 'Bulb', reverse: false });
    expect(pred[0].lengthMeters).toBeCloseTo(expected, 9);
    expect(pred[0].extentMeters).toBeCloseTo(extent, 9);
  });

  it('bulb limits: πR at w = 2R, 7πR/3 with extent (1 + √3)R as w → 0', () => {
    expect(bulbTurnLengthMeters(12, 6)).toBeCloseTo(Math.PI * 6, 9);
    expect(bulbTurnLengthMeters(1e-9, 6)).toBeCloseTo((7 * Math.PI * 6) / 3, 6);
    expect(bulbTurnExtentMeters(1e-9, 6)).toBeCloseTo((1 + Math.sqrt(3)) * 6, 6);
  });

  it('the worked example: w = 6, R = 6 reaches 13.9 m; skipping one track (w = 12) gives a 6 m perfect U', () => {
    expect(bulbTurnExtentMeters(6, 6)).toBeCloseTo(13.9, 1);
    const skip = predictFieldTurns(12, { turnRadiusMeters: 6 });
    expect(skip[0].turnType).toBe('PerfectU');
    expect(skip[0].extentMeters).toBeCloseTo(6, 9);
  });

  it('turns to the right mirror turns to the left', () => {
    const left = turnCandidates(north(0), south(-18), { turnRadiusMeters: 6 });
    const right = turnCandidates(north(0), south(18), { turnRadiusMeters: 6 });
    expect(right[0].turnType).toBe('U');
    expect(right[0].lengthMeters).toBeCloseTo(left[0].lengthMeters, 9);
  });

  it('unaligned track ends: a U with a straight extension is offered besides the slanted Dubins U', () => {
    const c = turnCandidates(north(0), south(-18, 4), { turnRadiusMeters: 6 });
    const ext = c.find((p) => p.word === 'SLSL');
    expect(ext).toBeDefined();
    expect(ext!.turnType).toBe('U');
    expect(ext!.lengthMeters).toBeCloseTo(4 + 18 + (Math.PI - 2) * 6, 9);
    expect(c[0].lengthMeters).toBeLessThanOrEqual(ext!.lengthMeters);
  });
});

describe('Dubins paths', () => {
  it('a sharp change of direction too close to turn directly is a P-turn (a loop the long way round)', () => {
    const to = { x: 0, y: 1, headingRadians: Math.PI / 2 };
    const c = turnCandidates({ x: 0, y: 0, headingRadians: 0 }, to, { turnRadiusMeters: 6 });
    expect(c[0].turnType).toBe('PTurn');
    const total = c[0].segments!.reduce((acc, g) => acc + g.startCurvaturePerMeter * g.lengthMeters, 0);
    expect(Math.abs(total)).toBeCloseTo((3 * Math.PI) / 2, 9);
    // A pose reachable by a plain left turn is not a P-turn.
    const easy = turnCandidates(
      { x: 0, y: 0, headingRadians: 0 },
      { x: 20, y: 10, headingRadians: Math.PI / 2 },
      { turnRadiusMeters: 6 },
    );
    expect(easy[0].turnType).toBe('Dubins');
  });

  it('straight ahead is a straight line', () => {
    const c = turnCandidates(
      { x: 0, y: 0, headingRadians: 0 },
      { x: 10, y: 0, headingRadians: 0 },
      { turnRadiusMeters: 6 },
    );
    expect(c[0].lengthMeters).toBeCloseTo(10, 12);
    expect(c[0].points.length / 2).toBe(21);
  });

  it('a quarter turn to a pose on the circle is a quarter arc', () => {
    const R = 5;
    expect(
      dubinsLengthMeters({ x: 0, y: 0, headingRadians: 0 }, { x: R, y: R, headingRadians: Math.PI / 2 }, R),
    ).toBeCloseTo((Math.PI * R) / 2, 12);
    const p = dubinsPath({ x: 0, y: 0, headingRadians: 0 }, { x: R, y: R, headingRadians: Math.PI / 2 }, R);
    expect(p?.word).toBe('LSL');
  });

  it('offers several distinct candidates, shortest first, the shortest equal to shortestDubins', () => {
    const from = { x: 3, y: -2, headingRadians: 0.3 };
    const to = { x: 12, y: 7, headingRadians: 2.5 };
    const c = turnCandidates(from, to, { turnRadiusMeters: 4 });
    expect(c.length).toBeGreaterThanOrEqual(4);
    for (let i = 1; i < c.length; i++) expect(c[i].lengthMeters).toBeGreaterThanOrEqual(c[i - 1].lengthMeters);
    expect(c[0].lengthMeters).toBeCloseTo(shortestDubins(from, to, 4)!.lengthMeters, 12);
  });
});

const pose = fc.record({
  x: fc.double({ min: -50, max: 50, noNaN: true }),
  y: fc.double({ min: -50, max: 50, noNaN: true }),
  headingRadians: fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }),
});

function checkPath(p: TurnPath, from: Pose, to: Pose, R: number, step: number, sigma?: number): void {
  const n = p.points.length / 2;
  // Exactly the poses (=== so that -0 equals 0).
  expect(p.points[0] === from.x && p.points[1] === from.y).toBe(true);
  expect(p.points[2 * n - 2] === to.x && p.points[2 * n - 1] === to.y).toBe(true);
  expect(maxStep(p.points)).toBeLessThanOrEqual(step + 1e-6);
  const end = integrate(from, p.segments!);
  expect(Math.hypot(end.x - to.x, end.y - to.y)).toBeLessThan(1e-3);
  expect(angleDiff(end.headingRadians, to.headingRadians)).toBeLessThan(1e-6);
  let len = 0;
  for (const g of p.segments!) {
    len += g.lengthMeters;
    expect(Math.abs(g.startCurvaturePerMeter)).toBeLessThanOrEqual(1 / R + 1e-12);
    expect(Math.abs(g.endCurvaturePerMeter)).toBeLessThanOrEqual(1 / R + 1e-12);
  }
  expect(len).toBeCloseTo(p.lengthMeters, 9);
  expect(maxTripleCurvature(p.points, p.cusps)).toBeLessThanOrEqual((1 / R) * 1.001 + 1e-9);
  if (sigma !== undefined) {
    const segs = p.segments!;
    for (let i = 0; i < segs.length; i++) {
      const g = segs[i];
      expect(Math.abs(g.endCurvaturePerMeter - g.startCurvaturePerMeter) / g.lengthMeters).toBeLessThanOrEqual(
        sigma * (1 + 1e-9),
      );
      // Curvature is continuous, and zero at the ends and at cusps.
      const prevEnd = i === 0 ? 0 : segs[i - 1].reverse !== g.reverse ? 0 : segs[i - 1].endCurvaturePerMeter;
      expect(Math.abs(g.startCurvaturePerMeter - prevEnd)).toBeLessThan(1e-12);
      if (i > 0 && segs[i - 1].reverse !== g.reverse)
        expect(Math.abs(segs[i - 1].endCurvaturePerMeter)).toBeLessThan(1e-12);
    }
    if (segs.length > 0) expect(Math.abs(segs[segs.length - 1].endCurvaturePerMeter)).toBeLessThan(1e-12);
  }
}

describe('property: random poses and radii', () => {
  it('every Dubins candidate ends at the target pose and respects the radius', () => {
    fc.assert(
      fc.property(pose, pose, fc.double({ min: 1, max: 12, noNaN: true }), (from, to, R) => {
        const c = turnCandidates(from, to, { turnRadiusMeters: R });
        expect(c.length).toBeGreaterThan(0);
        for (const p of c) checkPath(p, from, to, R, 0.5);
      }),
      { seed: 4242, numRuns: 60, endOnFailure: true },
    );
  });

  it('CC clothoid candidates end at the target pose, respect radius and curvature rate', () => {
    fc.assert(
      fc.property(
        pose,
        pose,
        fc.double({ min: 2, max: 12, noNaN: true }),
        fc.double({ min: 0.05, max: 1, noNaN: true }),
        (from, to, R, sigma) => {
          const c = turnCandidates(from, to, { turnRadiusMeters: R, maxCurvatureRatePerSquareMeter: sigma });
          for (const p of c) checkPath(p, from, to, R, 0.5, sigma);
          // CC paths are never shorter than the plain Dubins path.
          if (c.length > 0) expect(c[0].lengthMeters).toBeGreaterThanOrEqual(dubinsLengthMeters(from, to, R) - 1e-9);
        },
      ),
      { seed: 777, numRuns: 60, endOnFailure: true },
    );
  });

  it('opposite-parallel poses: the shortest forward turn is no longer than the U / bulb formula', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.2, max: 40, noNaN: true }),
        fc.double({ min: 1, max: 12, noNaN: true }),
        fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }),
        fc.boolean(),
        (w, R, heading, leftSide) => {
          const from = { x: 10, y: -5, headingRadians: heading };
          const side = leftSide ? 1 : -1;
          const to = {
            x: from.x - side * w * Math.sin(heading),
            y: from.y + side * w * Math.cos(heading),
            headingRadians: heading + Math.PI,
          };
          const c = turnCandidates(from, to, { turnRadiusMeters: R });
          const formula = w >= 2 * R ? w + (Math.PI - 2) * R : R * (Math.PI + 4 * Math.acos((w + 2 * R) / (4 * R)));
          expect(c[0].lengthMeters).toBeLessThanOrEqual(formula + 1e-7);
          for (const p of c) checkPath(p, from, to, R, 0.5);
        },
      ),
      { seed: 99, numRuns: 100, endOnFailure: true },
    );
  });
});

describe('clothoid (CC) field turns', () => {
  it(
    'with a rate limit a forward turn exists for every spacing: U when w ≥ 2a, else a bulb with elementary outer ' +
      'turns',
    () => {
      fc.assert(
        fc.property(
          fc.double({ min: 0.2, max: 40, noNaN: true }),
          fc.double({ min: 2, max: 12, noNaN: true }),
          fc.double({ min: 0.02, max: 1, noNaN: true }),
          fc.double({ min: -3, max: 3, noNaN: true }),
          (w, R, sigma, along) => {
            const opts = { turnRadiusMeters: R, maxCurvatureRatePerSquareMeter: sigma };
            const from = north(0);
            const to = south(-w, along);
            const c = turnCandidates(from, to, opts);
            const forward = c.filter((p) => p.turnType === 'U' || p.turnType === 'PerfectU' || p.turnType === 'Bulb');
            expect(forward.length).toBeGreaterThan(0);
            for (const p of c) checkPath(p, from, to, R, 0.5, sigma);
            const pred = predictFieldTurns(w, opts);
            expect(pred.length).toBeGreaterThan(0);
            if (Math.abs(along) < 1e-9) {
              // The prediction is the candidate: same type and length, and the sampled path stays within the extent.
              const first = forward[0];
              expect(first.turnType).toBe(pred[0].turnType);
              expect(first.lengthMeters).toBeCloseTo(pred[0].lengthMeters, 6);
              expect(maxY(first.points)).toBeLessThanOrEqual(pred[0].extentMeters + 1e-6);
              expect(maxY(first.points)).toBeGreaterThan(pred[0].extentMeters - 0.02);
            }
          },
        ),
        { seed: 31337, numRuns: 80, endOnFailure: true },
      );
    },
  );

  it('with reversing allowed the three-point turn (C+C−C+) exists with clothoids and respects every limit', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.2, max: 11, noNaN: true }),
        fc.double({ min: 6, max: 14, noNaN: true }),
        fc.double({ min: 0.05, max: 1, noNaN: true }),
        (w, R, sigma) => {
          const opts = { turnRadiusMeters: R, maxCurvatureRatePerSquareMeter: sigma, reverseAllowed: true };
          const c = turnCandidates(north(0), south(-w), opts);
          const k = c.find((p) => p.word === 'R+L-R+');
          expect(k).toBeDefined();
          expect(k!.turnType).toBe('Fishtail');
          expect(k!.cusps).toHaveLength(2);
          for (const p of c) checkPath(p, north(0), south(-w), R, 0.5, sigma);
          // It reaches less far than the quarter-turn fishtail, as predicted.
          const pred = predictFieldTurns(w, opts);
          const kp = pred.find((p) => p.word === 'R+L-R+')!;
          const fish = pred.find((p) => p.turnType === 'Fishtail' && !p.word)!;
          expect(kp.extentMeters).toBeLessThan(fish.extentMeters);
          expect(maxY(k!.points)).toBeLessThanOrEqual(kp.extentMeters + 1e-3);
        },
      ),
      { seed: 8080, numRuns: 40, endOnFailure: true },
    );
  });

  it('independent estimate: sampled every 5 cm, clothoid turns stay under σ; the same turns with arcs do not', () => {
    fc.assert(
      fc.property(
        pose,
        pose,
        fc.double({ min: 2, max: 6, noNaN: true }),
        fc.double({ min: 0.05, max: 0.3, noNaN: true }),
        (from, to, R, sigma) => {
          const cc = turnCandidates(from, to, {
            turnRadiusMeters: R,
            maxCurvatureRatePerSquareMeter: sigma,
            sampleStepMeters: 0.05,
          });
          for (const p of cc.slice(0, 3))
            expect(maxTripleCurvatureRate(p.points)).toBeLessThanOrEqual(sigma * 1.1 + 0.01);
          // Negative control: plain arcs jump by 1/R ≥ 0.17 1/m, read as ≥ 0.4 1/m² over 0.4 m.
          const arcs = turnCandidates(from, to, { turnRadiusMeters: R, smoothing: 'Arcs', sampleStepMeters: 0.05 })[0];
          const curved = arcs.segments!.some((g) => g.startCurvaturePerMeter !== 0);
          if (curved) expect(maxTripleCurvatureRate(arcs.points)).toBeGreaterThan(sigma * 1.1 + 0.01);
        },
      ),
      { seed: 4711, numRuns: 25, endOnFailure: true },
    );
  });

  it(
    'R = 6, w = 12, σ = 0.1: clothoids make the quarter turns advance more than R, so the skip-one U becomes a ' +
      'bulb',
    () => {
      const pred = predictFieldTurns(12, { turnRadiusMeters: 6, maxCurvatureRatePerSquareMeter: 0.1 });
      expect(pred[0].turnType).toBe('Bulb');
      expect(pred[0].extentMeters).toBeGreaterThan(6);
      // Longer than the arc-only perfect U (πR), as a CC path must be.
      expect(pred[0].lengthMeters).toBeGreaterThan(Math.PI * 6);
    },
  );
});

describe('reverse: fishtail and Reeds-Shepp', () => {
  it.each([
    [6, 6],
    [4, 9],
    [1, 3],
  ])('fishtail, w = %d m, R = %d m: πR + 2R − w, extent R, two cusps', (w, R) => {
    const c = turnCandidates(north(0), south(-w), { turnRadiusMeters: R, reverseAllowed: true });
    const fish = c.find((p) => p.word === 'LS-L')!;
    expect(fish.turnType).toBe('Fishtail');
    expect(fish.lengthMeters).toBeCloseTo(Math.PI * R + 2 * R - w, 9);
    expect(fish.cusps).toHaveLength(2);
    expect(fish.startsReversed).toBe(false);
    expect(maxY(fish.points)).toBeLessThanOrEqual(R + 1e-9);
    expect(maxY(fish.points)).toBeGreaterThan(R - R * (1 - Math.cos(0.25 / R)) - 1e-9);
    const pred = predictFieldTurns(w, { turnRadiusMeters: R, reverseAllowed: true }).find(
      (p) => p.turnType === 'Fishtail' && !p.word,
    )!;
    expect(pred.lengthMeters).toBeCloseTo(Math.PI * R + 2 * R - w, 9);
    expect(pred.extentMeters).toBeCloseTo(R, 9);
    // The shortest manoeuvre with reversing is no longer than the fishtail.
    expect(c[0].lengthMeters).toBeLessThanOrEqual(fish.lengthMeters + 1e-9);
  });

  it('R 12 m with a 12 m headland: a three-point turn fits where no forward turn and no fishtail does', () => {
    const R = 12;
    const w = 6;
    const pred = predictFieldTurns(w, { turnRadiusMeters: R, reverseAllowed: true });
    expect(pred.filter((p) => !p.reverse).every((p) => p.extentMeters > 12)).toBe(true);
    const fits = pred.filter((p) => p.extentMeters < 12 && p.behindMeters === 0);
    expect(fits.length).toBeGreaterThan(0);
    expect(fits[0].word).toBe('R+L-R+');
    // The candidate with that word reaches exactly as far as predicted and never goes behind the track ends.
    const c = turnCandidates(north(0), south(-w), { turnRadiusMeters: R, reverseAllowed: true, sampleStepMeters: 0.1 });
    const path = c.find((p) => p.word === fits[0].word)!;
    expect(maxY(path.points)).toBeCloseTo(fits[0].extentMeters, 2);
    let minY = Infinity;
    for (let i = 1; i < path.points.length; i += 2) minY = Math.min(minY, path.points[i]);
    expect(minY).toBeGreaterThan(-1e-6);
    expect(path.cusps).toHaveLength(2);
  });

  it('straight back is one reversed straight', () => {
    const c = turnCandidates(
      { x: 0, y: 0, headingRadians: 0 },
      { x: -5, y: 0, headingRadians: 0 },
      { turnRadiusMeters: 4, reverseAllowed: true },
    );
    expect(c[0].turnType).toBe('ReedsShepp');
    expect(c[0].word).toBe('S-');
    expect(c[0].lengthMeters).toBeCloseTo(5, 12);
    expect(c[0].startsReversed).toBe(true);
    expect(
      reedsSheppLengthMeters({ x: 0, y: 0, headingRadians: 0 }, { x: -5, y: 0, headingRadians: 0 }, 4),
    ).toBeCloseTo(5, 12);
  });

  it('without reverseAllowed no candidate reverses', () => {
    const c = turnCandidates(north(0), south(-4), { turnRadiusMeters: 6 });
    expect(c.every((p) => p.cusps.length === 0 && !p.startsReversed && p.segments!.every((g) => !g.reverse))).toBe(
      true,
    );
  });

  it('property: Reeds-Shepp candidates end at the target; the shortest is no longer than Dubins', () => {
    fc.assert(
      fc.property(pose, pose, fc.double({ min: 1, max: 12, noNaN: true }), (from, to, R) => {
        const c = turnCandidates(from, to, { turnRadiusMeters: R, reverseAllowed: true });
        for (const p of c) checkPath(p, from, to, R, 0.5);
        expect(c.some((p) => p.turnType === 'ReedsShepp' && p.cusps.length > 0) || c[0].cusps.length === 0).toBe(true);
        const rs = reedsSheppLengthMeters(from, to, R);
        // (1e-5: degenerate near-identical poses leave micrometre residues in the arcsine formulas.)
        expect(rs).toBeLessThanOrEqual(dubinsLengthMeters(from, to, R) + 1e-5);
        // The optimum, or (when the optimum creeps a stub under 5 cm at a cusp, not offered) within 5 cm of it.
        expect(c[0].lengthMeters).toBeGreaterThan(rs - 1e-5);
        expect(c[0].lengthMeters).toBeLessThan(rs + 0.05);
        // Every Reeds-Shepp solution reaches the target (none silently dropped).
        for (const s of reedsSheppSolutions(from, to, R)) {
          const end = integrate(from, s.segments);
          expect(Math.hypot(end.x - to.x, end.y - to.y)).toBeLessThan(1e-3);
          expect(angleDiff(end.headingRadians, to.headingRadians)).toBeLessThan(1e-6);
        }
      }),
      { seed: 515, numRuns: 60, endOnFailure: true },
    );
  });
});

describe('options', () => {
  it.each([
    [{ turnRadiusMeters: 0 }, 'turnRadiusMeters'],
    [{ turnRadiusMeters: Number.NaN }, 'turnRadiusMeters'],
    [{ turnRadiusMeters: 6, maxCurvatureRatePerSquareMeter: -1 }, 'maxCurvatureRatePerSquareMeter'],
    [{ turnRadiusMeters: 6, sampleStepMeters: 0 }, 'sampleStepMeters'],
    [{ turnRadiusMeters: 6, sampleStepMeters: 1e-6 }, 'sampleStepMeters'],
  ])('bad option %j throws PlanError naming %s', (opts, name) => {
    try {
      turnCandidates(north(0), south(-12), opts);
      expect.unreachable();
    } catch (err) {
      expect(isPlanError(err)).toBe(true);
      expect((err as { code: string }).code).toBe('invalid-option');
      expect((err as Error).message).toContain(name);
    }
  });

  it('points are sampled lazily but from the poses as they were at the call', () => {
    const from = north(0);
    const to = south(-18);
    const c = turnCandidates(from, to, { turnRadiusMeters: 6 });
    from.x = 100;
    to.x = 100;
    const p = c[0].points;
    expect(p[0]).toBe(0);
    expect(p[p.length - 2]).toBe(-18);
    const json = JSON.parse(JSON.stringify(c[0]));
    expect(Object.keys(json.points)).toHaveLength(p.length);
    expect(json.turnType).toBe('U');
  });

  it('an extreme curvature-rate limit neither hangs nor draws a wrong path: elementary field turns only', () => {
    const opts = { turnRadiusMeters: 0.05, maxCurvatureRatePerSquareMeter: 1e-6 };
    const t0 = Date.now();
    const c = turnCandidates(north(0), south(-6), opts);
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(c.length).toBeGreaterThan(0);
    // Only the field family (built from elementary turns); no CC-Dubins word survives.
    for (const p of c) expect(['U', 'PerfectU', 'Bulb']).toContain(p.turnType);
    for (const p of c) checkPath(p, north(0), south(-6), 0.05, 0.5, 1e-6);
    expect(turnCandidates({ x: 0, y: 0, headingRadians: 0 }, { x: 5, y: 5, headingRadians: 1 }, opts)).toEqual([]);
  });

  it('a smaller sample step gives more points on the same path', () => {
    const a = turnCandidates(north(0), south(-18), { turnRadiusMeters: 6, sampleStepMeters: 0.5 })[0];
    const b = turnCandidates(north(0), south(-18), { turnRadiusMeters: 6, sampleStepMeters: 0.1 })[0];
    expect(b.points.length).toBeGreaterThan(4 * a.points.length);
    expect(maxStep(b.points)).toBeLessThanOrEqual(0.1 + 1e-9);
  });
});
